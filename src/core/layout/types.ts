// The data the whole sandbox passes around: a configuration, and the layout a sampler makes
// of it. Pure data (JSON-serialisable), no behaviour, so the CLI, the UI and workers share it.
import type { Fact } from '../messages/index.ts';

/** The sampling schemes the sandbox reproduces (`docs/frameworks.md`). */
export type SamplerName = 'flow-grpo' | 'flow-grpo-lcm' | 'trl' | 'contiguous' | 'group-distributed' | 'dance-grpo' | 'verl';

/** Every sampler takes the same shape of configuration; settings a sampler ignores are kept as given. */
export interface LayoutConfig {
  sampler: SamplerName;
  /** W: data-parallel world size. */
  ranks: number;
  /** Samples (completions, not prompts) per rank per step, for every sampler. */
  batch: number;
  /** Copies per prompt: flow_grpo's k, TRL's num_generations, DanceGRPO's num_generations. */
  k: number;
  /** Layout steps per epoch (flow_grpo's num_batches_per_epoch; derived for flow-grpo-lcm, trl and dance-grpo). */
  batchesPerEpoch: number;
  epochs: number;
  /** Number of prompts in the dataset; ids are 0 … datasetSize − 1. */
  datasetSize: number;
  /** PyTorch generator seed; a safe integer (negative seeds are taken as two's complement, as PyTorch does). */
  seed: number;
  /** TRL only: steps_per_generation (defaults to gradient_accumulation_steps). */
  stepsPerGeneration: number;
  /** TRL's num_iterations (μ) / flow_grpo's train.num_inner_epochs / verl's actor.ppo_epochs: optimisation passes over one generation batch. */
  numIterations: number;
  /** gradient_accumulation_steps: micro-steps (TRL, flow_grpo) or samples (DanceGRPO) per optimizer step. */
  gradientAccumulationSteps: number;
  /** flow_grpo's loader: DataLoader num_workers between the sampler and the loop (src/core/samplers/loader.ts). */
  numWorkers: number;
  /** flow_grpo's loader: DataLoader prefetch_factor (index batches each worker draws ahead). */
  prefetchFactor: number;
  /** flow_grpo's loader: 1 when the train DataLoader goes through accelerator.prepare, 0 when not. */
  acceleratePrepare: number;
  /** verl only (absent = its default): trainer.balance_batch, reorder each step's samples by token workload across the ranks (verl's default true). */
  balanceBatch?: boolean;
  /** verl only: actor.ppo_mini_batch_size in prompts; 0 = data.train_batch_size (one mini-batch per step). */
  ppoMiniBatchSize?: number;
  /** verl only: actor.ppo_micro_batch_size_per_gpu in samples; 0 = the normalised mini-batch (one micro-batch each). */
  ppoMicroBatchSizePerGpu?: number;
  /**
   * verl only: data.dataloader_num_workers (verl's default 8). With workers, torchdata's StatefulDataLoader
   * builds each epoch's sampler iterator twice, so the RandomSampler draws two permutations and uses the second.
   */
  dataloaderNumWorkers?: number;
  /** verl only: actor.use_prefix_grouper; _balance_batch then keeps every copy of a uid on one rank (get_group_balanced_partitions). */
  usePrefixGrouper?: boolean;
  /** verl only: _balance_batch(keep_minibatch=True), Karmarkar–Karp per ppo_mini_batch_size slice (RayPPOTrainer.fit never passes it). */
  keepMinibatch?: boolean;
  /** verl only (absent = false): actor.use_dynamic_bsz, token-budget micro-batches (rearrange_micro_batches) in update_policy. */
  useDynamicBsz?: boolean;
  /** verl only (absent = 16384, actor.yaml's): actor.ppo_max_token_len_per_gpu, the micro-batch token budget under use_dynamic_bsz. */
  ppoMaxTokenLenPerGpu?: number;
  /**
   * verl only (absent = 1): actor.ulysses_sequence_parallel_size, GPUs per sequence-parallel group. `ranks` stays the
   * data-parallel size (verl dispatches one chunk per group); the run has ranks × it GPUs, and use_dynamic_bsz budgets
   * ppo_max_token_len_per_gpu × it tokens per micro-batch.
   */
  ulyssesSequenceParallelSize?: number;
  /**
   * verl only: measured token counts (prompt + response, the attention mask's sum), one per sample in
   * generation order (after repeat, before balancing), step after step; absent = the seeded synthetic ones.
   */
  seqlens?: number[];
  /**
   * trl (absent: TRL 1.13.0's reading): the framework whose code reads the batch settings, where it differs
   * (src/core/frameworks/trl/wrappers.ts): trl-0.18.2, unsloth-015bdef or ms-swift-3602360. flow-grpo:
   * flow_grpo-sd3-fast-74db691, the loop of that script (src/core/frameworks/flow-grpo/fast.ts).
   */
  framework?: string;
  /** trl under ms-swift only: sequence_parallel_size (its own RepeatSampler repeats each chunk that many times more); absent = 1. */
  sequenceParallelSize?: number;
  /** trl under Unsloth only: per_device_train_batch_size as written, when Unsloth rewrote it to num_generations (`batch` is the run's). */
  perDeviceBatchAsWritten?: number;
}

/** How often the trainer steps, counted as the framework's own training loop counts (per process). */
export interface StepCounts {
  /** Batches of prompts sampled and generated from (TRL: generation batches; flow_grpo: sampling batches). */
  generationBatches: number;
  /** Forward/backward passes on one micro-batch (per train timestep for the diffusion trainers: see `factors`). */
  microSteps: number;
  /** optimizer.step() calls that update the weights. */
  optimizerSteps: number;
}

/** A layout's step counts per epoch and over the whole run, with one line per factor that explains them. */
export interface TrainingCounts {
  perEpoch: StepCounts;
  total: StepCounts;
  /** One sentence per factor of the count, in the framework's own terms. */
  factors: string[];
}

/** One sampling step (one generation batch): what every rank receives. */
export interface LayoutStep {
  epoch: number;
  /** Index of the step within its epoch. */
  step: number;
  /** ranks[r][slot] = dataset (prompt) id rank r receives in that slot, in order. */
  ranks: number[][];
  /** verl: each sample's token count in generation order (after repeat(n, interleave=True), before balancing). */
  seqlens?: number[];
  /** verl: the dispatch order, generation indices rank-major (rank r holds the r-th contiguous chunk); identity without balancing. */
  order?: number[];
}

/** A sampler's complete output for a configuration. */
export interface Layout {
  sampler: SamplerName;
  /** All effective settings, including derived ones (e.g. batchesPerEpoch for trl). */
  config: LayoutConfig;
  /** In order: epoch-major, then step. */
  steps: LayoutStep[];
  /** Where the all-gather that regroups copies happens: over the epoch (flow_grpo gathers the concatenated batches) or per step. */
  gatherScope: 'epoch' | 'step';
  /** Plain-language remarks about the run the layout stands for (e.g. TRL's reused generation batches), as facts (English: `say`). */
  notes: Fact[];
  /**
   * Over which span one permutation draws each prompt at most once, i.e. what a per-draw uid
   * (verl) is scoped to: 'step' for samplers reseeded per batch, 'epoch' for one permutation
   * per epoch whose groups may straddle batches (flow-grpo-lcm). Absent means 'step'.
   */
  drawScope?: 'epoch' | 'step';
  /** Generation batches, micro-steps and optimizer steps as the framework's training loop counts them. */
  counts: TrainingCounts;
}

/** Where one copy of a prompt sits: before the gather (rank, slot of a step) and after it. */
export interface CopyPlace {
  rank: number;
  /** Index into layout.steps. */
  stepIndex: number;
  slot: number;
  /** Position in the rank-major gathered order of its gather scope. */
  gatheredIndex: number;
}

/** One sample in the gathered (rank-major) order of a gather. */
export interface GatheredSample {
  promptId: number;
  rank: number;
  stepIndex: number;
  slot: number;
  /** Per-draw id (verl's uid): copies of one draw of a prompt share it; a second draw gets another. */
  uid: string;
}

/** One all-gather: the samples of its scope concatenated rank-major, as all_gather / accelerator.gather return them. */
export interface Gather {
  epoch: number;
  /** Indices into layout.steps that this gather covers (one for 'step' scope, the epoch's steps for 'epoch'). */
  stepIndices: number[];
  samples: GatheredSample[];
}

/** The ways frameworks regroup samples: after the gather (prompt-id, view, uid) or on each rank without one (local). */
export type RegroupMethod = 'prompt-id' | 'view' | 'uid' | 'local';

/** One group after regrouping. */
export interface RegroupRow {
  /** The prompt id, the row number of view(-1, k), or the uid. */
  key: string;
  /** gatheredIndex of each member, in gathered order. */
  members: number[];
  /** The prompt id of each member. */
  promptIds: number[];
  /** True when the row holds more than one distinct prompt (view(-1, k) on a scattered order). */
  mixed: boolean;
  /** True when the row's size is not k (e.g. a prompt drawn twice in an epoch forms a 2k group by prompt id). */
  offSize: boolean;
}
