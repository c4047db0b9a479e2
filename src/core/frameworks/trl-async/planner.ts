// TRL async_grpo's planner (AsyncGRPOTrainer.get_train_dataloader, the trl 1.13.0 wheel): token_budget > 0 wraps the
// rollout stream in TokenBudgetBatcher, ≤ 0 in FixedCountBatcher (per_device_train_batch_size × num_processes samples
// a micro-batch, each balanced by _balance_by_squared_length). Both planners are the async command's
// (core/async/rules/trl-async-packing.ts); this file only says which one runs and which micro-batches they yield.
import { ConfigError } from '../../errors.ts';
import { type MicroBatch, balanceBySquaredLength, packByTokenBudget } from '../../async/rules/trl-async-packing.ts';
import type { FrameworkSettings } from '../types.ts';

export type { MicroBatch } from '../../async/rules/trl-async-packing.ts';

/** The settings the planner and the loss read, checked. */
export interface TrlAsyncConfig {
  /** The budget in force: token_budget, or max_model_len where token_budget is None; ≤ 0: FixedCountBatcher. */
  tokenBudget: number;
  /** Where the budget came from, in TRL's words. */
  budgetFrom: string;
  numProcesses: number;
  gradientAccumulationSteps: number;
  perDeviceTrainBatchSize: number;
  numGenerations: number;
  epochs: number;
  maxModelLen: number | null;
  datasetSize: number;
  seed: number;
}

const VERSION = '(trl 1.13.0, async_grpo)';

function count(settings: FrameworkSettings, flag: string, key: string, min: number): number {
  const v = settings[flag];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
    throw new ConfigError(`${key} must be a whole number ≥ ${min}, got ${String(v)} ${VERSION}`);
  return v;
}

export function resolveConfig(settings: FrameworkSettings): TrlAsyncConfig {
  const maxModelLen = settings['max-model-len'] === null ? null : count(settings, 'max-model-len', 'max_model_len', 1);
  const given = settings['token-budget'];
  if (given !== null && (typeof given !== 'number' || !Number.isSafeInteger(given)))
    throw new ConfigError(`token_budget must be a whole number or None, got ${String(given)} ${VERSION}`);
  if (given === null && maxModelLen === null)
    throw new ConfigError(
      `token_budget is None: TRL then asks the vLLM server for its max_model_len; give --max-model-len N (the server's) or --token-budget N ${VERSION}`,
    );
  const epochs = settings.epochs;
  if (typeof epochs !== 'number' || !(epochs > 0)) throw new ConfigError(`num_train_epochs must be > 0, got ${String(epochs)} ${VERSION}`);
  return {
    tokenBudget: given ?? maxModelLen!,
    budgetFrom: given === null ? `token_budget None → the vLLM server's max_model_len ${maxModelLen}` : `token_budget ${given}`,
    numProcesses: count(settings, 'num-processes', 'num_processes', 1),
    gradientAccumulationSteps: count(settings, 'gradient-accumulation-steps', 'gradient_accumulation_steps', 1),
    perDeviceTrainBatchSize: count(settings, 'per-device-train-batch-size', 'per_device_train_batch_size', 1),
    numGenerations: count(settings, 'num-generations', 'num_generations', 1),
    epochs,
    maxModelLen,
    datasetSize: count(settings, 'dataset-size', 'dataset size', 1),
    seed: count(settings, 'seed', 'seed', 0),
  };
}

/** What the planner makes of a stream of samples (their token counts, len(input_ids), in pull order). */
export interface Planned {
  /** The micro-batches the planner yields, in order: each num_processes rows of sample indices. */
  yielded: MicroBatch[];
  /** Samples it holds back: TokenBudgetBatcher's open micro-batch, FixedCountBatcher's unfilled buffer (yielded only with more samples). */
  held: number[];
  /** TokenBudgetBatcher's open micro-batch (yielded when a later sample fits in none of its rows), else null. */
  open: MicroBatch | null;
  /** Samples TokenBudgetBatcher dropped for being longer than token_budget (a logger warning and batch/dropped_oversize_total). */
  dropped: number[];
}

/** The micro-batches `c`'s planner yields from the stream `seqlens`. */
export function plan(seqlens: readonly number[], c: TrlAsyncConfig): Planned {
  if (c.tokenBudget > 0) {
    const { microBatches, dropped } = packByTokenBudget(seqlens, c.numProcesses, c.tokenBudget);
    // Every micro-batch but the last was yielded when a sample fit in none of its rows; the last is still open.
    const open = microBatches.at(-1);
    return { yielded: microBatches.slice(0, -1), held: open ? open.flat().sort((a, b) => a - b) : [], open: open ?? null, dropped };
  }
  const size = c.perDeviceTrainBatchSize * c.numProcesses;
  const yielded: MicroBatch[] = [];
  let at = 0;
  for (; at + size <= seqlens.length; at += size) {
    const ids = Array.from({ length: size }, (_, i) => at + i);
    yielded.push(
      balanceBySquaredLength(
        ids.map((i) => seqlens[i]!),
        c.numProcesses,
      ).map((row) => row.map((j) => ids[j]!)),
    );
  }
  return { yielded, held: Array.from({ length: seqlens.length - at }, (_, i) => at + i), open: null, dropped: [] };
}
