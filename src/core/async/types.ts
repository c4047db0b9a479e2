// The asynchronous-GRPO simulation's workload, its groups and samples, and what it reports.
// Virtual time is in seconds; a policy version is the number of optimizer updates behind the weights
// (version 0 is the initial policy, step t trains at version t unless a framework syncs less often).

/** Where each prompt's k completion lengths come from. */
export type LengthSource =
  | { kind: 'distribution'; name: LengthDistribution }
  | { kind: 'given'; lengths: readonly (readonly number[])[]; difficulty: readonly string[] | null };

export const LENGTH_DISTRIBUTIONS = ['bimodal', 'uniform', 'long-tail'] as const;
export type LengthDistribution = (typeof LENGTH_DISTRIBUTIONS)[number];

/** The workload and the machines, the same for every framework's rule. */
export interface AsyncWorkload {
  /** Generation workers (inference engines). */
  genWorkers: number;
  /** Completions each worker decodes at once. */
  concurrency: number;
  /** Decode rate of one completion, tokens per second of virtual time. */
  tokensPerSecond: number;
  /** Prompts (groups) per trainer step. */
  trainBatchSize: number;
  /** Completions per prompt (the group size). */
  k: number;
  /** Trainer steps to simulate. */
  steps: number;
  /** A trainer step lasts this many seconds … */
  stepTime: number | null;
  /** … or its tokens divided by this rate (exactly one of the two is set). */
  trainTokensPerSecond: number | null;
  lengths: LengthSource;
  /** Seeds the length draws (the sandbox's PyTorch generator). */
  seed: number;
}

/** One completion. `versions`: every policy version whose weights decoded some of its tokens, oldest first. */
export interface Sample {
  group: number;
  index: number;
  length: number;
  start: number;
  end: number;
  versions: number[];
  /** Slot (worker × concurrency + lane) it was decoded on. */
  slot: number;
}

/** One prompt's k completions, dispatched together: the unit every framework's rule admits, keeps or drops. */
export interface Group {
  /** Dispatch order (0, 1, 2, …). */
  id: number;
  /** The prompt (dataset index); here the dispatch order, so every framework sees the same prompts in the same order. */
  prompt: number;
  difficulty: string | null;
  dispatchedAt: number;
  /** The generators' weights when the group was dispatched. */
  dispatchVersion: number;
  /** NeMo RL in_order's target_step and ROLL's step stamp; null where the rule does not stamp. */
  stamp: number | null;
  samples: Sample[];
  /** Completions not yet finished. */
  open: number;
  readyAt: number | null;
}

export type DropReason = 'stale-at-consumption' | 'evicted' | 'aborted-in-flight' | 'outside-step-window';

export interface Dropped {
  prompt: number;
  group: number;
  /** Trainer version when it was dropped. */
  atVersion: number;
  time: number;
  why: DropReason;
  /** The framework's words for it. */
  detail: string;
  /** Its lag by the framework's definition when dropped (null while it was still generating). */
  lag: number | null;
  /** Its completions' lengths (the tokens generated, for the length bias; partial for an abort). */
  lengths: number[];
  /** Whether the framework puts the same prompt back in the queue (none of the modelled ones does). */
  requeued: boolean;
}

export interface TrainedSample {
  prompt: number;
  group: number;
  index: number;
  length: number;
  /** Set when one version generated it. */
  version?: number;
  /** Set when it was generated across weight updates (in-flight updates). */
  versions?: number[];
  /** Trainer version − its version, as the framework defines it. */
  lag: number;
  /** Seconds from its completion to the start of the step that trains it. */
  wait: number;
  difficulty?: string;
}

export interface TrainedStep {
  step: number;
  /** The trainer's version (the weights this step's gradient is taken at). */
  version: number;
  start: number;
  end: number;
  /** Seconds the trainer waited for this batch. */
  trainerIdle: number;
  /** Slot-seconds the generators sat idle during this step's interval (from the previous step's end to this one's). */
  generatorIdle: number;
  /** Completions per generating version (the oldest version for one generated across updates). */
  byVersion: Record<string, number>;
  samples: TrainedSample[];
  /** How the trainer packed the step's samples into rows (TRL async with token_budget set). */
  packing?: StepPacking;
}

export interface StepPacking {
  /** Per micro-batch, each rank's row in tokens. */
  rows: number[][];
  /** Samples pulled but not trained: the packer dropped them. */
  dropped: { prompt: number; group: number; index: number; length: number; why: string }[];
}

export interface LengthBias {
  trainedMean: number;
  generatedMean: number;
  /** trainedMean / generatedMean − 1. */
  bias: number;
  byDifficulty: Record<string, { trainedMean: number; generatedMean: number; trained: number; generated: number }>;
}

export interface AsyncSummary {
  steps: number;
  makespan: number;
  /** Trained completions per second of virtual time. */
  throughput: number;
  meanLag: number;
  maxLag: number;
  dropped: number;
  trainerIdle: number;
  generatorIdle: number;
  lengthBias: LengthBias;
}

export interface AsyncResult {
  framework: string;
  /** The rule's settings by the framework's own names. */
  settings: Record<string, number | boolean | string>;
  /** What the framework calls lag, in words. */
  lagDefinition: string;
  steps: TrainedStep[];
  dropped: Dropped[];
  summary: AsyncSummary;
}
