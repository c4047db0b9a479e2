// What one optimizer step sees: the micro-batches each rank trains on, the policy that generated
// them, and the weight each completion's tokens get in the applied update. Pure data (JSON).
import type { LayoutConfig } from '../layout/types.ts';
import type { Fact } from '../messages/index.ts';
import type { LengthsSource, NormaliserTerms } from '../messages/steps.ts';

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
  maxCompletionLength: number;
  /** Where the completion lengths come from. */
  lengths: LengthsSource;
  steps: OptimizerStep[];
  /** One paragraph per finding, plain language with the run's numbers (src/core/messages/steps.ts says them). */
  findings: Fact[];
  /** The framework as pinned, the lengths' source, and what the model does not reproduce (shuffles from an unseeded generator, …). */
  notes: Fact[];
}
