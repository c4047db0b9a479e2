// OpenRLHF's settings as its launch command line spells them (openrlhf/cli/train_ppo_ray.py @ 3c3be62:
// dotted flags such as --rollout.n_samples_per_prompt, which `hierarchize` nests into args.rollout…),
// with the argparse defaults of that commit.
import type { FrameworkKey } from '../types.ts';

/** --algo.advantage.estimator's choices. */
export const ESTIMATORS = ['gae', 'reinforce', 'rloo', 'reinforce_baseline', 'group_norm', 'dr_grpo'] as const;

export const keys: readonly FrameworkKey[] = [
  {
    key: 'rollout.batch_size',
    flag: 'train-batch-size',
    kind: 'int',
    default: 1024,
    about: 'prompts per training step: generate_samples pulls this many from the prompt loader, one at a time',
  },
  {
    key: 'rollout.n_samples_per_prompt',
    flag: 'k',
    kind: 'int',
    default: 1,
    about: 'responses per prompt; each prompt is one vLLM request returning its n responses together (GRPO needs more than 1)',
  },
  {
    key: 'actor.num_gpus_per_node',
    flag: 'ranks',
    kind: 'int',
    default: 8,
    about:
      'actor GPUs per node; data-parallel ranks (effective actors) = actor.num_nodes × this // ds.ring_attn_size // ds.tensor_parallel_size',
  },
  { key: 'actor.num_nodes', flag: 'actor-num-nodes', kind: 'int', default: 1, about: 'actor nodes; actor GPUs = nodes × GPUs per node' },
  {
    key: 'ds.ring_attn_size',
    flag: 'ring-attn-size',
    kind: 'int',
    default: 1,
    about: 'ring-attention group size: that many actors share one chunk of the batch (one data-parallel rank)',
  },
  {
    key: 'ds.tensor_parallel_size',
    flag: 'tensor-parallel-size',
    kind: 'int',
    default: 1,
    about: 'DeepSpeed tensor-parallel size: that many actors share one chunk of the batch (one data-parallel rank)',
  },
  {
    key: 'train.seed',
    flag: 'seed',
    kind: 'int',
    default: 42,
    about:
      'seeds the model actors (transformers.set_seed) and their samplers, NOT the prompt loader (see the notes); the sandbox seeds the prompt ' +
      "loader's global generator with it",
  },
  {
    key: 'data.dataloader_num_workers',
    flag: 'dataloader-num-workers',
    kind: 'int',
    default: 0,
    about: 'prompt loader workers (persistent when > 0): with workers the first permutation drawn is thrown away',
  },
  {
    key: 'train.num_episodes',
    flag: 'epochs',
    kind: 'int',
    default: 1,
    about: 'passes over the prompt set; each episode is a new iterator of the same loader, so a new permutation',
  },
  {
    key: 'dataset-size',
    flag: 'dataset-size',
    sandbox: true,
    kind: 'int',
    default: 2048,
    about: 'sandbox-only (no OpenRLHF flag: it counts the rows of --data.prompt_dataset): prompts in the dataset, ids 0 … D−1',
  },
  {
    key: 'data.max_samples',
    flag: 'max-samples',
    kind: 'int',
    default: 100000000,
    about: 'keeps the first min(max_samples, rows) prompts of the dataset',
  },
  {
    key: 'rollout.micro_batch_size',
    flag: 'rollout-micro-batch-size',
    kind: 'int',
    default: 1,
    about: 'samples per rollout micro-batch; the micro-batches (not samples) are what is cut into contiguous chunks per actor',
  },
  {
    key: 'train.batch_size',
    flag: 'train-global-batch-size',
    kind: 'int',
    default: 128,
    about:
      'samples per optimizer step over all ranks (global); one optimizer step per training step needs rollout.batch_size × n_samples_per_prompt',
  },
  {
    key: 'train.micro_batch_size',
    flag: 'train-micro-batch-size',
    kind: 'int',
    default: 1,
    about: 'samples per forward/backward on one rank',
  },
  { key: 'train.max_epochs', flag: 'max-epochs', kind: 'int', default: 1, about: 'passes over each training step’s samples' },
  {
    key: 'train.dynamic_batch_enable',
    flag: 'dynamic-batch-enable',
    kind: 'bool',
    default: false,
    about: 'token-budget micro-batches: balanced rollout micro-batches, long/short interleaving across ranks, packed train micro-batches',
  },
  {
    key: 'rollout.max_tokens_per_gpu',
    flag: 'rollout-max-tokens-per-gpu',
    kind: 'int',
    default: null,
    about: 'token budget that sets the number of rollout micro-batches under dynamic batching (unset: train.max_tokens_per_gpu)',
  },
  {
    key: 'train.max_tokens_per_gpu',
    flag: 'train-max-tokens-per-gpu',
    kind: 'int',
    default: 16192,
    about: 'token budget per train micro-batch under dynamic batching (first-fit count, the maximum over ranks)',
  },
  {
    key: 'ds.packing_samples',
    flag: 'packing-samples',
    kind: 'bool',
    default: false,
    about: 'packs sequences without padding (forced on by dynamic batching and ring attention)',
  },
  {
    key: 'algo.advantage.estimator',
    flag: 'advantage-estimator',
    kind: 'string',
    default: 'gae',
    choices: ESTIMATORS,
    about: 'advantage estimator; the default gae needs a critic; GRPO is group_norm',
  },
  {
    key: 'algo.dynamic_filtering_enable',
    flag: 'dynamic-filtering-enable',
    kind: 'bool',
    default: false,
    about: 'drops groups whose mean score falls outside algo.dynamic_filtering_range and replaces each with one new prompt',
  },
  {
    key: 'train.async_enable',
    flag: 'async-enable',
    kind: 'bool',
    default: false,
    about: 'asynchronous trainer (PPOTrainerAsync); the sandbox models the synchronous PPOTrainer only',
  },
  {
    key: 'actor.policy_loss_type',
    flag: 'policy-loss-type',
    kind: 'string',
    default: 'ppo',
    about: "PolicyLoss: 'ppo' aggregates per token (token_level_loss), 'gspo' per sample (a mean of per-sequence token means)",
    choices: ['ppo', 'gspo'],
  },
];
