// EasyR1's settings that the layout, packer and advantages read, as its YAML names them, with the
// defaults of the dataclasses at b44b311: verl/trainer/config.py (DataConfig, AlgorithmConfig,
// TrainerConfig), verl/workers/actor/config.py (ActorConfig), verl/workers/rollout/config.py
// (RolloutConfig). Checked against those dataclasses, exec'd, in test/fixtures/golden-easyr1-layout.json.
import type { FrameworkKey } from '../types.ts';

export const ADV_ESTIMATORS = ['grpo', 'rloo', 'grpo_passk', 'reinforce_plus_plus', 'remax', 'gae'] as const;

export const keys: readonly FrameworkKey[] = [
  {
    key: 'trainer.n_gpus_per_node',
    flag: 'n-gpus-per-node',
    kind: 'int',
    default: 8,
    about: 'GPUs per node; the data-parallel ranks are n_gpus_per_node × trainer.nnodes (the worker group world size)',
  },
  { key: 'trainer.nnodes', flag: 'nnodes', kind: 'int', default: 1, about: 'nodes; ranks = trainer.n_gpus_per_node × nnodes' },
  {
    key: 'data.rollout_batch_size',
    flag: 'train-batch-size',
    kind: 'int',
    default: 512,
    about: "prompts per training step (verl's data.train_batch_size); the loader's batch size unless mini_rollout_batch_size is set",
  },
  {
    key: 'data.mini_rollout_batch_size',
    flag: 'mini-rollout-batch-size',
    kind: 'int',
    default: null,
    about:
      "the loader's batch size when set (verl's gen_batch_size): a step pulls such batches until it has rollout_batch_size prompts, then cuts the excess",
  },
  {
    key: 'worker.rollout.n',
    flag: 'k',
    kind: 'int',
    default: 1,
    about: 'samples per prompt (repeat(n, interleave=True)); GRPO and RLOO refuse 1',
  },
  {
    key: 'data.seed',
    flag: 'seed',
    kind: 'int',
    default: 1,
    about: "seeds the torch.Generator of the loader's RandomSampler (and the sandbox's synthetic token counts)",
  },
  {
    key: 'data.shuffle',
    flag: 'shuffle',
    kind: 'bool',
    default: true,
    about: 'RandomSampler with the seeded generator; false: SequentialSampler',
  },
  {
    key: 'dataloader-num-workers',
    flag: 'dataloader-num-workers',
    sandbox: true,
    kind: 'int',
    default: 8,
    about: 'sandbox-only: EasyR1 hard-codes num_workers=8 in create_dataloader (no config key); the prompt order does not depend on it',
  },
  {
    key: 'dataset-size',
    flag: 'dataset-size',
    sandbox: true,
    kind: 'int',
    default: 1024,
    about: 'sandbox-only: prompts in the training set (no EasyR1 key)',
  },
  {
    key: 'trainer.total_epochs',
    flag: 'epochs',
    kind: 'int',
    default: 15,
    about: 'training steps = len(train_dataloader) × total_epochs (ignored when max_steps is set)',
  },
  {
    key: 'trainer.max_steps',
    flag: 'max-steps',
    kind: 'int',
    default: null,
    about: 'training steps when set; the loader restarts as often as needed',
  },
  {
    key: 'trainer.max_try_make_batch',
    flag: 'max-try-make-batch',
    kind: 'int',
    default: 20,
    about: 'loader batches a step may pull before _make_batch_data gives up (-1: no limit)',
  },
  {
    key: 'worker.actor.global_batch_size',
    flag: 'global-batch-size',
    kind: 'int',
    default: null,
    fileDefault: 256,
    about:
      "prompts per optimizer step (verl's ppo_mini_batch_size); × n // ranks samples per rank per mini-batch; " +
      'EasyR1 defaults it to 256, a config file without it gets that; the flag form defaults it to rollout_batch_size (one optimizer step a training step)',
  },
  {
    key: 'worker.actor.micro_batch_size_per_device_for_update',
    flag: 'micro-batch-size-per-device-for-update',
    kind: 'int',
    default: 4,
    about: 'samples per micro-batch; with dynamic_batching the token budget is this × the padded width',
  },
  {
    key: 'worker.actor.micro_batch_size_per_device_for_experience',
    flag: 'micro-batch-size-per-device-for-experience',
    kind: 'int',
    default: 16,
    about: 'samples per log-prob forward; rollout_batch_size × n must be a multiple of it',
  },
  { key: 'worker.actor.padding_free', flag: 'padding-free', kind: 'bool', default: true, about: 'unpadded (packed) forward passes' },
  {
    key: 'worker.actor.dynamic_batching',
    flag: 'dynamic-batching',
    kind: 'bool',
    default: true,
    about: 'token-budget micro-batches (rearrange_micro_batches); false: split(micro_batch_size_per_device_for_update)',
  },
  {
    key: 'worker.actor.ulysses_size',
    flag: 'ulysses-size',
    kind: 'int',
    default: 1,
    about: 'sequence-parallel group size (the sandbox models 1)',
  },
  {
    key: 'worker.rollout.tensor_parallel_size',
    flag: 'tensor-parallel-size',
    kind: 'int',
    default: 2,
    about: 'vLLM tensor-parallel size; the world size must be a multiple of it',
  },
  { key: 'data.max_prompt_length', flag: 'max-prompt-length', kind: 'int', default: 512, about: 'prompts are left-padded to this width' },
  {
    key: 'data.max_response_length',
    flag: 'max-response-length',
    kind: 'int',
    default: 512,
    about: 'responses are right-padded to this width; input_ids width = max_prompt_length + max_response_length',
  },
  {
    key: 'algorithm.adv_estimator',
    flag: 'adv-estimator',
    kind: 'string',
    default: 'grpo',
    choices: ADV_ESTIMATORS,
    about: 'advantage estimator (core_algos.py ADV_ESTIMATOR_MAP)',
  },
  {
    key: 'algorithm.online_filtering',
    flag: 'online-filtering',
    kind: 'bool',
    default: false,
    about: 'keep only uids whose mean filter_key score lies in (filter_low, filter_high) (DAPO dynamic sampling)',
  },
  {
    key: 'worker.actor.loss_avg_mode',
    flag: 'loss-avg-mode',
    kind: 'string',
    default: 'token',
    about:
      "average_loss per micro-batch (token: masked mean; seq: mean of sequence means), then × the micro-batch's response tokens × world_size / " +
      "the mini-batch's response tokens on all ranks",
    choices: ['token', 'seq'],
  },
  {
    key: 'worker.actor.ppo_epochs',
    flag: 'ppo-epochs',
    kind: 'int',
    default: 1,
    about: 'passes over the mini-batches of each training step (one optimizer step per mini-batch per pass)',
  },
];
