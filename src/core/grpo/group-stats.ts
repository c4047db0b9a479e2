// The statistics every framework's advantages are made of: a group's mean and std, groups by key
// or by rows, (r − mean) / (std + eps) per group, and the slice each rank takes back. Statistics are
// accumulated in float64; the frameworks use float32 tensors or numpy float64, so results agree to
// float32 precision at worst. The homes' advantages (src/core/frameworks/<name>/advantages.ts) use them.
import { fact, factError } from '../messages/index.ts';
import type { RowsMaker } from '../messages/errors.ts';

/**
 * Mean of values[members], shifted by the first member so a group of equal rewards has exactly
 * that reward as its mean: a naive running sum rounds 3x, 5x, 7x, and DanceGRPO's eps of 1e-8
 * would turn that 1e-16 into advantages of 1e-8 instead of 0. torch's float32 mean is not always
 * exact there: for 7, 8 or 16 copies of 0.1, 0.7 or −0.3 it is one ulp off, and a framework's tiny
 * std then gives advantages of 0.007–0.056 (measured with real torch: golden-skyrl-advantages.json).
 */
export function mean(values: ArrayLike<number>, members: readonly number[]): number {
  if (members.length === 0) return Number.NaN;
  const first = values[members[0]!]!;
  let s = 0;
  for (const i of members) s += values[i]! - first;
  return first + s / members.length;
}

/** Standard deviation of values[members]: ddof 0 (numpy's default) or 1 (torch's unbiased default; NaN for one member, as torch gives). */
export function std(values: ArrayLike<number>, members: readonly number[], ddof: 0 | 1): number {
  const m = mean(values, members);
  let s = 0;
  for (const i of members) s += (values[i]! - m) ** 2;
  return Math.sqrt(s / (members.length - ddof));
}

/** Indices 0..n-1 bucketed by key, buckets in order of first appearance. */
export function groupBy<K>(keys: ArrayLike<K>): number[][] {
  const buckets = new Map<K, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = []));
    b.push(i);
  }
  return [...buckets.values()];
}

/** Consecutive rows of `size` indices over 0..n-1 (`view(-1, size)`); n must be a multiple of size. */
export function rowsOf(n: number, size: number, what: RowsMaker): number[][] {
  if (!Number.isInteger(size) || size < 1 || n % size !== 0) {
    throw factError((m) => new RangeError(m), fact('advantages.rows', { rows: what, count: n, size }));
  }
  const rows: number[][] = [];
  for (let start = 0; start < n; start += size) rows.push(Array.from({ length: size }, (_, j) => start + j));
  return rows;
}

/** (r − mean) / (std + eps) per group, written into a new array of rewards.length. */
export function normalise(
  rewards: ArrayLike<number>,
  groups: readonly number[][],
  stats: (g: number[]) => { mean: number; std: number },
  eps: number,
  divide = true,
): number[] {
  const out = new Array<number>(rewards.length).fill(Number.NaN);
  for (const g of groups) {
    const { mean: m, std: s } = stats(g);
    for (const i of g) out[i] = divide ? (rewards[i]! - m) / (s + eps) : rewards[i]! - m;
  }
  return out;
}

/**
 * The slice each rank takes back from the gathered advantages: `reshape(W, -1)[rank]`
 * (flow_grpo) = `[rank·n, (rank+1)·n)` with n = length / W (TRL). Returns W arrays.
 */
export function sliceToRanks<T>(gathered: readonly T[], ranks: number): T[][] {
  if (!Number.isInteger(ranks) || ranks < 1 || gathered.length % ranks !== 0) {
    throw factError((m) => new RangeError(m), fact('advantages.slice-back', { count: gathered.length, ranks }));
  }
  const n = gathered.length / ranks;
  return Array.from({ length: ranks }, (_, r) => gathered.slice(r * n, (r + 1) * n));
}
