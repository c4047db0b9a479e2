// The training dashboard's settings: read from attributes (or URL keys) named like the CLI's
// `grpo-sandbox train` flags, checked by the same checkTrainConfig and step budget the CLI uses,
// and written back as the URL keys of a link that reproduces the run. Pure (no DOM), so the unit
// tests check it in Node and Deno.
import { ConfigError } from '../../core/errors.ts';
import { checkTrainConfig, DEFAULT_TRAIN, TRAIN_PRESETS, trainBudgetError, type TrainConfig } from '../../train/config.ts';

/** How a flag's text becomes a value of the configuration. */
type Kind = { int: [number, number] } | 'number' | 'text' | 'policy';

/** The CLI flags the dashboard takes (same names, kebab-case), in the order the form shows them. */
export const TRAIN_FLAGS = [
  { flag: 'ranks', key: 'ranks', kind: { int: [1, 64] } },
  { flag: 'batch', key: 'batch', kind: { int: [1, 1 << 16] } },
  { flag: 'k', key: 'k', kind: { int: [2, 1024] } },
  { flag: 'sampler', key: 'sampler', kind: 'text' },
  { flag: 'advantage', key: 'advantage', kind: 'text' },
  { flag: 'loss', key: 'loss', kind: 'text' },
  { flag: 'epsilon-low', key: 'epsilonLow', kind: 'number' },
  { flag: 'epsilon-high', key: 'epsilonHigh', kind: 'number' },
  { flag: 'beta', key: 'beta', kind: 'number' },
  { flag: 'lr', key: 'lr', kind: 'number' },
  { flag: 'steps', key: 'steps', kind: { int: [1, 1_000_000] } },
  { flag: 'reward', key: 'reward', kind: 'text' },
  { flag: 'seed', key: 'seed', kind: { int: [0, 2 ** 32 - 1] } },
  { flag: 'backend', key: 'backend', kind: 'text' },
  { flag: 'dynamic-sampling', key: 'dynamicSampling', kind: 'policy' },
  { flag: 'max-resample-times', key: 'maxResampleTimes', kind: { int: [0, 1000] } },
  { flag: 'filter-metric', key: 'filterMetric', kind: 'text' },
] as const satisfies readonly { flag: string; key: keyof TrainConfig; kind: Kind }[];

export type TrainFlag = (typeof TRAIN_FLAGS)[number]['flag'] | 'preset';

/** The dashboard's own default: the CLI's demo with the CPU backend, as `grpo-sandbox train` runs it. */
export const PAGE_DEFAULT: TrainConfig = { ...DEFAULT_TRAIN };

const quote = (text: string) => `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;

function parseValue(flag: string, kind: Kind, text: string): TrainConfig[keyof TrainConfig] {
  const t = text.trim();
  if (kind === 'text') return t as never;
  if (kind === 'policy') return (t === '' || t === 'off' ? null : t) as never;
  if (kind === 'number') {
    const n = Number(t);
    if (t === '' || !Number.isFinite(n)) throw new ConfigError(`--${flag} must be a number, got ${quote(text)}`);
    return n as never;
  }
  const [min, max] = kind.int;
  if (!/^-?\d+$/.test(t)) throw new ConfigError(`--${flag} must be a whole number, got ${quote(t)}`);
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new ConfigError(`--${flag} must be between ${min} and ${max}, got ${t.length > 40 ? quote(t) : t}`);
  return n as never;
}

/**
 * The run's configuration: defaults ← preset ← flags, as the CLI builds it, then checked by
 * checkTrainConfig and the CLI's step budget. `get` reads one flag's text (null: not given).
 * Throws a ConfigError (one line, naming the flag) for a bad setting.
 */
export function configFromFlags(get: (flag: TrainFlag) => string | null): TrainConfig {
  let c: TrainConfig = { ...PAGE_DEFAULT };
  const preset = get('preset');
  if (preset !== null && preset !== '') {
    if (!Object.hasOwn(TRAIN_PRESETS, preset))
      throw new ConfigError(`unknown --preset ${quote(preset)}; presets: ${Object.keys(TRAIN_PRESETS).join(', ')}`);
    c = { ...c, ...TRAIN_PRESETS[preset]!.config };
  }
  const given = new Set<string>();
  for (const f of TRAIN_FLAGS) {
    const text = get(f.flag);
    if (text === null) continue;
    given.add(f.flag);
    (c as unknown as Record<string, unknown>)[f.key] = parseValue(f.flag, f.kind, text);
  }
  // As the CLI: --epsilon-high defaults to --epsilon-low.
  if (given.has('epsilon-low') && !given.has('epsilon-high')) c.epsilonHigh = c.epsilonLow;
  checkTrainConfig(c);
  // The CLI's budget check (one definition, src/train/config.ts).
  const tooMuch = trainBudgetError(c);
  if (tooMuch) throw tooMuch;
  return c;
}

/** A flag's value as text (what the form shows and the link carries). */
export function flagText(c: TrainConfig, flag: (typeof TRAIN_FLAGS)[number]['flag']): string {
  const f = TRAIN_FLAGS.find((x) => x.flag === flag)!;
  const v = c[f.key];
  return v === null ? 'off' : String(v);
}

/**
 * The URL keys of a link that reproduces `c`: every flag written out (not only those that differ
 * from today's defaults, so the link still means the same run if a default changes), seed included.
 * The preset's model size (seed-003's dims) travels as `preset`.
 */
export function runSearch(c: TrainConfig, preset?: string): string {
  const p = new URLSearchParams({ view: 'train' });
  if (preset && Object.hasOwn(TRAIN_PRESETS, preset)) p.set('preset', preset);
  for (const f of TRAIN_FLAGS) p.set(f.flag, flagText(c, f.flag));
  return `?${p.toString()}`;
}

/** A ConfigError message in the dashboard's words: the form's fields are labelled by the flag names. */
export function formWords(message: string): string {
  return message.replace(/--([a-z][a-z-]*)/g, '$1');
}
