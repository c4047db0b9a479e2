// What a framework contributes to the sandbox, declared in one place: its home,
// `src/core/frameworks/<name>/index.ts`. Everything here is pure data and pure functions (no I/O,
// no npm packages): the CLI and the browser read config files and flags, the home says what they
// mean. A field a framework does not have is `null` with the reason, never another framework's fact.
import type { ConfigError } from '../errors.ts';
import type { OneStepBatch } from './one-step.ts';

/** How the framework's users write their settings. */
export type ConfigFormat =
  /** A YAML file of nested keys (verl, EasyR1, AReaL, SkyRL, ROLL). */
  | 'yaml'
  /** NeMo RL's YAML, whose `defaults:` names a parent file the child overrides. */
  | 'yaml-defaults'
  /** A TOML file (prime-rl). */
  | 'toml'
  /** The launch command line: `--key value` / `--flag` words (slime, OpenRLHF, open-instruct). */
  | 'argv'
  /** GRPOConfig keyword arguments as a JSON or YAML mapping (TRL, Unsloth, ms-swift). */
  | 'kwargs';

export type KeyValue = number | boolean | string | null;

/** One setting as the framework's own config names it, with its shipped default. */
export interface FrameworkKey {
  /**
   * The key as the user writes it: a dotted path into the YAML/TOML file ('grpo.num_prompts_per_step'),
   * or for 'argv' the flag without its leading dashes ('rollout-batch-size', 'rollout.n_samples_per_prompt').
   */
  key: string;
  /**
   * The sandbox's flag that sets the same value (kebab-case, no dashes). The common ones keep one meaning
   * for every framework: ranks (data-parallel size), train-batch-size (prompts per training step in the
   * framework's own terms), k (samples per prompt), seed, dataloader-num-workers, shuffle, dataset-size,
   * epochs. Others are the framework's own key in kebab-case ('ppo-max-token-len-per-gpu').
   */
  flag: string;
  kind: 'int' | 'bool' | 'number' | 'string';
  /** The framework's default at the pinned commit (null: unset / None), or the flag form's where `fileDefault` is given. */
  default: KeyValue;
  /**
   * The framework's own default where the flag form's differs: a config file that does not set the key gets
   * this. Only for a global (optimizer) batch that the flag form ties to the training step's batch, one
   * optimizer step per training step, as the shipped example configs have it.
   */
  fileDefault?: KeyValue;
  /** One clause: what the framework does with it. */
  about: string;
  /** For 'string' keys: the values the framework accepts. */
  choices?: readonly string[];
  /** True for a setting the framework's own config does not have (dataset-size, …): never read from or written to its file. */
  sandbox?: true;
}

/** Settings by flag (FrameworkKey.flag), every key of the home present. */
export type FrameworkSettings = Record<string, KeyValue>;

/** One training step's batch, as the framework hands it to its data-parallel ranks. */
export interface FrameworkStep {
  epoch: number;
  /** Index of the step within its epoch. */
  step: number;
  /** The prompt ids (dataset indices) of the step in the framework's generation order, before repeating k times. */
  prompts: number[];
  /**
   * ranks[r] = the prompt id of each sample data-parallel rank r trains on, in that rank's order, after the
   * framework's dispatch and before micro-batching (a prompt's k copies appear k times in all).
   */
  ranks: number[][];
  /** Where each rank's samples come from: indices into the step's generation order (prompt i's copy c is i·k + c). */
  sources: number[][];
  /** Each sample's token count in generation order, where dispatch depends on lengths. */
  seqlens?: number[];
}

/** A count in the framework's own words ("steps per epoch"), with how it follows from the settings. */
export interface FrameworkCount {
  name: string;
  value: number;
  /** One sentence with the numbers: "len(dataloader) = 1000 // 32 = 31". */
  how: string;
}

export interface FrameworkLayout {
  steps: FrameworkStep[];
  counts: FrameworkCount[];
  /** Plain-language remarks about the run, true of this framework at its pinned commit. */
  notes: string[];
  /** What the framework itself prints as a warning for these settings, verbatim. */
  warnings: string[];
}

/** One advantage scheme: what a completion's reward becomes. */
export interface AdvantageDef {
  /** `advantages --scheme` name ('nemo-rl', 'nemo-rl-no-loo', 'slime', …). */
  scheme: string;
  /** One line for help texts: grouping, mean, std (ddof, eps), and what a degenerate group gets. */
  about: string;
  /** How the framework identifies a group. */
  groupBy: 'position' | 'uid' | 'prompt-content' | 'group-object';
  /**
   * Advantages in input order (null where the framework's value is NaN), and what the framework would
   * flag ('the whole batch was normalised as one group: …'). Throws ConfigError for input the framework
   * refuses, in the framework's words.
   */
  compute(input: { rewards: readonly number[]; promptIds: readonly number[]; k: number }): {
    advantages: (number | null)[];
    warnings: string[];
  };
}

/** Micro-batches of one optimizer step on every rank, as the framework packs them. */
export interface PackedStep {
  /** ranks[r][m] = the samples (indices into the step's samples) of rank r's m-th micro-batch, in order. */
  ranks: number[][][];
  /** Micro-batches each rank runs (the data-parallel maximum where the framework synchronises it). */
  microBatchesPerRank: number;
}

/**
 * What a token budget does: 'cap' — no micro-batch of two or more samples holds more (in the samples' own token
 * counts; the framework may count padding into it too); 'soft' — a cap one long sample may pass; 'count' — it sets
 * how many micro-batches a rank runs (about its tokens ÷ the budget) and Karmarkar–Karp then balances them, so one
 * may pass it.
 */
export type BudgetRule = 'cap' | 'soft' | 'count';

/** The token budget one micro-batch is packed under, named by the framework's own keys. */
export interface TokenBudget {
  tokens: number;
  /** How it follows from the framework's keys, in its own words ('policy.sequence_packing.train_mb_tokens'). */
  from: string;
  rule: BudgetRule;
}

/** What a layout builds, counted before building: its training steps and their samples (prompts × k), at most. */
export interface PlannedLayout {
  steps: number;
  samples: number;
  /** The trainer's passes over each step's samples (PPO epochs; 1 where absent): `steps`' rows are samples × passes. */
  passes?: number;
  /** The flags that shrink the count, for the refusal (absent: --dataset-size, --epochs or --k). */
  lower?: string;
  /** The dataset's prompts the loader orders, once an epoch begun (budget.ts `plannedLayout` counts them). */
  datasetItems?: number;
}

export interface PackerDef {
  /** The framework's switch and budget, in its own words. */
  about: string;
  /** The flags (FrameworkKey.flag) the packer reads. */
  flags: readonly string[];
  /**
   * Whether these settings micro-batch this way (the framework's switch is on); absent: always, as for a
   * framework whose fixed-size micro-batches are the packer's static path.
   */
  enabled?(settings: FrameworkSettings): boolean;
  /**
   * The budget these settings pack a micro-batch of a step (its token counts `seqlens`) under, or null where they
   * micro-batch by sample count (the switch off) or the framework sets no budget: the line the browser draws.
   */
  budget(settings: FrameworkSettings, seqlens: readonly number[]): TokenBudget | null;
  /** Packs one step's samples (their token counts) over the ranks; throws ConfigError in the framework's words. */
  pack(seqlens: readonly number[], settings: FrameworkSettings): PackedStep;
}

/** One micro-batch of one rank in one optimizer step, with the weight its framework's loss gives its tokens. */
export interface TrainerMicroBatch {
  rank: number;
  /** The samples it holds: indices into the training step's samples (generation order), in the micro-batch's order. */
  samples: number[];
  /** Completion (loss-mask) tokens of the micro-batch. */
  tokens: number;
  /** Padding tokens the framework adds to it (0 where it packs without padding). */
  padding: number;
  /** The normaliser as the framework's code computes it, with its numbers ("Σ tokens / global_valid_toks 8192"). */
  normaliser: string;
  /**
   * weights[i] = the factor multiplying d(per-token loss) of each token of samples[i] in the applied update, after
   * the data-parallel mean (÷ W where the framework averages gradients over ranks) and gradient accumulation.
   */
  weights: number[];
  /** The policy version that generated the samples and the one that trains on them (optimizer steps so far). */
  policyVersion: number;
  trainVersion: number;
}

export interface TrainerStep {
  /** Optimizer step index over the run. */
  index: number;
  microBatches: TrainerMicroBatch[];
  /** Samples the framework's planner pulled for this step and dropped untrained (indices into the training step's samples). */
  dropped?: DroppedSample[];
}

/** A sample a planner drops instead of training it, with the framework's reason. */
export interface DroppedSample {
  sample: number;
  /** Its token count (prompt + completion). */
  tokens: number;
  /** The framework's rule, with its numbers ("longer than token_budget=4096"). */
  why: string;
}

/** What one optimizer step sees in this framework: micro-batches per rank and each token's weight in the update. */
export interface TrainerDef {
  /** The framework's loss-aggregation modes, its shipped default first. */
  losses: readonly string[];
  /** The flag (FrameworkKey.flag) that picks the loss aggregation; null where the framework has one fixed mode. */
  lossFlag: string | null;
  /**
   * The modes of `losses` whose importance ratio is one per sequence (GSPO's), not one per token: `train` applies only the
   * others (its loss op's ratio is per token); `steps` shows all of them.
   */
  sequenceRatio: readonly string[];
  /** One line: how the framework normalises the loss, in its own terms. */
  about: string;
  /**
   * The optimizer steps of one training step (`step` of the layout, with `completionTokens[i]` for sample i of the
   * step's generation order), from optimizer step `firstIndex` on; throws ConfigError in the framework's words.
   */
  optimizerSteps(
    step: FrameworkStep,
    completionTokens: readonly number[],
    settings: FrameworkSettings,
    loss: string,
    firstIndex: number,
  ): TrainerStep[];
}

/** A shipped example config, restated: `--preset NAME` gives the layout its run gets. */
export interface FrameworkPreset {
  /** `--preset NAME`, unique over every home and the sandbox's own presets. */
  name: string;
  /** One line: what the example runs. */
  about: string;
  /** The file it restates and the commit: 'examples/configs/grpo_math_1B.yaml @ 7ea279a'. */
  source: string;
  /** The keys of that file this home reads, as the file has them (nested; flat `--flag`s for a command line). */
  config: Record<string, unknown>;
}

/** A fact the framework lacks, and why (so nothing falls back to another framework's). */
export interface Absent {
  absent: string;
}

export interface FrameworkHome {
  /** CLI name: `--sampler NAME`, `--framework NAME`. */
  name: string;
  /** How users call it ("NVIDIA NeMo RL"). */
  title: string;
  /** Whose code is modelled: repository, commit and its date; the source files read. */
  pinned: { repo: string; commit: string; date: string; files: readonly string[] };
  configFormat: ConfigFormat;
  keys: readonly FrameworkKey[];
  /**
   * The settings with the sandbox's own ones written into the framework's keys where it has them (`--ranks` into
   * its GPU keys), as `--emit` writes its config; absent where no sandbox setting has a framework key.
   */
  resolve?(settings: FrameworkSettings): FrameworkSettings;
  /** The steps of a run, as the framework's loader and dispatch produce them. Throws ConfigError in the framework's words. */
  layout(settings: FrameworkSettings, seqlens?: readonly number[]): FrameworkLayout;
  /**
   * The training steps and samples `layout` will build, at most, counted from the (resolved) settings before building
   * (budget.ts `plannedLayout`, the budget's estimate); absent: `generic`, epochs × ⌈dataset-size / train-batch-size⌉
   * steps of train-batch-size prompts × k. A home whose keys cap or replace that count says how.
   */
  plannedLayout?(settings: FrameworkSettings, generic: PlannedLayout): PlannedLayout;
  /** The framework's shipped default first. */
  advantages: readonly AdvantageDef[];
  /** Token-budget micro-batching or sequence packing, where the framework has it. */
  packing: PackerDef | Absent;
  /** The loss normaliser and micro-batches of each optimizer step (`steps --framework NAME`); optional until every home has one. */
  trainer?: TrainerDef;
  /**
   * The flags of its own keys that make one batch (prompts × k completions) one optimizer step on one rank, from
   * oneStepBase (one-step.ts): the weights figure's column and `train --framework NAME`'s normaliser run it.
   */
  oneStep(batch: OneStepBatch): Record<string, string>;
  /** The framework's shipped example configs (none: an empty list). */
  presets: readonly FrameworkPreset[];
  /** How each fixture was made: 'exec' (its own code run) or 'transcribed' (with what and why). */
  checkedBy: readonly string[];
}

export type { ConfigError };
export type { OneStepBatch } from './one-step.ts';
