// The settings the prime-rl home reads, as written in prime-rl's `rl.toml` (the `rl` entrypoint's one
// TOML file with [orchestrator], [trainer], [deployment] tables), with the shipped defaults at 559b447
// (packages/prime-rl-configs/src/prime_rl/configs/{orchestrator,rl,trainer}.py).
import type { FrameworkKey } from '../types.ts';

export const keys: readonly FrameworkKey[] = [
  {
    key: 'orchestrator.batch_size',
    flag: 'train-batch-size',
    kind: 'int',
    default: null,
    about:
      'samples (rollouts, not prompts) per training step; problems per step = batch_size / group_size. Unset with token_batch_size unset too, ' +
      'resolve_batching makes it 128',
  },
  {
    key: 'orchestrator.token_batch_size',
    flag: 'token-batch-size',
    kind: 'int',
    default: null,
    about: 'instead of batch_size: a step is cut once the queued traces reach this many tokens (a group may straddle two steps)',
  },
  {
    key: 'orchestrator.group_size',
    flag: 'k',
    kind: 'int',
    default: 1,
    about: 'rollouts per example (the GRPO group); each train env inherits it unless it sets its own',
  },
  {
    key: 'orchestrator.num_train_workers',
    flag: 'ranks',
    kind: 'int',
    default: 1,
    about:
      'trainer data-parallel ranks the orchestrator packs one micro-batch list for; the rl entrypoint overwrites it with ' +
      'deployment.num_train_gpus // trainer.model.cp when num_train_gpus > 1',
  },
  {
    key: 'deployment.num_train_gpus',
    flag: 'num-train-gpus',
    kind: 'int',
    default: 1,
    about: 'single-node trainer GPUs; above 1 it sets orchestrator.num_train_workers = num_train_gpus // trainer.model.cp',
  },
  {
    key: 'trainer.model.cp',
    flag: 'cp',
    kind: 'int',
    default: 1,
    about:
      'context-parallel degree: divides the GPUs into data-parallel ranks and becomes orchestrator.pad_to_multiple_of (each packed micro-batch ' +
      'padded to a multiple of it)',
  },
  {
    key: 'orchestrator.seq_len',
    flag: 'seq-len',
    kind: 'int',
    default: 2048,
    about: 'packed micro-batch capacity in tokens; a longer sample is truncated to it (the top-level seq_len fills it when unset)',
  },
  {
    key: 'max_steps',
    flag: 'max-steps',
    kind: 'int',
    default: null,
    about:
      'training steps (shared, top-level in rl.toml); None runs indefinitely, so the sandbox stops after --epochs passes over the tasks',
  },
  {
    key: 'orchestrator.max_off_policy_steps',
    flag: 'max-off-policy-steps',
    kind: 'int',
    default: 8,
    about: 'staleness bound on trained rollouts; the sandbox completes groups in dispatch order with nothing stale, so it only reports it',
  },
  {
    key: 'orchestrator.train.filter_zero_advantages',
    flag: 'filter-zero-advantages',
    kind: 'bool',
    default: true,
    about: 'zero-advantage tokens leave the rl loss after a step is cut; a sample left with none is dropped from the trainer batch',
  },
  {
    key: 'seed',
    flag: 'seed',
    sandbox: true,
    kind: 'int',
    default: 42,
    about:
      'sandbox-only (prime-rl has no orchestrator seed: tasks come in source order): seeds the synthetic token counts when none are measured',
  },
  {
    key: 'dataset-size',
    flag: 'dataset-size',
    sandbox: true,
    kind: 'int',
    default: 1000,
    about: 'sandbox-only (no prime-rl key): the number of tasks in the finite taskset',
  },
  {
    key: 'epochs',
    flag: 'epochs',
    sandbox: true,
    kind: 'int',
    default: 1,
    about: 'sandbox-only (no prime-rl key): passes over the taskset to simulate; prime-rl itself cycles until max_steps',
  },
];
