// TRL 0.18.2's reading of the batch settings (trl/trainer/grpo_config.py GRPOConfig.__post_init__ at v0.18.2),
// the TRL that Unsloth's pins start from.
import type { LayoutConfig } from '../../layout/types.ts';
import { configError, fact, fixClauses } from '../../messages/index.ts';
import { raises, trlSays } from '../../samplers/framework-errors.ts';
import { divisors, passingMultiples } from '../../samplers/rules.ts';
import type { TrlFramework } from './wrappers.ts';

/** TRL 0.18.2's message when the generation batch does not divide by num_generations (its possible_values from 2 up). */
export function trl018NotDivisible(ranks: number, batch: number, stepsPerGeneration: number, generation: number, k: number): string {
  // Python's [n for n in range(2, g + 1) if g % n == 0].
  const valid = divisors(generation).filter((n) => n >= 2);
  return (
    `ValueError: The effective train batch size (${ranks} x ${batch} x ${stepsPerGeneration}) must be evenly divisible by the number of ` +
    `generations per prompt (${k}). Given the current effective train batch size, the valid values for the number of generations are: ` +
    `[${valid.join(', ')}].`
  );
}

const VERSION = 'TRL 0.18.2';

export const trl018: TrlFramework = {
  name: 'trl-0.18.2',
  version: VERSION,
  defaults: {},
  pinnedTo: 'trl v0.18.2, trl/trainer/grpo_config.py GRPOConfig.__post_init__',
  checksTwoGenerations: true,
  notDivisible: (c: LayoutConfig) =>
    trl018NotDivisible(c.ranks, c.batch, c.stepsPerGeneration, c.batch * c.ranks * c.stepsPerGeneration, c.k),
  /**
   * TRL 0.18.2 checks `generation_batch_size % per_device_train_batch_size * num_processes`, which Python reads
   * as (gbs % pd) × W: a multiple of pd that is not one of the global batch passes, and its RepeatSampler's
   * chunks then straddle its dataloader's batches; the sandbox refuses that, saying so.
   */
  readsBatching(args, passes, k) {
    const { stepsPerGeneration: spg, generationBatchSize: gbs } = args;
    const global = args.batch * args.ranks;
    if (gbs === undefined || spg !== undefined || gbs % global === 0) return undefined;
    if (gbs % args.batch !== 0) {
      throw configError([
        fact('trl.generation-batch-multiple', { generationBatchSize: gbs, global }),
        raises(VERSION, trlSays.generationNotDivisibleByGlobalBatch(gbs, global)),
      ]);
    }
    const floored = Math.floor(gbs / global);
    // TRL 0.18.2 goes on to check num_generations against the generation batch as given.
    if (k !== undefined && k >= 2 && gbs % k !== 0) {
      throw configError([
        fact('trl.generation-batch-multiple', { generationBatchSize: gbs, global }),
        raises(VERSION, trl018NotDivisible(args.ranks, args.batch, floored, gbs, k)),
      ]);
    }
    const near = passingMultiples(gbs / global, 1, (fix) => passes(fix.batch as number)).map((s) => s * global);
    throw configError([
      fact('trl-018.generation-batch-straddles', { generationBatchSize: gbs, batch: args.batch, global, stepsPerGeneration: floored }),
      ...fixClauses([near.length ? fact('fix.flag-values', { flag: 'generation-batch-size', values: near }) : null]),
    ]);
  },
  rewritesBatch: null,
  sequenceParallel: false,
  notes: () => [],
};
