// Deterministic test data (Philox-keyed, so every runtime builds the same inputs) and comparisons.
import assert from 'node:assert/strict';
import { philox4x32, unitFloat } from '../../src/core/rng/philox.ts';

/** n uniform floats in [lo, hi), keyed by `key` (any integer). */
export function uniform(n: number, key: number, lo = -1, hi = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = lo + (hi - lo) * unitFloat(philox4x32([i, key, 0, 0], [0x7e57, 0])[0]);
  return out;
}

/** A 0/1 mask with roughly `keep` of the values 1, and at least one 1 per row of `width`. */
export function randomMask(rows: number, width: number, key: number, keep = 0.7): Float32Array {
  const u = uniform(rows * width, key, 0, 1);
  const mask = u.map((v) => (v < keep ? 1 : 0));
  for (let r = 0; r < rows; r++) mask[r * width + (r % width)] = 1;
  return mask;
}

/** Asserts |actual − expected| ≤ atol + rtol·|expected| elementwise; the message names the first bad index. */
export function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, atol: number, rtol: number, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i]!,
      e = expected[i]!;
    const err = Math.abs(a - e);
    if (!(err <= atol + rtol * Math.abs(e)))
      assert.fail(`${what}[${i}]: got ${a}, expected ${e} (|err| ${err.toExponential(2)} > ${atol} + ${rtol}·|expected|)`);
    worst = Math.max(worst, err);
  }
}

/** The largest absolute value (for tolerances relative to a tensor's scale). */
export function maxAbs(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) m = Math.max(m, Math.abs(values[i]!));
  return m;
}
