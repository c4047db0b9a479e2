// Whose code the trl sampler models (`--framework`): TRL 1.x (the sampler's default), TRL 0.18.2, or a
// wrapper on an older TRL that reads the batch settings its own way (each in its own home: Unsloth in
// frameworks/unsloth/, ms-swift in frameworks/ms-swift/). All of them lay the prompts out with TRL's
// RepeatSampler and accelerate's per-process blocks; what differs is which settings are accepted, with
// which message, and what the run's batch becomes: the fields of a `TrlFramework`, which every reading
// declares (no reading falls back on another's).
// Checked against each one's code, exec'd: test/fixtures/golden-trl-wrappers.json (scripts/golden/trl_wrappers.py).
import type { LayoutConfig } from '../../layout/types.ts';
import type { Fact } from '../../messages/index.ts';
import { msSwift } from '../ms-swift/trl-reading.ts';
import { unsloth } from '../unsloth/trl-reading.ts';
import type { TrlBatchingArgs } from './sampler.ts';
import { trl018 } from './v018.ts';

export interface TrlFramework {
  /** The `--framework` name. */
  name: string;
  /** The code quoted in its errors ("TRL 0.18.2", "Unsloth 015bdef on TRL 0.24.0"). */
  version: string;
  /** Its own defaults for the layout's settings, taken where neither a preset nor a flag gives them. */
  defaults: Partial<LayoutConfig>;
  /** Where they were read. */
  pinnedTo: string;
  /** Whether it refuses num_generations below 2 as TRL's GRPOConfig.__post_init__ does. */
  checksTwoGenerations: boolean;
  /** Its ValueError when the generation batch does not divide by num_generations. */
  notDivisible(c: LayoutConfig): string;
  /**
   * Its own reading of steps_per_generation and generation_batch_size before TRL's (which then runs as
   * TRL 1.x's under its name): the value it settles on, undefined to leave it to TRL; throws ConfigError
   * in its own words where it refuses them.
   */
  readsBatching(args: TrlBatchingArgs, passes: (stepsPerGeneration: number) => boolean, k?: number): number | undefined;
  /** How it rewrites per_device_train_batch_size before TRL reads it (Unsloth's), or null when it does not. */
  rewritesBatch: ((args: { batch: number; ranks: number; gradientAccumulationSteps: number; k: number }) => number | null) | null;
  /** Whether it has sequence parallelism (`--sequence-parallel-size`): ms-swift's own RepeatSampler. */
  sequenceParallel: boolean;
  /** What it did to the settings, as it happened (beyond the note naming it). */
  notes(c: LayoutConfig): Fact[];
}

/**
 * The frameworks whose reading of the batch settings differs from TRL 1.x's (the others run the trl sampler as it is): the
 * homes' trlReadings (src/core/frameworks/sampler-homes.ts; test/core/frameworks/sampler-homes.test.ts checks that this
 * lists exactly them). Not read from that list: the trl sampler reads this one, and the list imports the trl sampler.
 */
export const TRL_FRAMEWORKS: Record<string, TrlFramework> = Object.fromEntries([trl018, unsloth, msSwift].map((f) => [f.name, f]));

/** The framework a trl configuration names, if its reading differs from TRL 1.x's. */
export function trlFramework(config: Pick<LayoutConfig, 'framework'>): TrlFramework | undefined {
  return config.framework !== undefined && Object.hasOwn(TRL_FRAMEWORKS, config.framework) ? TRL_FRAMEWORKS[config.framework] : undefined;
}
