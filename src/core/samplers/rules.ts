// Shared arithmetic for the samplers' configuration rules and their suggested fixes.
import { ConfigError } from '../errors.ts';
import type { LayoutConfig } from '../layout/types.ts';
import { LAYOUT_SETTINGS, flagName } from '../settings.ts';

/** Hard caps that keep a layout computable in about a second and printable. */
export const LIMITS = {
  /** Samples (slots) over the whole layout. */
  maxSamples: 2_000_000,
  /** Dataset ids a randperm may shuffle. */
  maxDatasetSize: 10_000_000,
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

/** Formats a list of values with "…" when it was cut short. */
export function listText(values: number[], all: number): string {
  return values.join(', ') + (values.length < all ? ', …' : '');
}

/** Checks the settings every sampler shares: whole numbers, lower bounds, the seed. Null when fine. */
export function checkCommon(config: LayoutConfig): ConfigError | null {
  for (const { field, kind, min } of LAYOUT_SETTINGS) {
    if (kind !== 'int' || field === 'seed') continue;
    const value = config[field] as number;
    if (!Number.isSafeInteger(value) || value < min) {
      return new ConfigError(`${flagName(field)} must be a whole number ≥ ${min}, got ${value}`, [{ [field]: min }]);
    }
  }
  if (!Number.isSafeInteger(config.seed)) {
    // Not `got ${config.seed}`: a seed beyond 2^53 arrives already rounded, and printing the
    // rounded double would name a seed the user never gave.
    const got = Number.isInteger(config.seed) ? 'a number beyond that' : `${config.seed}`;
    return new ConfigError(`seed must be a whole number within ±(2^53−1), got ${got}; PyTorch uses only its low 32 bits`, [{ seed: 42 }]);
  }
  // One step (TRL: one generation batch) must fit in the layout limit. Checked before the
  // samplers' own rules, whose suggested fixes enumerate divisors of ranks × batch.
  const perStep = config.ranks * config.batch * (config.sampler === 'trl' ? config.stepsPerGeneration : 1);
  if (perStep > LIMITS.maxSamples) {
    const what = config.sampler === 'trl' ? 'ranks×batch×steps-per-generation' : 'ranks×batch';
    return new ConfigError(
      `one step holds ${what}=${perStep} samples, above the sandbox's limit of ${LIMITS.maxSamples}; lower --ranks or --batch`,
    );
  }
  if (config.datasetSize > LIMITS.maxDatasetSize) {
    return new ConfigError(`dataset-size=${config.datasetSize} is above the sandbox's limit of ${LIMITS.maxDatasetSize}`, [
      { datasetSize: LIMITS.maxDatasetSize },
    ]);
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
      ? `this layout has ${samples} samples, above the sandbox's limit of ${LIMITS.maxSamples}`
      : `this layout needs ${draws} generator draws (a randperm of dataset-size=${config.datasetSize} per reseed), above the limit of ${LIMITS.maxDraws}`;
  return new ConfigError(problem, candidates);
}

/** The error's text with its (verified) suggestions appended as settings to try. */
export function withFixes(err: ConfigError, fixes: ReadonlyArray<Record<string, unknown>>): ConfigError {
  if (fixes.length === 0) return new ConfigError(`${err.message}; no single setting fixes it, lower several`, []);
  const text = fixes
    .map((f) =>
      Object.entries(f)
        .map(([key, value]) => `${flagName(key)}=${value}`)
        .join(' '),
    )
    .join(' or ');
  return new ConfigError(`${err.message}; try ${text}`, fixes);
}
