// Unsloth (unslothai/unsloth 015bdef, on trl 0.18.2–0.24.0): rewrites per_device_train_batch_size before
// TRL's GRPOConfig sees it, and changes the defaults (unsloth/models/rl.py). The rest is TRL 1.x's reading,
// quoted under Unsloth's name. Checked: test/fixtures/golden-trl-wrappers.json (scripts/golden/trl_wrappers.py).
import type { LayoutConfig } from '../../layout/types.ts';
import { fact } from '../../messages/index.ts';
import { trlSays } from '../../samplers/framework-errors.ts';
import type { TrlFramework } from '../trl/wrappers.ts';

/** Unsloth's printed notice (unsloth/models/rl.py, the check_num_generations template at 015bdef), verbatim. */
export function unslothNotice(batch: number, k: number): string {
  return (
    'Unsloth: We now expect `per_device_train_batch_size` * `gradient_accumulation_steps` * `world_size` to be a multiple of ' +
    `\`num_generations\`.\nWe will change the batch size of ${batch} to the \`num_generations\` of ${k}`
  );
}

export const unsloth: TrlFramework = {
  name: 'unsloth-015bdef',
  version: 'Unsloth 015bdef on TRL 0.24.0',
  // unsloth/models/rl.py: the RLConfig replacements (per_device_train_batch_size 4, gradient_accumulation_steps 2,
  // num_generations 8, seed 3407); its GRPO ones (loss_type bnpo, beta 0.001) are the loss's, not the layout's.
  defaults: { batch: 4, gradientAccumulationSteps: 2, k: 8, seed: 3407 },
  pinnedTo:
    'unslothai/unsloth 015bdef, unsloth/models/rl.py (config defaults and the num_generations check), pinned to trl>=0.18.2,<=0.24.0',
  checksTwoGenerations: true,
  notDivisible: (c: LayoutConfig) => trlSays.generationNotDivisibleByK(c.batch * c.ranks * c.stepsPerGeneration, c.k),
  readsBatching: () => undefined,
  /**
   * Pasted into UnslothGRPOConfig.__init__ before TRL's GRPOConfig runs: when neither steps_per_generation nor
   * generation_batch_size is given and GA × WORLD_SIZE × per_device_train_batch_size is not a multiple of
   * num_generations, it prints its notice and sets per_device_train_batch_size = num_generations.
   */
  rewritesBatch: (args) => ((args.gradientAccumulationSteps * args.ranks * args.batch) % args.k !== 0 ? args.k : null),
  sequenceParallel: false,
  notes: (c) =>
    c.perDeviceBatchAsWritten === undefined
      ? []
      : [
          fact('note.unsloth.rewrite', {
            from: c.perDeviceBatchAsWritten,
            to: c.batch,
            ga: c.gradientAccumulationSteps,
            ranks: c.ranks,
            k: c.k,
            notice: unslothNotice(c.perDeviceBatchAsWritten, c.k),
          }),
        ],
};
