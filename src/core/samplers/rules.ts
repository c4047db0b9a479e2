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
    return new ConfigError(`seed must be a whole number within ±(2^53−1), got ${config.seed}; PyTorch uses only its low 32 bits`, [
      { seed: 42 },
    ]);
  }
  if (config.datasetSize > LIMITS.maxDatasetSize) {
    return new ConfigError(`dataset-size=${config.datasetSize} is above the sandbox's limit of ${LIMITS.maxDatasetSize}`, [
      { datasetSize: LIMITS.maxDatasetSize },
    ]);
  }
  return null;
}

/** Checks that a layout of `samples` slots needing `draws` generator outputs stays within LIMITS. */
export function checkSize(config: LayoutConfig, samples: number, draws: number): ConfigError | null {
  if (samples > LIMITS.maxSamples) {
    const epochs = Math.max(1, Math.floor((config.epochs * LIMITS.maxSamples) / samples));
    return new ConfigError(
      `this layout has ${samples} samples, above the sandbox's limit of ${LIMITS.maxSamples}; use fewer epochs (epochs=${epochs}) or a smaller dataset-size`,
      epochs < config.epochs ? [{ epochs }] : [],
    );
  }
  if (draws > LIMITS.maxDraws) {
    const epochs = Math.max(1, Math.floor((config.epochs * LIMITS.maxDraws) / draws));
    return new ConfigError(
      `this layout needs ${draws} generator draws (a randperm of dataset-size=${config.datasetSize} per reseed), above the limit of ${LIMITS.maxDraws}; use fewer epochs (epochs=${epochs}) or a smaller dataset-size`,
      epochs < config.epochs ? [{ epochs }] : [],
    );
  }
  return null;
}
