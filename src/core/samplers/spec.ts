// What every sampler provides, so the layout code treats them all alike.
import type { ConfigError } from '../errors.ts';
import type { Layout, LayoutConfig, LayoutStep, SamplerName, TrainingCounts } from '../layout/types.ts';
import type { Fact, IgnoreReason } from '../messages/index.ts';
import type { FixCheck } from './rules.ts';

export interface SamplerSpec {
  name: SamplerName;
  /** The framework code it reproduces, in a few words. */
  title: string;
  /** Where the all-gather that regroups copies happens (see layout/gather.ts). */
  gatherScope: 'epoch' | 'step';
  /** Span of one draw of each prompt (see Layout.drawScope). */
  drawScope: 'epoch' | 'step';
  /**
   * Checks the framework's own rules on a config that already passed the common checks; null when
   * valid. Every fix the error names, in its text or its suggestions, must pass `passes`.
   */
  validate(config: LayoutConfig, passes: FixCheck): ConfigError | null;
  /** The config with derived settings filled in (e.g. batchesPerEpoch for trl); called on valid configs only. */
  effective(config: LayoutConfig): LayoutConfig;
  /** Samples per rank per layout step, for a valid effective config. */
  perRankPerStep(config: LayoutConfig): number;
  /** Generator draws the whole layout needs (for the size limit). */
  draws(config: LayoutConfig): number;
  /** All steps, epoch-major, for a valid effective config. */
  steps(config: LayoutConfig): LayoutStep[];
  /**
   * Settings this sampler does not read, each with the reason (one clause). A user who sets one
   * explicitly is refused (see `checkGivenSettings`) instead of having it silently ignored.
   */
  ignores: Partial<Record<keyof LayoutConfig, IgnoreReason>>;
  /**
   * The values its framework's published script gives settings only this sampler reads (flow_grpo's
   * loader): taken when the sampler is chosen without them, and by configurations that lack them.
   */
  defaults?: Partial<LayoutConfig>;
  /** Generation batches, micro-steps and optimizer steps as the framework's loop counts them, for a valid effective config. */
  counts(config: LayoutConfig): TrainingCounts;
  /** Plain-language remarks about the run (reseeding, padding, TRL's reused batches). */
  notes(config: LayoutConfig): Fact[];
  /** What one layout step is in the framework's loop: TRL's is a generation batch (steps_per_generation micro-batches). */
  stepNoun: 'batch' | 'generation batch';
  /**
   * Settings that exist for this sampler's framework alone (verl's trainer and actor keys, TRL's generation batch):
   * the others refuse them when given, and the forms show them only with this sampler.
   */
  ownSettings: readonly string[];
  /** Fields of its own that its layout's config keeps when they are set (the other samplers' JSON never has them). */
  configFields: readonly (keyof LayoutConfig)[];
  /** How many times its layout is built per sample: flow_grpo's loader facts build it a second time (for the budget). */
  buildsPerLayout: number;
  /** Which generator seed produced each step, in the framework's own words ('' where nothing new is seeded). */
  seedNotes(layout: Layout): (stepIndex: number) => string;
}
