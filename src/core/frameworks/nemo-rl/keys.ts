// The settings the NeMo RL home reads, by their path in NeMo's YAML (examples/configs/grpo_math_1B.yaml
// @ 7ea279a, the base config the other GRPO examples name in `defaults:`), with that file's values as
// the shipped defaults. Keys whose file value is an OmegaConf interpolation (`${mul:…}`, `${policy.…}`)
// default to null here and resolve the same way in layout().
import type { FrameworkKey } from '../types.ts';

export const PACKING_ALGORITHMS = ['modified_first_fit_decreasing', 'first_fit_decreasing', 'first_fit_shuffle', 'concatenative'] as const;

export const NEMO_RL_KEYS: readonly FrameworkKey[] = [
  {
    key: 'grpo.num_prompts_per_step',
    flag: 'train-batch-size',
    kind: 'int',
    default: 32,
    about: "prompts per training step: the StatefulDataLoader's batch_size (grpo.py setup)",
  },
  {
    key: 'grpo.num_generations_per_prompt',
    flag: 'k',
    kind: 'int',
    default: 16,
    about: "samples per prompt: batch.repeat_interleave(k), so a prompt's copies sit side by side",
  },
  {
    key: 'grpo.seed',
    flag: 'seed',
    kind: 'int',
    default: 42,
    about: "set_seed(seed) seeds python, numpy and torch; the loader's sampler takes its seed from torch's first int64 draw after it",
  },
  {
    key: 'data.shuffle',
    flag: 'shuffle',
    kind: 'bool',
    default: true,
    about: 'StatefulDataLoader(shuffle=…): a RandomSampler, else dataset order',
  },
  {
    key: 'data.num_workers',
    flag: 'dataloader-num-workers',
    kind: 'int',
    default: 1,
    about: 'StatefulDataLoader(num_workers=…); with any worker torchdata draws two permutations per epoch and uses the second',
  },
  {
    key: 'dataset-size',
    flag: 'dataset-size',
    sandbox: true,
    kind: 'int',
    default: 1024,
    about: 'sandbox-only (no NeMo RL key): prompts in the training dataset',
  },
  {
    key: 'grpo.max_num_epochs',
    flag: 'epochs',
    kind: 'int',
    default: 1,
    about: 'passes over the dataloader (each pass is a fresh iterator and a fresh permutation)',
  },
  {
    key: 'grpo.max_num_steps',
    flag: 'max-num-steps',
    kind: 'int',
    default: 1000000,
    about: 'training stops once this many steps have run, mid-epoch if need be',
  },
  {
    key: 'cluster.gpus_per_node',
    flag: 'ranks',
    kind: 'int',
    default: 1,
    about:
      "GPUs per node; the policy's data-parallel size is gpus_per_node × num_nodes / (TP × CP) (colocated generation, DTensor backend), " +
      'so --ranks is the data-parallel size when num_nodes, TP and CP are 1',
  },
  { key: 'cluster.num_nodes', flag: 'num-nodes', kind: 'int', default: 1, about: 'nodes; world size = gpus_per_node × num_nodes' },
  {
    key: 'policy.dtensor_cfg.tensor_parallel_size',
    flag: 'tensor-parallel-size',
    kind: 'int',
    default: 1,
    about: 'TP: ranks sharing one model copy (divides the data-parallel size out of the world size)',
  },
  {
    key: 'policy.dtensor_cfg.context_parallel_size',
    flag: 'context-parallel-size',
    kind: 'int',
    default: 1,
    about: 'CP: ranks sharing one sequence (divides the data-parallel size out of the world size)',
  },
  {
    key: 'policy.train_global_batch_size',
    flag: 'train-global-batch-size',
    kind: 'int',
    default: null,
    about:
      'samples per optimizer step: Policy.train cuts the step into chunks of this size, each chunk into data-parallel shards; ' +
      'null here means num_prompts_per_step × num_generations_per_prompt (one optimizer step per training step; the shipped file sets 512 = 32 × 16)',
  },
  {
    key: 'policy.train_micro_batch_size',
    flag: 'train-micro-batch-size',
    kind: 'int',
    default: 4,
    about: 'samples per micro-batch when neither dynamic batching nor sequence packing is on',
  },
  {
    key: 'policy.max_total_sequence_length',
    flag: 'max-total-sequence-length',
    kind: 'int',
    default: 512,
    about: 'longest sample; the token budgets default to it × train_micro_batch_size',
  },
  {
    key: 'policy.make_sequence_length_divisible_by',
    flag: 'make-sequence-length-divisible-by',
    kind: 'int',
    default: null,
    about:
      'packing pads each sample to a multiple of it; null: policy.dtensor_cfg.tensor_parallel_size, as the shipped file interpolates it',
  },
  {
    key: 'policy.dynamic_batching.enabled',
    flag: 'dynamic-batching',
    kind: 'bool',
    default: false,
    about: 'within each global-batch chunk: sort by length, deal sorted[i::W] to rank i, micro-batches by a token budget',
  },
  {
    key: 'policy.dynamic_batching.train_mb_tokens',
    flag: 'dynamic-batching-train-mb-tokens',
    kind: 'int',
    default: null,
    about: 'token budget per micro-batch (samples × padded longest); null: max_total_sequence_length × train_micro_batch_size as shipped',
  },
  {
    key: 'policy.dynamic_batching.sequence_length_round',
    flag: 'dynamic-batching-sequence-length-round',
    kind: 'int',
    default: 64,
    about: "dynamic batching rounds each micro-batch's longest sample up to a multiple of it",
  },
  {
    key: 'policy.sequence_packing.enabled',
    flag: 'sequence-packing',
    kind: 'bool',
    default: true,
    about: 'pack each global-batch chunk into bins of train_mb_tokens; bin j goes to rank j % W; one bin is one micro-batch',
  },
  {
    key: 'policy.sequence_packing.train_mb_tokens',
    flag: 'sequence-packing-train-mb-tokens',
    kind: 'int',
    default: null,
    about: 'bin capacity in tokens; null: max_total_sequence_length × train_micro_batch_size as shipped',
  },
  {
    key: 'policy.sequence_packing.algorithm',
    flag: 'sequence-packing-algorithm',
    kind: 'string',
    default: 'modified_first_fit_decreasing',
    about: 'the bin packer (data/packing/algorithms.py)',
    choices: PACKING_ALGORITHMS,
  },
  {
    key: 'policy.sequence_packing.microbatch_order',
    flag: 'sequence-packing-microbatch-order',
    kind: 'string',
    default: 'packer',
    about: "order of a rank's bins: as packed, or largest_first (by padded tokens)",
    choices: ['packer', 'largest_first'],
  },
  {
    key: 'loss_fn.token_level_loss',
    flag: 'token-level-loss',
    kind: 'bool',
    default: true,
    about:
      'ClippedPGLossFn: true sums token losses / global_valid_toks (all ranks, one global batch); false averages each sequence, then / global_valid_seqs',
  },
];
