// What each framework itself prints for a configuration it rejects, word for word, so a user can
// match our one-line error with the line in their own log. Every message names the version it was
// read from; the wording changes between versions (TRL ≤ 0.18 printed a different sentence).
import { pinnedName } from '../messages/errors.ts';
import { type Fact, fact, say } from '../messages/index.ts';

/** TRL version whose GRPOConfig.__post_init__ (trl/trainer/grpo_config.py) the messages below are taken from. */
export const TRL_VERSION = '1.13.0';

/** flow_grpo's scatter sampler (DistributedKRepeatSampler in scripts/train_sd3.py before the lcm rewrite of flow_grpo/sampler.py, 74db691). */
export const FLOW_GRPO_PINNED = { framework: 'flow_grpo', code: 'DistributedKRepeatSampler', beforeCommit: '74db691' } as const;

/** The same, in words: "flow_grpo (DistributedKRepeatSampler before commit 74db691)". */
export const FLOW_GRPO_VERSION = pinnedName(FLOW_GRPO_PINNED);

/** DanceGRPO commit whose fastvideo/train_grpo_flux.py the dance-grpo sampler reproduces. */
export const DANCE_GRPO_VERSION = 'DanceGRPO 22b85ef';

/** The clause `<framework> raises: <text>` that quotes the framework after our own words (the framework named, or pinned before a commit). */
export function raises(framework: string | typeof FLOW_GRPO_PINNED, says: string): Fact {
  return typeof framework === 'string'
    ? fact('framework.raises', { framework, says })
    : fact('framework.pinned-raises', { ...framework, says });
}

/** Appends `; <framework> raises: <text>` to a message said only in English (the CLI's own flags). */
export function withFrameworkSays(ours: string, framework: string, says: string): string {
  return `${ours}; ${say(raises(framework, says))}`;
}

/** TRL's own messages (GRPOConfig.__post_init__, TRL 1.13.0). */
export const trlSays = {
  generationNotDivisibleByK: (generationBatchSize: number, numGenerations: number) =>
    `ValueError: generation_batch_size (${generationBatchSize}) must be divisible by num_generations (${numGenerations}).`,
  generationNotDivisibleByGlobalBatch: (generationBatchSize: number, globalBatch: number) =>
    `ValueError: generation_batch_size (${generationBatchSize}) must be divisible by the global batch size (${globalBatch}).`,
  bothGiven: () => `ValueError: 'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time`,
  tooFewGenerations: (numGenerations: number) =>
    `ValueError: GRPO requires at least 2 generations per prompt to calculate the advantages. You provided ${numGenerations}, which is less than ` +
    `the minimum required.`,
};

/** flow_grpo's assertion in DistributedKRepeatSampler.__init__ (the scatter sampler with m = n·b/k). */
export const flowGrpoSays = {
  kDoesNotDivide: (k: number, numReplicas: number, batchSize: number) =>
    `AssertionError: k can not divide n*b, k${k}-num_replicas${numReplicas}-batch_size${batchSize}`,
};

/** verl commit whose data path (main_ppo.py, ray_trainer.py, seqlen_balancing.py, protocol.py) the verl sampler reproduces. */
export const VERL_VERSION = 'verl b178a3c';

/** verl's own messages, word for word (VERL_VERSION); where each is raised is named. */
export const verlSays = {
  /** verl/utils/seqlen_balancing.py rearrange_micro_batches (actor.use_dynamic_bsz), max_seq_len the attention mask's width. */
  maxTokenLenBelowWidth: (maxTokenLen: number, maxSeqLen: number) =>
    `AssertionError: max_token_len must be greater than the sequence length. Got max_token_len=${maxTokenLen} and max_seq_len=${maxSeqLen}`,
  /** verl/utils/config.py validate_config, at startup: the step's samples must split over the GPUs. */
  notDivisibleByGpus: (realTrainBatchSize: number, minimalBsz: number) =>
    `AssertionError: real_train_batch_size (${realTrainBatchSize}) must be divisible by minimal possible batch size (${minimalBsz})`,
  /** verl/utils/seqlen_balancing.py karmarkar_karp, in _balance_batch (balance_batch true). */
  balanceNotDivisible: (samples: number, ranks: number) => `AssertionError: ${samples} % ${ranks} != 0`,
  /** verl/trainer/ppo/ray_trainer.py _balance_batch with actor.use_prefix_grouper. */
  prefixGrouperGroups: (groups: number, dpSize: number, batchSize: number) =>
    `ValueError: PrefixGrouper with balance_batch requires num_uid_groups (${groups}) % dp_size (${dpSize}) == 0. This ensures each rank ` +
    `gets equal number of groups. Current batch_size=${batchSize}, adjust batch_size to be a multiple of dp_size * rollout.n.`,
  /** verl/utils/seqlen_balancing.py get_seqlen_balanced_partitions (fewer items than partitions). */
  fewerThanPartitions: (items: number, k: number) => `AssertionError: number of items:[${items}] < k_partitions:[${k}]`,
  /** verl/protocol.py DataProto.chunk, at dispatch (balance_batch false). */
  chunkNotEqual: (samples: number, ranks: number) =>
    `AssertionError: only support equal chunk. Got size of DataProto ${samples} and chunk ${ranks}.`,
  /** verl/workers/config/actor.py ActorConfig.validate. */
  miniAboveTrainBatch: (trainBatchSize: number, mini: number) =>
    `ValueError: train_batch_size (${trainBatchSize}) must be >= actor.ppo_mini_batch_size (${mini})`,
  /** verl/workers/fsdp_workers.py ActorRolloutRefWorker.__init__ (the normalisation by rollout.n and the DP size). */
  miniZeroAfterNormalisation: (normalised: number) =>
    `AssertionError: ppo_mini_batch_size ${normalised} should be larger than 0 after normalization`,
  microDoesNotDivide: (normalised: number, micro: number) =>
    `AssertionError: normalized ppo_mini_batch_size ${normalised} should be divisible by ppo_micro_batch_size_per_gpu ${micro}`,
  /** verl/trainer/ppo/ray_trainer.py _create_dataloader. */
  emptyDataloader: () => `AssertionError: Train dataloader is empty!`,
};
