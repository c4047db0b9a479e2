// Shared arithmetic for the samplers' configuration rules and their suggested fixes.
import type { ConfigError } from '../errors.ts';
import { type Clause, type Fact, configError, fact } from '../messages/index.ts';
import type { LayoutConfig } from '../layout/types.ts';
import type { SamplerSpec } from './spec.ts';
import { LAYOUT_SETTINGS, flagName, settingOf } from '../settings.ts';

/** Hard caps that keep a layout computable in about a second and printable. */
export const LIMITS = {
  /** Samples (slots) over the whole layout. */
  maxSamples: 2_000_000,
  /** Dataset ids a randperm may shuffle: the settings table's range for dataset-size, the one source. */
  maxDatasetSize: settingOf('datasetSize').max,
  /** Generator draws over the whole layout (≈ 1 s at ~50 M draws/s). */
  maxDraws: 100_000_000,
} as const;

/** Greatest common divisor of two positive whole numbers. */
export function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Least common multiple of two positive whole numbers. */
export function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}

/** All divisors of n, ascending. */
export function divisors(n: number): number[] {
  const small: number[] = [];
  const large: number[] = [];
  for (let d = 1; d * d <= n; d++) {
    if (n % d !== 0) continue;
    small.push(d);
    if (d * d !== n) large.unshift(n / d);
  }
  return [...small, ...large];
}

/** The (at most `count`) values of `candidates` nearest to `target`, ascending; ties prefer the larger. */
export function nearest(candidates: number[], target: number, count = 10): number[] {
  return [...candidates]
    .sort((a, b) => Math.abs(a - target) - Math.abs(b - target) || b - a)
    .slice(0, count)
    .sort((a, b) => a - b);
}

/** The multiples of `step` nearest to `value` from above and (if ≥ 1 and different) from below. */
export function nearestMultiples(value: number, step: number): number[] {
  const up = Math.ceil(value / step) * step;
  const down = Math.floor(value / step) * step;
  return down >= 1 && down !== up ? [up, down] : [up];
}

/**
 * Says whether a suggested fix (settings to change, e.g. `{ k: 4 }`) passes every rule: the
 * samplers print and carry only fixes it accepts. validateConfig supplies it; a check made only to
 * verify a fix gets one that accepts nothing (its own suggestions are never shown).
 */
export type FixCheck = (fix: Record<string, unknown>) => boolean;

/** A FixCheck that accepts nothing: for checks whose message is never shown. */
export const noFixes: FixCheck = () => false;

/**
 * The values of `field` among `candidates` (best first) that pass `passes`: at most `keep` of
 * them, trying at most `tries` (a bounded search: a long divisor list costs at most `tries`
 * validations). `more` says passing values may remain beyond those returned.
 */
export function passingValues(
  candidates: readonly number[],
  field: string,
  passes: FixCheck,
  keep = 10,
  tries = 48,
): { values: number[]; more: boolean } {
  const values: number[] = [];
  let i = 0;
  for (; i < candidates.length && i < tries && values.length < keep; i++) {
    if (passes({ [field]: candidates[i] })) values.push(candidates[i]!);
  }
  return { values, more: values.length === keep && i < candidates.length };
}

/**
 * Batch sizes near `batch` that are multiples of `step` and pass `passes`: the nearest passing one
 * above and the nearest below (≥ 1), each searched over at most `tries` multiples.
 */
export function passingMultiples(batch: number, step: number, passes: FixCheck, tries = 16): number[] {
  const out: number[] = [];
  const up = Math.ceil(batch / step) * step;
  for (let i = 0; i < tries; i++) {
    if (passes({ batch: up + i * step })) {
      out.push(up + i * step);
      break;
    }
  }
  const down = Math.floor(batch / step) * step;
  for (let i = 0; i < tries && down - i * step >= 1; i++) {
    if (down - i * step !== up && passes({ batch: down - i * step })) {
      out.push(down - i * step);
      break;
    }
  }
  return out;
}

/** "valid k here: 1, 2, 4" from passing values (ascending, "…" when more may pass), or null when none. */
export function validKFact(found: { values: number[]; more: boolean }, of: 'k' | 'ranks' = 'k'): Fact | null {
  if (found.values.length === 0) return null;
  const values = [...found.values].sort((a, b) => a - b);
  return of === 'k' ? fact('fix.valid-k', { values, more: found.more }) : fact('fix.valid-ranks', { values, more: found.more });
}

/** The batch sizes that fix it ("batch=4 or batch=8", with `times`: "batch=4 (→16)"), or null when none. */
export function batchesFact(batches: number[], times: number | null = null): Fact | null {
  return batches.length === 0 ? null : fact('fix.batches', { batches, times });
}

/** `values` ordered by distance to `target`, nearest first; ties prefer the larger (as `nearest`). */
export function byNearness(values: readonly number[], target: number): number[] {
  return [...values].sort((a, b) => Math.abs(a - target) - Math.abs(b - target) || b - a);
}

/** Formats a list of values with "…" when it was cut short. */
export function listText(values: number[], all: number): string {
  return values.join(', ') + (values.length < all ? ', …' : '');
}

/** Checks the settings every sampler shares: whole numbers, lower bounds, the seed. Null when fine. */
export function checkCommon(config: LayoutConfig, spec: SamplerSpec): ConfigError | null {
  for (const { field, kind, min, max } of LAYOUT_SETTINGS) {
    // The verl-only settings may be absent from configs saved before them (validateConfig fills them in).
    if (config[field] === undefined && field !== 'sampler' && settingOf(field).min === 0) continue;
    if (kind === 'bool' && typeof config[field] !== 'boolean') {
      return configError([fact('config.not-bool', { setting: flagName(field), got: String(config[field]) })], [{ [field]: true }]);
    }
    if (kind !== 'int' || field === 'seed') continue;
    const value = config[field] as number;
    if (!Number.isSafeInteger(value) || value < min) {
      return configError([fact('config.not-whole', { setting: flagName(field), min, got: value })], [{ [field]: min }]);
    }
    // The table's range is the truth (e.g. dataset-size's cap); the CLI checks it while parsing too.
    if (value > max) {
      return configError([fact('config.above-limit', { setting: flagName(field), value, max })], [{ [field]: max }]);
    }
  }
  if (!Number.isSafeInteger(config.seed)) {
    // Not `got ${config.seed}`: a seed beyond 2^53 arrives already rounded, and printing the
    // rounded double would name a seed the user never gave.
    const got = Number.isInteger(config.seed) ? 'a number beyond that' : config.seed;
    return configError([fact('config.seed-unsafe', { got }), fact('config.seed-low-bits')], [{ seed: 42 }]);
  }
  // One step (TRL: one generation batch) must fit in the layout limit. Checked before the
  // samplers' own rules, whose suggested fixes enumerate divisors of ranks × batch.
  const generationBatch = !('stepsPerGeneration' in spec.ignores);
  const perStep = config.ranks * config.batch * (generationBatch ? config.stepsPerGeneration : 1);
  if (perStep > LIMITS.maxSamples) {
    const what = generationBatch ? 'ranks×batch×steps-per-generation' : 'ranks×batch';
    return configError([fact('config.step-too-big', { what, samples: perStep, max: LIMITS.maxSamples }), fact('fix.lower-ranks-or-batch')]);
  }
  return null;
}

/**
 * Checks that a layout of `samples` slots needing `draws` generator outputs stays within LIMITS.
 * The error carries candidate fixes (fewer epochs, fewer batches per epoch, a smaller dataset for
 * samplers whose epoch length follows it); validateConfig keeps only those that pass.
 */
export function checkSize(config: LayoutConfig, samples: number, draws: number): ConfigError | null {
  const over = samples > LIMITS.maxSamples ? samples / LIMITS.maxSamples : draws > LIMITS.maxDraws ? draws / LIMITS.maxDraws : 0;
  if (!over) return null;
  // A few shrunk values per setting, largest first: derived epoch lengths round, so the plain
  // ratio may fall just short. validateConfig keeps the first of each setting that passes.
  const candidates: Record<string, number>[] = [];
  for (const field of ['epochs', 'batchesPerEpoch', 'datasetSize'] as const) {
    const value = config[field];
    for (const factor of [1, 1.5, 3]) {
      const smaller = Math.max(1, Math.floor(value / (over * factor)));
      if (smaller < value && !candidates.some((c) => c[field] === smaller)) candidates.push({ [field]: smaller });
    }
  }
  const problem =
    samples > LIMITS.maxSamples
      ? fact('config.layout-too-big', { samples, max: LIMITS.maxSamples })
      : fact('config.too-many-draws', { draws, datasetSize: config.datasetSize, max: LIMITS.maxDraws });
  return configError([problem], candidates);
}

/** The error's text with its (verified) suggestions appended as settings to try. */
export function withFixes(err: ConfigError, fixes: ReadonlyArray<Record<string, unknown>>): ConfigError {
  const clauses = err.clauses as Clause[];
  if (fixes.length === 0) return configError([...clauses, fact('fix.none-lower-several')], []);
  const said = fixes.map((f) =>
    Object.entries(f)
      .map(([key, value]) => `${flagName(key)}=${value}`)
      .join(' '),
  );
  return configError([...clauses, fact('fix.try', { fixes: said })], fixes);
}
