// ms-swift (modelscope/ms-swift 3602360, on trl 0.26–0.29): replaces GRPOConfig.__post_init__ with its own
// checks (swift/rlhf_trainers/args_mixin.py _init_generation_batch_params) and, with sequence parallelism,
// uses its own RepeatSampler (grpo_trainer.py _get_train_sampler). Checked: test/fixtures/golden-trl-wrappers.json
// (scripts/golden/trl_wrappers.py).
import type { LayoutConfig } from '../../layout/types.ts';
import { configError, fact } from '../../messages/index.ts';
import { raises } from '../../samplers/framework-errors.ts';
import { divisors } from '../../samplers/rules.ts';
import type { TrlFramework } from '../trl/wrappers.ts';

const VERSION = 'ms-swift 3602360';

/** ms-swift's message (args_mixin.py _init_generation_batch_params). */
export function msSwiftNotDivisible(generation: number, k: number): string {
  return (
    `ValueError: generation_batch_size (${generation}) must be evenly divisible by num_generations (${k}). ` +
    `Valid values: [${divisors(generation)
      .filter((n) => n >= 2)
      .join(', ')}].`
  );
}

export const msSwift: TrlFramework = {
  name: 'ms-swift-3602360',
  version: VERSION,
  // swift/arguments/rlhf_args.py: num_generations 8, gradient_accumulation_steps 1 for GRPO.
  defaults: { k: 8, gradientAccumulationSteps: 1 },
  pinnedTo:
    'modelscope/ms-swift 3602360, swift/rlhf_trainers/args_mixin.py _init_generation_batch_params and grpo_trainer.py ' +
    '_get_train_sampler (trl>=0.26 at run time, <1.0 in requirements/framework.txt)',
  // It skips TRL's GRPOConfig.__post_init__ and checks num_generations only when it is above 1.
  checksTwoGenerations: false,
  notDivisible: (c: LayoutConfig) => msSwiftNotDivisible(c.batch * c.ranks * c.stepsPerGeneration, c.k),
  // It accepts steps_per_generation and generation_batch_size together when they agree.
  readsBatching(args) {
    const { stepsPerGeneration: spg, generationBatchSize: gbs } = args;
    if (spg === undefined || gbs === undefined) return undefined;
    const expected = args.batch * args.ranks * spg;
    if (gbs === expected) return spg;
    throw configError([
      fact('trl.generation-batch-equal', { generationBatchSize: gbs, expected }),
      raises(
        VERSION,
        `ValueError: generation_batch_size (${gbs}) must equal per_device_train_batch_size * world_size * steps_per_generation = ${expected}.`,
      ),
    ]);
  },
  rewritesBatch: null,
  sequenceParallel: true,
  // With sequence_parallel_size sp: its RepeatSampler repeats each chunk sp times more, and GA is multiplied by sp.
  notes: (c) => {
    const sp = c.sequenceParallelSize ?? 1;
    if (sp <= 1) return [];
    return [
      fact('note.ms-swift.sequence-parallel', {
        sp,
        repeat: c.numIterations * c.stepsPerGeneration * sp,
        ga: c.gradientAccumulationSteps,
        slices: c.stepsPerGeneration * sp,
      }),
    ];
  },
};
