// What one optimizer step sees: the micro-batches each rank trains on, the policy that generated
// them, and the weight each completion's tokens get in the applied update. Pure data (JSON).
import type { Layout, LayoutConfig, SamplerName } from '../layout/types.ts';
import type { Fact } from '../messages/index.ts';
import type { LengthsSource, NeverAppliedFact, NormaliserTerms, OffPolicyFact, ShuffleFact, UpdateCause } from '../messages/steps.ts';

/** One completion as trained in one micro-step (a completion reused by num_iterations appears once per pass). */
export interface StepRow {
  /** Index of the completion over the run: layout step by layout step, rank-major, slot order. */
  completion: number;
  promptId: number;
  rank: number;
  /** Index of the micro-step over the run (every rank runs micro-step i at the same time). */
  microStep: number;
  /** Position of the completion in its rank's micro-batch. */
  position: number;
  /** Optimizer steps taken before the completion was generated (sampled). */
  policyVersion: number;
  /** Optimizer steps taken before the micro-step that trains on it: > policyVersion means off-policy (ratio ≠ 1). */
  trainVersion: number;
  /** Completion tokens (loss-mask sum); 1 per sample for the diffusion trainers. */
  tokens: number;
  /** The factor multiplying d(per-token loss) of each of its tokens in the applied update (after DDP's mean over ranks). */
  weight: number;
  /** 1 / (tokens of every row of the optimizer step, all ranks): the global token mean over the step. */
  intendedWeight: number;
}

/** One micro-step on one rank: its normaliser as the framework computes it. */
export interface MicroBatch {
  rank: number;
  microStep: number;
  /** Layout step (generation batch) its completions come from; flow_grpo: the epoch's first layout step. */
  generation: number;
  /** Which pass over the generation batch (num_iterations, inner epochs, ppo_epochs), from 0. */
  pass: number;
  policyVersion: number;
  trainVersion: number;
  /** Rows of this micro-batch, in order (indices into OptimizerStep.rows). */
  rows: number[];
  /** verl use_dynamic_bsz: this micro-batch's seqlens summed (prompt + response, what ppo_max_token_len_per_gpu budgets); absent otherwise. */
  packedTokens?: number;
  /** The normaliser in words with its numbers, e.g. "Σ tokens / (N_gen 812 / W 2 × GA 2 / spg 4)". */
  normaliser: string;
  /** The same normaliser as a formula's kind and numbers, for the page's languages (left out of --json, which has `normaliser`). */
  normaliserTerms: NormaliserTerms;
}

export interface OptimizerStep {
  /** Index over the run; -1 for trailing micro-steps whose gradients are never applied. */
  index: number;
  epoch: number;
  /** Micro-steps accumulated into this update (the last window of an epoch may be short). */
  microSteps: number;
  applied: boolean;
  rows: StepRow[];
  microBatches: MicroBatch[];
  /** Σ weight × tokens over the rows: 1 when the update has the size of the global token mean. */
  updateScale: number;
}

/** One framework's code as checked, named in every output. */
/**
 * Every framework version the steps model, by its CLI name (`--framework`). A table keyed by it (the
 * catalogues' pins and checks) must name every version: a new version without its words does not compile.
 */
export type FrameworkName =
  | 'trl-1.13.0'
  | 'trl-1.9.0'
  | 'trl-0.18.2'
  | 'unsloth-015bdef'
  | 'ms-swift-3602360'
  | 'ms-swift-efd0a54'
  | 'ms-swift-pr10116'
  | 'verl-b178a3c'
  | 'verl-b178a3c-engine'
  | 'flow_grpo-ac4c86e'
  | 'flow_grpo-sd3-fast-74db691'
  | 'dance-grpo-22b85ef';

export interface FrameworkVersion {
  name: FrameworkName;
  /** The code it was read from: package version or repository at a commit, with the file. */
  pinnedTo: string;
  /** 'run' where fixtures from its real code check the model, 'transcription' where only the text was read. */
  checkedBy: string;
}

export interface StepsReport {
  config: LayoutConfig;
  framework: FrameworkVersion;
  loss: string;
  /** Samples per rank per micro-step. */
  microBatch: number;
  /** Micro-steps per full optimizer step: gradient_accumulation_steps, or verl's ppo_mini_batch_size // ppo_micro_batch_size_per_gpu. */
  gradientAccumulation: number;
  /** The setting `gradientAccumulation` comes from (the text report names it). */
  gradientAccumulationFrom: GradientAccumulationFrom;
  maxCompletionLength: number;
  /** Where the completion lengths come from. */
  lengths: LengthsSource;
  steps: OptimizerStep[];
  /** One paragraph per finding, plain language with the run's numbers (src/core/messages/steps.ts says them). */
  findings: Fact[];
  /** The framework as pinned, the lengths' source, and what the model does not reproduce (shuffles from an unseeded generator, …). */
  notes: Fact[];
}

/** What one rank's micro-step knows when it normalises its loss. */
export interface NormaliserContext {
  ranks: number;
  /** Tokens of each completion of this rank's micro-batch, in order. */
  rows: readonly number[];
  /** Micro-steps in this optimizer step (transformers' current_gradient_accumulation_steps: the last window may be short). */
  window: number;
  /** gradient_accumulation_steps as configured (verl: ppo_mini_batch_size // ppo_micro_batch_size_per_gpu, per rank). */
  ga: number;
  /** TRL's steps_per_generation. */
  stepsPerGeneration: number;
  /** Completion tokens of the whole generation batch the rows come from, every rank (TRL's num_items_in_batch). */
  generationTokens: number;
  /** Completion tokens of every micro-batch of this optimizer step, every rank. */
  windowTokens: number;
  /** Completions of every micro-batch of this optimizer step, every rank (verl's global_batch_size). */
  windowSequences: number;
  /** max_completion_length (TRL dr_grpo) / the padded response length (verl's loss_mask.shape[-1]). */
  maxLength: number;
  /** verl use_dynamic_bsz: the normalised ppo_mini_batch_size, loss_scale_factor's divisor (rows / it replaces 1 / ga); absent otherwise. */
  dynamicMini?: number;
}

export interface Normaliser {
  /** Weight of each token of row i in this rank's backward (before the mean over ranks). */
  perToken(row: number): number;
  /** The normaliser's formula with its numbers. */
  terms: NormaliserTerms;
  /** The same in English. */
  text: string;
}

/**
 * The order a rank trains its block of one generation in (a permutation of 0 … size−1). The
 * frameworks shuffle with an unseeded generator (TRL: torch.randperm on the global generator in
 * shuffle_sequence_dict; flow_grpo: torch.randperm per inner epoch), so the default keeps the
 * block's order; the fixtures pass the permutations the real run drew.
 */
export type BlockOrder = (generation: number, pass: number, rank: number, size: number) => readonly number[] | undefined;

export interface MicroStepPlan {
  epoch: number;
  /** Layout step whose completions it trains on (flow_grpo: the epoch's first). */
  generation: number;
  /** The generation's completion tokens are counted over these layout steps (TRL's num_items_in_batch). */
  generationSteps: number[];
  pass: number;
  /** perRank[r] = completion indices of rank r's micro-batch, in order. */
  perRank: number[][];
  /** Where the schedule packs by tokens (verl use_dynamic_bsz): each rank's micro-batch's seqlens summed. */
  packedTokens?: number[];
  /** Index of its optimizer step (window) in `windows`. */
  window: number;
}

export interface WindowPlan {
  epoch: number;
  /** Micro-steps in it. */
  size: number;
  /** False for trailing micro-steps the run never steps on (flow_grpo's counter at the end of the run). */
  applied: boolean;
}

export interface Plan {
  microSteps: MicroStepPlan[];
  windows: WindowPlan[];
  /** Samples per rank per micro-step. */
  microBatch: number;
}

/** Where a report's gradient accumulation comes from: gradient_accumulation_steps, or verl's mini-batch ÷ micro-batch. */
export type GradientAccumulationFrom = 'gradient-accumulation-steps' | 'ppo-mini-batch';

/** How a framework version batches one rank's samples: per micro-step, per optimizer step (verl's mini-batch), and its GA. */
export interface Batching {
  microBatch: number;
  /** Samples per rank per optimizer step (verl's normalised ppo_mini_batch_size); the other schedules count micro-steps. */
  miniBatch?: number;
  /** The gradient_accumulation the normaliser divides by (verl: ppo_mini_batch_size // ppo_micro_batch_size_per_gpu). */
  ga: number;
  /** The setting `ga` comes from. */
  gaFrom: GradientAccumulationFrom;
  /** verl use_dynamic_bsz: the normalised ppo_mini_batch_size the loss scale divides a micro-batch's samples by. */
  dynamicMini?: number;
}

/**
 * How a framework's training loop cuts a layout's generation batches into micro-steps and
 * accumulation windows, and what the steps ask about it. Each home declares every field
 * (src/core/frameworks/<home>/steps-schedule.ts): none is inherited from another framework.
 */
export interface StepSchedule {
  /**
   * The micro-steps and windows of `layout`, micro-batches of `microBatch` samples per rank (a
   * schedule that fixes its own says so in the plan's microBatch); `miniBatch`: samples per rank
   * per optimizer step, where the schedule counts samples rather than micro-steps (verl).
   */
  plan(layout: Layout, microBatch: number, order: BlockOrder, miniBatch: number): Plan;
  /** Samples per rank per micro-step and the GA its normaliser divides by, checked against its rules (`given`: --micro-batch). */
  batching(layout: Layout, framework: FrameworkName, given: number | undefined): Batching;
  /** Samples per micro-batch the budget counts from the settings alone, before any layout is built (plannedWork). */
  plannedMicroBatch(config: LayoutConfig): number;
  /** Whether it reads TRL's steps_per_generation (the settings it shows and prints). */
  readsStepsPerGeneration: boolean;
  /** Whether its normaliser counts the tokens of the whole generation batch (TRL's num_items_in_batch). */
  countsGenerationTokens: boolean;
  /** A diffusion trainer: one "token" per sample (the timesteps cancel), so --lengths is refused. */
  diffusion: boolean;
  /** The sentences it explains a run with (src/core/messages/steps.ts). */
  facts: {
    /** Why its micro-steps train off-policy. */
    offPolicy: OffPolicyFact;
    /** How it orders a rank's samples (and what the model keeps instead). */
    shuffle: ShuffleFact;
    /** Why trailing micro-steps are never applied; null where its plan applies every window. */
    neverApplied: NeverAppliedFact | null;
  };
}

/** One framework version's steps: its code as checked, its schedule, its losses and normalisers. */
export interface FrameworkSpec extends FrameworkVersion {
  /** CLI name (`--framework`), the registry's key. */
  name: FrameworkName;
  schedule: StepSchedule;
  losses: readonly string[];
  defaultLoss: string;
  /**
   * What one of NormaliserContext.rows' tokens is: a completion token (the language-model trainers), or a whole sample
   * (the diffusion trainers, whose timesteps cancel). `train` applies only token normalisers: the controller's four
   * actions are tokens, not timesteps.
   */
  unit: 'token' | 'sample';
  /** The samplers whose layouts this framework trains on. */
  accepts(sampler: SamplerName): boolean;
  /** The samplers it trains when `--framework` is not given (at most one framework per sampler). */
  defaultFor: readonly SamplerName[];
  /** Why the update of a loss type is not the size of the global token mean, where this version's code makes it so (by loss). */
  updateCauses: Readonly<Partial<Record<string, UpdateCause>>>;
  normaliser(loss: string, c: NormaliserContext): Normaliser;
}
