// The settings the TRL async home reads: AsyncGRPOConfig's fields (trl/experimental/async_grpo/async_grpo_config.py,
// the trl 1.13.0 wheel) with their shipped defaults, transformers' TrainingArguments fields it inherits, and
// accelerate's num_processes. The flags are TRL's own names in kebab-case, as `async --framework trl-async` reads them.
import type { FrameworkKey } from '../types.ts';

export const keys: readonly FrameworkKey[] = [
  {
    key: 'token_budget',
    flag: 'token-budget',
    kind: 'int',
    default: null,
    about:
      'tokens per row (one rank’s forward): > 0 packs with TokenBudgetBatcher and drops a sample longer than it; ≤ 0 uses ' +
      'FixedCountBatcher (per_device_train_batch_size × num_processes samples per micro-batch); None = the vLLM server’s max_model_len',
  },
  {
    key: 'num_processes',
    flag: 'num-processes',
    kind: 'int',
    default: 1,
    about: 'accelerate’s num_processes (DP ranks): the rows of every micro-batch, one per rank',
    sandbox: true,
  },
  {
    key: 'gradient_accumulation_steps',
    flag: 'gradient-accumulation-steps',
    kind: 'int',
    default: 1,
    about: 'micro-batches per optimizer step (TrainingArguments); compute_loss divides every loss by it',
  },
  {
    key: 'per_device_train_batch_size',
    flag: 'per-device-train-batch-size',
    kind: 'int',
    default: 8,
    about:
      'samples per row of a FixedCountBatcher micro-batch (token_budget ≤ 0); TokenBudgetBatcher does not read it, it only enters ' +
      'samples_per_step (the max_steps ceiling, max_inflight_tasks’ default) (TrainingArguments)',
  },
  {
    key: 'num_generations',
    flag: 'num-generations',
    kind: 'int',
    default: 8,
    about: 'completions per prompt (one group); the rollout worker queues a group’s samples together',
  },
  {
    key: 'num_train_epochs',
    flag: 'epochs',
    kind: 'number',
    default: 3,
    about: 'passes over the prompt dataset (TrainingArguments); the sandbox streams whole passes, rounded up',
  },
  {
    key: 'max_model_len',
    flag: 'max-model-len',
    kind: 'int',
    default: null,
    about:
      'the vLLM server’s --max-model-len (prompt + completion), which TRL asks the server for when token_budget is None; no sample may exceed it',
    sandbox: true,
  },
  {
    key: 'dataset_size',
    flag: 'dataset-size',
    kind: 'int',
    default: 16,
    about: 'prompts in the dataset; the rollout worker iterates them in order, num_generations completions each',
    sandbox: true,
  },
  {
    key: 'seed',
    flag: 'seed',
    kind: 'int',
    default: 0,
    about: 'seeds the synthetic token counts (no --seqlens / --lengths)',
    sandbox: true,
  },
];
