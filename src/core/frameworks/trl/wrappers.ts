// Whose code the trl sampler models (`--framework`): TRL 1.x (the sampler's default), TRL 0.18.2, or a
// wrapper on an older TRL that reads the batch settings its own way: Unsloth (015bdef, on trl 0.18.2–0.24.0)
// rewrites per_device_train_batch_size before TRL sees it; ms-swift (3602360, on trl 0.26–0.29) replaces
// GRPOConfig.__post_init__ with its own checks and, with sequence parallelism, its own RepeatSampler.
// All of them lay the prompts out with TRL's RepeatSampler and accelerate's per-process blocks; what
// differs is which settings are accepted, with which message, and what the run's batch becomes.
// Checked against each one's code, exec'd: test/fixtures/golden-trl-wrappers.json (scripts/golden/trl_wrappers.py).
import type { LayoutConfig } from '../layout/types.ts';
import { trlSays } from './framework-errors.ts';

export type TrlFamily = 'trl-0.18' | 'unsloth' | 'ms-swift';

export interface TrlFramework {
  /** The `--framework` name. */
  name: string;
  family: TrlFamily;
  /** The code quoted in its errors ("TRL 0.18.2", "Unsloth 015bdef on TRL 0.24.0"). */
  version: string;
  /** Its own defaults for the layout's settings, taken where neither a preset nor a flag gives them. */
  defaults: Partial<LayoutConfig>;
  /** Where they were read. */
  pinnedTo: string;
}

/** The frameworks whose reading of the batch settings differs from TRL 1.x's (the others run the trl sampler as it is). */
export const TRL_FRAMEWORKS: Record<string, TrlFramework> = {
  'trl-0.18.2': {
    name: 'trl-0.18.2',
    family: 'trl-0.18',
    version: 'TRL 0.18.2',
    defaults: {},
    pinnedTo: 'trl v0.18.2, trl/trainer/grpo_config.py GRPOConfig.__post_init__',
  },
  'unsloth-015bdef': {
    name: 'unsloth-015bdef',
    family: 'unsloth',
    version: 'Unsloth 015bdef on TRL 0.24.0',
    // unsloth/models/rl.py: the RLConfig replacements (per_device_train_batch_size 4, gradient_accumulation_steps 2,
    // num_generations 8, seed 3407); its GRPO ones (loss_type bnpo, beta 0.001) are the loss's, not the layout's.
    defaults: { batch: 4, gradientAccumulationSteps: 2, k: 8, seed: 3407 },
    pinnedTo:
      'unslothai/unsloth 015bdef, unsloth/models/rl.py (config defaults and the num_generations check), pinned to trl>=0.18.2,<=0.24.0',
  },
  'ms-swift-3602360': {
    name: 'ms-swift-3602360',
    family: 'ms-swift',
    version: 'ms-swift 3602360',
    // swift/arguments/rlhf_args.py: num_generations 8, gradient_accumulation_steps 1 for GRPO.
    defaults: { k: 8, gradientAccumulationSteps: 1 },
    pinnedTo:
      'modelscope/ms-swift 3602360, swift/rlhf_trainers/args_mixin.py _init_generation_batch_params and grpo_trainer.py ' +
      '_get_train_sampler (trl>=0.26 at run time, <1.0 in requirements/framework.txt)',
  },
};

/** The framework a trl configuration names, if its reading differs from TRL 1.x's. */
export function trlFramework(config: Pick<LayoutConfig, 'framework'>): TrlFramework | undefined {
  return config.framework !== undefined && Object.hasOwn(TRL_FRAMEWORKS, config.framework) ? TRL_FRAMEWORKS[config.framework] : undefined;
}

/** Unsloth's printed notice (unsloth/models/rl.py, the check_num_generations template at 015bdef), verbatim. */
export function unslothNotice(batch: number, k: number): string {
  return (
    'Unsloth: We now expect `per_device_train_batch_size` * `gradient_accumulation_steps` * `world_size` to be a multiple of ' +
    `\`num_generations\`.\nWe will change the batch size of ${batch} to the \`num_generations\` of ${k}`
  );
}

/**
 * Unsloth's rewrite, pasted into UnslothGRPOConfig.__init__ before TRL's GRPOConfig runs: when neither
 * steps_per_generation nor generation_batch_size is given and GA × WORLD_SIZE × per_device_train_batch_size
 * is not a multiple of num_generations, it prints its notice and sets per_device_train_batch_size =
 * num_generations. The new batch, or null when it leaves the batch alone.
 */
export function unslothBatch(args: { batch: number; ranks: number; gradientAccumulationSteps: number; k: number }): number | null {
  return (args.gradientAccumulationSteps * args.ranks * args.batch) % args.k !== 0 ? args.k : null;
}

/** TRL 0.18.2's message when the generation batch does not divide by num_generations (its possible_values from 2 up). */
export function trl018NotDivisible(ranks: number, batch: number, stepsPerGeneration: number, generation: number, k: number): string {
  const valid = divisorsFrom2(generation);
  return (
    `ValueError: The effective train batch size (${ranks} x ${batch} x ${stepsPerGeneration}) must be evenly divisible by the number of ` +
    `generations per prompt (${k}). Given the current effective train batch size, the valid values for the number of generations are: ` +
    `[${valid.join(', ')}].`
  );
}

/** ms-swift's message (args_mixin.py _init_generation_batch_params). */
export function msSwiftNotDivisible(generation: number, k: number): string {
  return (
    `ValueError: generation_batch_size (${generation}) must be evenly divisible by num_generations (${k}). ` +
    `Valid values: [${divisorsFrom2(generation).join(', ')}].`
  );
}

/** Python's [n for n in range(2, g + 1) if g % n == 0]. */
function divisorsFrom2(g: number): number[] {
  const out: number[] = [];
  for (let n = 2; n <= g; n++) if (g % n === 0) out.push(n);
  return out;
}

/** The ValueError text the framework raises when the generation batch does not divide by k. */
export function notDivisibleSays(framework: TrlFramework | undefined, c: LayoutConfig): string {
  const generation = c.batch * c.ranks * c.stepsPerGeneration;
  if (framework?.family === 'trl-0.18') return trl018NotDivisible(c.ranks, c.batch, c.stepsPerGeneration, generation, c.k);
  if (framework?.family === 'ms-swift') return msSwiftNotDivisible(generation, c.k);
  return trlSays.generationNotDivisibleByK(generation, c.k);
}
