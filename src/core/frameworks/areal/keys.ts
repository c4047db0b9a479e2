// The AReaL settings the sandbox reads, as an experiment YAML (examples/math/gsm8k_grpo.yaml) writes them, with the
// dataclass defaults of areal/api/cli_args.py @ 4aef98d (GRPOConfig → PPOConfig → BaseExperimentConfig, PPOActorConfig,
// MicroBatchSpec, InferenceEngineConfig, GenerationHyperparameters, TrainDatasetConfig).
import type { FrameworkKey } from '../types.ts';

export const AREAL_KEYS: readonly FrameworkKey[] = [
  {
    key: 'train_dataset.batch_size',
    flag: 'train-batch-size',
    kind: 'int',
    default: 1,
    about:
      'prompts per training step (_DatasetConfig); each data-parallel loader yields batch_size // world_size of them ' +
      '(world_size is 1 in single-controller mode)',
  },
  {
    key: 'gconfig.n_samples',
    flag: 'k',
    kind: 'int',
    default: 1,
    about:
      'samples per prompt (GenerationHyperparameters): the trainer passes it as group_size, so one trajectory dict holds a prompt’s n samples',
  },
  {
    key: 'seed',
    flag: 'seed',
    kind: 'int',
    default: 1,
    about:
      'seeds the trainer’s global RNGs but not the prompt order: create_dataloader builds DistributedSampler without a seed (0); ' +
      'the sandbox also seeds its synthetic token counts with it',
  },
  {
    key: 'train_dataset.shuffle',
    flag: 'shuffle',
    kind: 'bool',
    default: true,
    about: 'DistributedSampler(shuffle): randperm from a generator seeded 0 + epoch (cycle_dataloader calls set_epoch before each pass)',
  },
  {
    key: 'train_dataset.drop_last',
    flag: 'drop-last',
    kind: 'bool',
    default: true,
    about: 'StatefulDataLoader(drop_last): drops each pass’s short last batch (the sampler always drops the ranks’ remainder)',
  },
  {
    key: 'train_dataset.num_workers',
    flag: 'dataloader-num-workers',
    kind: 'int',
    default: 0,
    about: 'StatefulDataLoader workers; the DistributedSampler draws in the main process, so the order does not change',
  },
  {
    key: 'ranks',
    flag: 'ranks',
    sandbox: true,
    kind: 'int',
    default: null,
    about:
      'sandbox-only (AReaL has no such key): the data-parallel size, which AReaL reads from the d-degree of actor.backend ' +
      '("fsdp:d4p1t1" → 4); null takes it from actor-backend, and a value that contradicts actor-backend is refused',
  },
  {
    key: 'actor.backend',
    flag: 'actor-backend',
    kind: 'string',
    default: null,
    about: 'required in AReaL (MISSING): "<engine>:d<dp>p<pp>t<tp>"; the d-degree is the number of data-parallel ranks',
  },
  {
    key: 'AREAL_SPMD_MODE',
    flag: 'spmd-mode',
    kind: 'bool',
    default: false,
    about:
      'an environment variable, not a config key: the legacy launchers (areal.infra.launcher.local/ray/slurm) set it to 1; ' +
      'unset (the default, `python3 examples/math/gsm8k_rl.py --config … scheduler.type=local`) is single-controller mode',
  },
  {
    key: 'actor.mb_spec.max_tokens_per_mb',
    flag: 'max-tokens-per-mb',
    kind: 'int',
    default: null,
    about: 'token budget of one micro-batch (MicroBatchSpec); null means 1e12 (DEFAULT_MAX_TOKENS_PER_MB): one micro-batch per minibatch',
  },
  {
    key: 'actor.mb_spec.packing_algorithm',
    flag: 'packing-algorithm',
    kind: 'string',
    default: 'ffd',
    choices: ['ffd', 'kk'],
    about: 'micro-batch allocator (seqpack ffd_allocate or kk_allocate); in SPMD mode also the trajectories’ dispatch to ranks',
  },
  {
    key: 'actor.ppo_n_minibatches',
    flag: 'ppo-n-minibatches',
    kind: 'int',
    default: 4,
    about: 'optimizer steps per training step: each rank first splits its batch into this many token-balanced minibatches (FFD)',
  },
  {
    key: 'rollout.max_head_offpolicyness',
    flag: 'max-head-offpolicyness',
    kind: 'int',
    default: 0,
    about: 'how many weight versions a rollout may lag (StalenessManager capacity); 0 = synchronous; not simulated by layout()',
  },
  {
    key: 'rollout.max_concurrent_rollouts',
    flag: 'max-concurrent-rollouts',
    kind: 'int',
    default: null,
    about: 'rollouts in flight at once (null: consumer_batch_size); not simulated by layout()',
  },
  {
    key: 'total_train_epochs',
    flag: 'epochs',
    kind: 'int',
    default: 1,
    about: 'passes over the dataset: the trainer runs total_train_epochs × len(train_dataloader) steps',
  },
  {
    key: 'dataset-size',
    flag: 'dataset-size',
    sandbox: true,
    kind: 'int',
    default: 1024,
    about: 'sandbox-only (no AReaL key): prompts in the training dataset',
  },
];
