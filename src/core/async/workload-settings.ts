// The asynchronous simulation's workload from text, read once for every caller: `grpo-sandbox async` (its flags) and
// `<grpo-async>` (its attributes) both call `asyncWorkloadFrom(get)`, so the same keys give the same workload with the
// same defaults and the same one-line mistakes. A framework's own staleness settings are read by settings.ts.
import { configError, fact } from '../messages/index.ts';
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

/**
 * What each workload key is and the numbers it takes (the reader below checks them; `train --async` lists the keys it
 * shares with the async command from here): a whole number in [min, max], a positive number up to max, or a name.
 */
export const WORKLOAD_KEY_SPECS = {
  'gen-workers': { kind: 'int', min: 1, max: 4096, about: 'generation workers' },
  concurrency: { kind: 'int', min: 1, max: 65536, about: 'completions each worker decodes at once' },
  'tokens-per-second': { kind: 'positive', max: 1e9, about: 'decode rate of one completion' },
  'train-batch-size': { kind: 'int', min: 1, max: 1 << 20, about: 'prompts per trainer step' },
  k: { kind: 'int', min: 1, max: 4096, about: 'completions per prompt' },
  steps: { kind: 'int', min: 1, max: 1 << 20, about: 'trainer steps' },
  'step-time': { kind: 'positive', max: 1e9, about: 'seconds per trainer step' },
  'train-tokens-per-second': { kind: 'positive', max: 1e9, about: 'or a step lasts its tokens ÷ this rate' },
  'length-distribution': { kind: 'name', choices: LENGTH_DISTRIBUTIONS, about: 'the named distribution the lengths are drawn from' },
  seed: { kind: 'int', min: 0, max: 2 ** 53 - 1, about: 'seed of the lengths' },
} as const satisfies Record<(typeof WORKLOAD_KEYS)[number], { kind: 'int' | 'positive' | 'name'; about: string } & Record<string, unknown>>;

const whole = (get: SettingGetter, key: 'gen-workers' | 'concurrency' | 'train-batch-size' | 'k' | 'steps' | 'seed') =>
  readInt(get(key), key, WORKLOAD_KEY_SPECS[key].min, WORKLOAD_KEY_SPECS[key].max);

function positive(text: string | null | undefined, key: string, fallback: number | null): number | null {
  if (text === undefined || text === null) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || n > WORKLOAD_KEY_SPECS['tokens-per-second'].max)
    throw configError([fact('async.positive', { key, got: quote(text) })]);
  return n;
}

function distribution(text: string | null | undefined): LengthDistribution {
  if (text === undefined || text === null) return WORKLOAD_DEFAULTS.lengthDistribution;
  if ((LENGTH_DISTRIBUTIONS as readonly string[]).includes(text)) return text as LengthDistribution;
  throw configError([fact('async.length-distribution', { got: quote(text), choices: [...LENGTH_DISTRIBUTIONS] })]);
}

/**
 * The workload the keys ask for (`get(key)`: its text, null or undefined when not given). `given(k)`: lengths the caller
 * reads itself (the CLI's `--lengths FILE`), which replace the named distribution; null when there are none.
 */
export function asyncWorkloadFrom(get: SettingGetter, given?: (k: number) => LengthSource | null): AsyncWorkload {
  const k = whole(get, 'k') ?? WORKLOAD_DEFAULTS.k;
  const trainTps = positive(get('train-tokens-per-second'), 'train-tokens-per-second', null);
  const stepTime = positive(get('step-time'), 'step-time', trainTps === null ? WORKLOAD_DEFAULTS.stepTime : null);
  const w: AsyncWorkload = {
    genWorkers: whole(get, 'gen-workers') ?? WORKLOAD_DEFAULTS.genWorkers,
    concurrency: whole(get, 'concurrency') ?? WORKLOAD_DEFAULTS.concurrency,
    tokensPerSecond: positive(get('tokens-per-second'), 'tokens-per-second', WORKLOAD_DEFAULTS.tokensPerSecond)!,
    trainBatchSize: whole(get, 'train-batch-size') ?? WORKLOAD_DEFAULTS.trainBatchSize,
    k,
    steps: whole(get, 'steps') ?? WORKLOAD_DEFAULTS.steps,
    stepTime,
    trainTokensPerSecond: trainTps,
    lengths: given?.(k) ?? { kind: 'distribution', name: distribution(get('length-distribution')) },
    seed: whole(get, 'seed') ?? WORKLOAD_DEFAULTS.seed,
  };
  checkWorkload(w);
  return w;
}
