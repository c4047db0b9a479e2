// The settings NeMo RL's run ends up with: interpolated defaults filled in as the shipped YAML
// writes them, the data-parallel size from the cluster (lm_policy.Policy.__init__ @ 7ea279a), and the
// checks NeMo makes before the first step, with its own words.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkSettings } from '../types.ts';
import type { BatchingMode } from './dispatch.ts';
import { nemoError } from './version.ts';

export interface NemoRun {
  prompts: number;
  k: number;
  seed: number;
  shuffle: boolean;
  workers: number;
  datasetSize: number;
  epochs: number;
  maxSteps: number;
  world: number;
  dp: number;
  gbs: number;
  mode: BatchingMode;
}

/** Python's f"{x:.{digits}f}": exact ties round to even (JS toFixed rounds them up). */
export function pyFixed(x: number, digits: number): string {
  const scaled = x * 10 ** digits;
  if (Number.isInteger(scaled * 2) && !Number.isInteger(scaled)) {
    const even = Math.floor(scaled) % 2 === 0 ? Math.floor(scaled) : Math.ceil(scaled);
    return (even / 10 ** digits).toFixed(digits);
  }
  return x.toFixed(digits);
}

function positive(settings: FrameworkSettings, flag: string, least = 1): number {
  const v = intSetting(settings, flag);
  if (v < least) throw new ConfigError(`--${flag} must be at least ${least}, got ${v}`);
  return v;
}

function orDefault(settings: FrameworkSettings, flag: string, fallback: number): number {
  return settings[flag] === null || settings[flag] === undefined ? fallback : positive(settings, flag);
}

export function resolveRun(settings: FrameworkSettings): NemoRun {
  const prompts = positive(settings, 'train-batch-size');
  const k = positive(settings, 'k');
  const seed = intSetting(settings, 'seed');
  // set_seed: numpy's legacy np.random.seed refuses anything outside [0, 2**32).
  if (seed < 0 || seed > 0xffffffff) throw nemoError('ValueError', 'Seed must be between 0 and 2**32 - 1');
  const tp = positive(settings, 'tensor-parallel-size');
  const cp = positive(settings, 'context-parallel-size');
  const world = positive(settings, 'ranks') * positive(settings, 'num-nodes');
  const modelParallel = tp * cp; // PP is 1 on the DTensor backend
  if (world < modelParallel) {
    throw nemoError(
      'ValueError',
      `World size (${world}) is insufficient for the parallelism configuration. Required minimum world size: PP(1) * CP(${cp}) * TP(${tp}) = ` +
        `${modelParallel}. ` +
        `This would result in DP = ${world}/${modelParallel} = ${pyFixed(world / modelParallel, 3)}, but DP must be ≥ 1. ` +
        'Please either increase the number of GPUs/nodes or reduce the parallelism parameters.',
    );
  }
  if (world % modelParallel !== 0) {
    throw nemoError(
      'ValueError',
      `World size (${world}) must be divisible by PP * CP * TP (${modelParallel}). The data parallel size (DP = world_size / (PP * CP * TP)) must ` +
        `be a positive integer. ` +
        `Current DP would be ${world}/${modelParallel} = ${pyFixed(world / modelParallel, 6)}, which is not an integer. ` +
        'Please adjust your cluster size or parallelism parameters.',
    );
  }
  const mbs = positive(settings, 'train-micro-batch-size');
  const maxLen = positive(settings, 'max-total-sequence-length');
  const padMultiple = orDefault(settings, 'make-sequence-length-divisible-by', tp);
  const dynamic = boolSetting(settings, 'dynamic-batching');
  const packing = boolSetting(settings, 'sequence-packing');
  if (dynamic && packing) {
    throw nemoError(
      'AssertionError',
      'Dynamic Batching is exclusive of Sequence Packing. Please disable Sequence Packing to use Dynamic Batching',
    );
  }
  let mode: BatchingMode = { kind: 'plain', microBatchSize: mbs };
  if (dynamic) {
    mode = {
      kind: 'dynamic',
      tokens: orDefault(settings, 'dynamic-batching-train-mb-tokens', maxLen * mbs),
      round: positive(settings, 'dynamic-batching-sequence-length-round'),
      padMultiple,
    };
  } else if (packing) {
    const algorithm = String(settings['sequence-packing-algorithm']);
    if (algorithm.toLowerCase() === 'first_fit_shuffle') {
      throw new ConfigError(
        "policy.sequence_packing.algorithm first_fit_shuffle cannot be simulated: it shuffles with Python's global `random`, which other driver code " +
          'also draws from; use modified_first_fit_decreasing (the default), first_fit_decreasing or concatenative',
      );
    }
    mode = {
      kind: 'packing',
      tokens: orDefault(settings, 'sequence-packing-train-mb-tokens', maxLen * mbs),
      algorithm,
      order: String(settings['sequence-packing-microbatch-order'] ?? 'packer'),
      padMultiple,
    };
  }
  return {
    prompts,
    k,
    seed,
    shuffle: boolSetting(settings, 'shuffle'),
    workers: positive(settings, 'dataloader-num-workers', 0),
    datasetSize: positive(settings, 'dataset-size', 0),
    epochs: positive(settings, 'epochs', 0),
    maxSteps: positive(settings, 'max-num-steps', 0),
    world,
    dp: world / modelParallel,
    gbs: orDefault(settings, 'train-global-batch-size', prompts * k),
    mode,
  };
}
