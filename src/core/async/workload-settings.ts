// The asynchronous simulation's workload from text, read once for every caller: `grpo-sandbox async` (its flags) and
// `<grpo-async>` (its attributes) both call `asyncWorkloadFrom(get)`, so the same keys give the same workload with the
// same defaults and the same one-line mistakes. A framework's own staleness settings are read by settings.ts.
import { ConfigError } from '../errors.ts';
import { quote, readInt, type SettingGetter } from '../setting.ts';
import { checkWorkload } from './simulate.ts';
import { LENGTH_DISTRIBUTIONS, type AsyncWorkload, type LengthDistribution, type LengthSource } from './types.ts';

/** The workload's keys (CLI flags without `--`, the element's attributes), in the order `--help` lists them. */
export const WORKLOAD_KEYS = [
  'gen-workers',
  'concurrency',
  'tokens-per-second',
  'train-batch-size',
  'k',
  'steps',
  'step-time',
  'train-tokens-per-second',
  'length-distribution',
  'seed',
] as const;

/** The workload when no key is given. */
export const WORKLOAD_DEFAULTS = {
  genWorkers: 2,
  concurrency: 8,
  tokensPerSecond: 100,
  trainBatchSize: 4,
  k: 4,
  steps: 8,
  stepTime: 10,
  lengthDistribution: 'bimodal' as LengthDistribution,
  seed: 0,
} as const;

function positive(text: string | null | undefined, key: string, fallback: number | null): number | null {
  if (text === undefined || text === null) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1e9)
    throw new ConfigError(`--${key} takes a positive number, got ${quote(text)}`);
  return n;
}

function distribution(text: string | null | undefined): LengthDistribution {
  if (text === undefined || text === null) return WORKLOAD_DEFAULTS.lengthDistribution;
  if ((LENGTH_DISTRIBUTIONS as readonly string[]).includes(text)) return text as LengthDistribution;
  throw new ConfigError(`unknown --length-distribution ${quote(text)}; choose one of ${LENGTH_DISTRIBUTIONS.join(', ')}`);
}

/**
 * The workload the keys ask for (`get(key)`: its text, null or undefined when not given). `given(k)`: lengths the caller
 * reads itself (the CLI's `--lengths FILE`), which replace the named distribution; null when there are none.
 */
export function asyncWorkloadFrom(get: SettingGetter, given?: (k: number) => LengthSource | null): AsyncWorkload {
  const k = readInt(get('k'), 'k', 1, 4096) ?? WORKLOAD_DEFAULTS.k;
  const trainTps = positive(get('train-tokens-per-second'), 'train-tokens-per-second', null);
  const stepTime = positive(get('step-time'), 'step-time', trainTps === null ? WORKLOAD_DEFAULTS.stepTime : null);
  const w: AsyncWorkload = {
    genWorkers: readInt(get('gen-workers'), 'gen-workers', 1, 4096) ?? WORKLOAD_DEFAULTS.genWorkers,
    concurrency: readInt(get('concurrency'), 'concurrency', 1, 65536) ?? WORKLOAD_DEFAULTS.concurrency,
    tokensPerSecond: positive(get('tokens-per-second'), 'tokens-per-second', WORKLOAD_DEFAULTS.tokensPerSecond)!,
    trainBatchSize: readInt(get('train-batch-size'), 'train-batch-size', 1, 1 << 20) ?? WORKLOAD_DEFAULTS.trainBatchSize,
    k,
    steps: readInt(get('steps'), 'steps', 1, 1 << 20) ?? WORKLOAD_DEFAULTS.steps,
    stepTime,
    trainTokensPerSecond: trainTps,
    lengths: given?.(k) ?? { kind: 'distribution', name: distribution(get('length-distribution')) },
    seed: readInt(get('seed'), 'seed', 0, 2 ** 53 - 1) ?? WORKLOAD_DEFAULTS.seed,
  };
  checkWorkload(w);
  return w;
}
