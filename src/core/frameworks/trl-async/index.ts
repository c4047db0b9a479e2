// TRL's asynchronous GRPO trainer (trl.experimental.async_grpo, the trl 1.13.0 wheel) as a framework home for
// `steps --framework trl-async`: AsyncGRPOConfig's keys, the stream its rollout worker queues and the optimizer steps
// its planner and Trainer cut from it, and its loss weights. Its staleness rule is the async command's
// (core/async/rules/trl-async.ts), its advantages the 'trl-async' scheme (../trl/advantages.ts), its planners
// core/async/rules/trl-async-packing.ts; it is registered for `steps` only (TRAINER_HOMES in ../index.ts).
import { ConfigError } from '../../errors.ts';
import type { FrameworkHome, PackerDef } from '../types.ts';
import { keys } from './keys.ts';
import { groupCap, layout } from './layout.ts';
import { plan, resolveConfig } from './planner.ts';
import { TRL_ASYNC_TRAINER } from './trainer.ts';

const packing: PackerDef = {
  about:
    'get_train_dataloader: token_budget > 0 → TokenBudgetBatcher (each sample in pull order into the row with the smallest Σ L² it fits, the ' +
    'micro-batch yielded when it fits none; a sample longer than token_budget dropped with a warning); ≤ 0 → FixedCountBatcher ' +
    '(per_device_train_batch_size × num_processes samples, longest first into the smallest Σ L² row); None → the vLLM server’s max_model_len',
  flags: ['token-budget', 'num-processes', 'per-device-train-batch-size', 'max-model-len'],
  budget(settings) {
    const c = resolveConfig(settings);
    if (c.tokenBudget <= 0) return null;
    return {
      tokens: c.tokenBudget,
      from: settings['token-budget'] === null ? 'max_model_len (token_budget None)' : 'token_budget',
      rule: 'cap',
    };
  },
  pack(seqlens, settings) {
    const c = resolveConfig(settings);
    const planned = plan(seqlens, c);
    const microBatches = planned.open ? [...planned.yielded, planned.open] : planned.yielded;
    if (planned.held.length > 0 && !planned.open)
      throw new ConfigError(
        `FixedCountBatcher yields micro-batches of per_device_train_batch_size ${c.perDeviceTrainBatchSize} × num_processes ` +
          `${c.numProcesses}; ${planned.held.length} samples are left waiting for more`,
      );
    const ranks = Array.from({ length: c.numProcesses }, (_, r) => microBatches.map((mb) => mb[r]!));
    return { ranks, microBatchesPerRank: microBatches.length };
  },
};

export const home: FrameworkHome = {
  name: 'trl-async',
  title: 'TRL AsyncGRPOTrainer',
  pinned: {
    repo: 'huggingface/trl',
    commit: 'v1.13.0',
    date: 'trl 1.13.0 wheel',
    files: [
      'trl/experimental/async_grpo/async_grpo_trainer.py',
      'trl/experimental/async_grpo/async_grpo_config.py',
      'trl/experimental/async_grpo/async_rollout_worker.py',
    ],
  },
  configFormat: 'kwargs',
  keys,
  layout,
  plannedLayout(settings, generic) {
    try {
      const c = resolveConfig(settings);
      const samples = groupCap(c) * c.numGenerations;
      return {
        steps: Math.ceil(samples / (c.numProcesses * c.gradientAccumulationSteps)),
        samples,
        lower: '--dataset-size, --epochs or --num-generations',
      };
    } catch {
      return generic;
    }
  },
  advantages: [],
  packing,
  trainer: TRL_ASYNC_TRAINER,
  // One rank, FixedCountBatcher with the whole batch as its one micro-batch, no accumulation: one optimizer step.
  oneStep: (b) => ({
    'num-processes': '1',
    'token-budget': '0',
    'per-device-train-batch-size': String(b.samples),
    'gradient-accumulation-steps': '1',
    'num-generations': String(b.k),
    'dataset-size': String(b.prompts),
    epochs: '1',
  }),
  presets: [],
  checkedBy: [
    'test/fixtures/golden-trl-async-steps.json (scripts/golden/trl_async_steps.py): exec — TokenBudgetBatcher, FixedCountBatcher, ' +
      "DataCollatorForRollout.torch_call and AsyncGRPOTrainer.compute_loss (d loss / d log_probs by torch autograd) from the trl 1.13.0 wheel's " +
      "source; transcribed: Trainer's gradient_accumulation_steps micro-batches per optimizer step and DDP's mean over the ranks",
    'test/fixtures/golden-trl-async-packing.json (scripts/golden/trl_async_packing.py): the planners on seeded length sets',
  ],
};
