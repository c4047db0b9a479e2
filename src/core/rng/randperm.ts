// torch.randperm(n, generator=g) on the CPU, both of PyTorch's branches.
import { ConfigError } from '../errors.ts';
import type { Mt19937 } from './mt19937.ts';

/** PyTorch switches to the 64-bit inside-out shuffle from this n on (0xffffffff / 20, rounded down). */
export const RANDPERM_LARGE_N = 214748364;

/** Largest n this implementation accepts (results live in an Int32Array). */
export const RANDPERM_MAX_N = 0x7fffffff;

export interface RandpermOptions {
  /**
   * n from which the 64-bit branch runs. Internal: tests lower it to check that branch on small n;
   * any other value gives permutations PyTorch would not produce.
   */
  largeThreshold?: number;
}

/** (hi·2^32 + lo) mod m, exactly, for words hi, lo < 2^32 and 1 ≤ m < 2^31, without BigInt. */
export function mod64(hi: number, lo: number, m: number): number {
  // Every intermediate stays below 2^53: (hi mod m)·2^16 < 2^47, and t + lo < 2^32.
  let t = modSafe(hi, m);
  t = modSafe(t * 65536, m);
  t = modSafe(t * 65536, m);
  return modSafe(t + lo, m);
}

/**
 * x mod m for whole numbers 0 ≤ x < 2^53 and m ≥ 1, exactly, and faster than `%` on doubles (fmod):
 * the quotient's rounding error is at most (x/m)·2^-53 < 1/m, smaller than the gap between x/m and
 * the next integer whenever m does not divide x, so the floor is the true quotient.
 */
export function modSafe(x: number, m: number): number {
  return x - Math.floor(x / m) * m;
}

/** A random permutation of 0 … n−1, bit-identical to `torch.randperm(n, generator=gen)`; consumes the same draws. */
export function randperm(n: number, gen: Mt19937, options: RandpermOptions = {}): Int32Array {
  if (!Number.isSafeInteger(n) || n < 0 || n > RANDPERM_MAX_N) {
    throw new ConfigError(`randperm: n must be a whole number in [0, ${RANDPERM_MAX_N}], got ${n}`);
  }
  const threshold = options.largeThreshold ?? RANDPERM_LARGE_N;
  const r = new Int32Array(n);
  if (n < threshold) {
    // Forward Fisher–Yates with a plain modulo (no rejection): exactly max(n−1, 0) draws.
    for (let i = 0; i < n; i++) r[i] = i;
    for (let i = 0; i < n - 1; i++) {
      const z = modSafe(gen.random(), n - i);
      const j = i + z;
      const tmp = r[i]!;
      r[i] = r[j]!;
      r[j] = tmp;
    }
  } else {
    // Inside-out shuffle with 64-bit draws (PyTorch ≥ 2.6): the 32-bit modulo would be visibly biased here.
    for (let i = 0; i < n; i++) {
      const [hi, lo] = gen.random64Words();
      const z = mod64(hi, lo, i + 1);
      r[i] = r[z]!;
      r[z] = i;
    }
  }
  return r;
}
