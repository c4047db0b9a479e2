// open-instruct grpo_fast's settings as its launch command line spells them (--num_unique_prompts_rollout …;
// dataclass fields of StreamingDataLoaderConfig in open_instruct/data_loader.py, GRPOExperimentConfig in
// open_instruct/grpo_utils.py and olmo_core_utils.py, parser defaults in grpo_fast.py @ e6c3044).
import type { FrameworkKey } from '../types.ts';

export const keys: readonly FrameworkKey[] = [
  {
    key: 'num_unique_prompts_rollout',
    flag: 'train-batch-size',
    kind: 'int',
    default: 16,
    about: 'prompts (groups) per training step',
  },
  {
    key: 'num_samples_per_prompt_rollout',
    flag: 'k',
    kind: 'int',
    default: 4,
    about: 'responses per prompt; each prompt is one vLLM request returning its n responses together',
  },
  {
    key: 'num_learners_per_node',
    flag: 'ranks',
    kind: 'int',
    default: 1,
    about:
      'learner GPUs (a list per node in open-instruct; the sandbox takes their sum); data-parallel ranks = that sum // sequence_parallel_size',
  },
  {
    key: 'sequence_parallel_size',
    flag: 'sequence-parallel-size',
    kind: 'int',
    default: 1,
    about: 'learners sharing one data-parallel rank',
  },
  {
    key: 'seed',
    flag: 'seed',
    kind: 'int',
    default: 42,
    about:
      "the prompt loader's seed: epoch e is torch.randperm(D, generator seeded with seed + e); the per-rank pack shuffle uses NumPy's unseeded " +
      'global RNG (the sandbox seeds it with this)',
  },
  {
    key: 'per_device_train_batch_size',
    flag: 'per-device-train-batch-size',
    kind: 'int',
    default: 1,
    about: 'packs per micro-batch on one rank (grpo_fast.py sets this default to 1)',
  },
  {
    key: 'pack_length',
    flag: 'pack-length',
    kind: 'int',
    default: 512,
    about: 'token budget of one pack (lowered to total tokens // DP when that is smaller)',
  },
  {
    key: 'max_prompt_token_length',
    flag: 'max-prompt-token-length',
    kind: 'int',
    default: 256,
    about: 'longest prompt; pack_length must be at least this + response_length',
  },
  { key: 'response_length', flag: 'response-length', kind: 'int', default: 256, about: 'longest response' },
  {
    key: 'num_mini_batches',
    flag: 'num-mini-batches',
    kind: 'int',
    default: 1,
    about: "optimizer steps per epoch on a rank's micro-batches (accumulation = max(ceil(micro-batches / this − 0.5), 1))",
  },
  { key: 'num_epochs', flag: 'num-epochs', kind: 'int', default: 1, about: "passes over each step's packs" },
  {
    key: 'total_episodes',
    flag: 'total-episodes',
    kind: 'int',
    default: 100000,
    about: 'samples to train on: num_training_steps = total_episodes // (num_unique_prompts_rollout × num_samples_per_prompt_rollout)',
  },
  {
    key: 'async_steps',
    flag: 'async-steps',
    kind: 'int',
    default: 8,
    about:
      'prompts in flight: async_steps × num_unique_prompts_rollout are sent before the first step; results older than this are dropped',
  },
  {
    key: 'filter_zero_std_samples',
    flag: 'filter-zero-std-samples',
    kind: 'bool',
    default: true,
    about: 'drops groups whose rewards all agree (np.std == 0); the step trains on fewer samples (not replaced unless active_sampling)',
  },
  {
    key: 'advantage_normalization_type',
    flag: 'advantage-normalization-type',
    kind: 'string',
    default: 'centered',
    choices: ['centered', 'standard'],
    about: 'centered: r − group mean; standard: (r − mean) / (std + 1e-8)',
  },
  {
    key: 'dataset-size',
    flag: 'dataset-size',
    sandbox: true,
    kind: 'int',
    default: 1024,
    about: 'sandbox-only (no open-instruct flag: it counts the rows of --dataset_mixer_list): prompts in the dataset, ids 0 … D−1',
  },
  {
    key: 'epochs',
    flag: 'epochs',
    sandbox: true,
    kind: 'int',
    default: null,
    about:
      'sandbox-only (open-instruct has no epoch setting: it reshuffles when the dataset runs out and stops after num_training_steps): when given, ' +
      'total_episodes = epochs × dataset-size × k',
  },
  {
    key: 'loss_denominator',
    flag: 'loss-denominator',
    kind: 'string',
    default: 'token',
    about:
      "'token': divide each micro-batch's loss sum by the response tokens of its accumulation group on all ranks; a number: by that constant",
  },
];
