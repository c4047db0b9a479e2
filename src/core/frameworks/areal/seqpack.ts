// AReaL's allocators, areal/utils/seqpack.py @ 4aef98d: ffd_allocate (first fit decreasing), kk_allocate
// (Karmarkar–Karp largest differencing, not equal-size) and balanced_greedy_partition. They split
// whole trajectories over data-parallel ranks and sequences into micro-batches. Errors are AReaL's RuntimeError /
// ValueError texts, thrown as ConfigError.
import { ConfigError } from '../../errors.ts';
import { karmarkarKarpSets } from '../verl/balance.ts';
import { numpyIntArrayStr } from './numpy-str.ts';
import { arealSays } from './version.ts';

export type PackingAlgorithm = 'ffd' | 'kk';
export const PACKING_ALGORITHMS = ['ffd', 'kk'] as const;

/** Python's bisect.insort on (value, group) pairs. */
function insort(bins: [number, number][], entry: [number, number]): void {
  let at = bins.length;
  for (let i = 0; i < bins.length; i++) {
    const [v, g] = bins[i]!;
    if (entry[0] < v || (entry[0] === v && entry[1] < g)) {
      at = i;
      break;
    }
  }
  bins.splice(at, 0, entry);
}

/**
 * _ffd_allocate: values largest first; a value opens a new group while there are fewer than `minGroups` or it does
 * not fit the lightest group; otherwise it joins, among the groups it fits, the one with the fewest items (ties: the
 * lightest, then the oldest). AReaL orders by np.argsort(-values), whose order among equal values is that of
 * numpy's SIMD sort (CPU-dependent); here equal values go in index order, so with ties the groups hold the same
 * values as AReaL's but possibly other indices of equal length.
 */
function ffdGroups(values: readonly number[], capacity: number, minGroups: number): number[][] {
  const order = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b);
  const groups: number[][] = [];
  const bins: [sum: number, group: number][] = [];
  for (const idx of order) {
    const v = values[idx]!;
    if (bins.length < minGroups || bins[0]![0] + v > capacity) {
      insort(bins, [v, groups.length]);
      groups.push([idx]);
      continue;
    }
    // bisect_right(bins, (capacity - v, len(values))): every group whose sum is at most capacity - v.
    let fits = 0;
    while (fits < bins.length && bins[fits]![0] <= capacity - v) fits++;
    let best = 0;
    for (let j = 1; j < fits; j++) if (groups[bins[j]![1]]!.length < groups[bins[best]![1]]!.length) best = j;
    const [sum, group] = bins.splice(best, 1)[0]!;
    insort(bins, [v + sum, group]);
    groups[group]!.push(idx);
  }
  return groups;
}

/** ffd_allocate(values, capacity, min_groups) with n_groups_divisor 1 (AReaL's default everywhere the sandbox looks). */
export function ffdAllocate(values: readonly number[], capacity: number, minGroups: number): number[][] {
  if (values.some((v) => v > capacity)) {
    throw new ConfigError(arealSays(`Values ${numpyIntArrayStr(values)} is larger than capacity ${capacity}`));
  }
  if (values.length < minGroups) {
    throw new ConfigError(arealSays(`Number of values ${values.length} is smaller than min_groups ${minGroups}`));
  }
  return ffdGroups(values, capacity, minGroups);
}

/**
 * _kk_partition(values, k, equal_size=False): k groups of indices, heaviest first, items in merge order. AReaL's
 * _KKSet, _KKState and heapq loop are verl's karmarkar_karp (the same set order: sum, item count, then the
 * (index, value) lists; the same state order: spread, then the largest set), so the one port serves both.
 */
const kkPartition = (values: readonly number[], k: number): number[][] => karmarkarKarpSets(values, k, false);

export interface Allocation {
  groups: number[][];
  /** seqpack's logger.warning lines, verbatim. */
  warnings: string[];
}

/** kk_allocate(values, capacity, min_groups): k = max(min_groups, ceil(total / capacity)) capped at len(values); FFD when a group overflows. */
export function kkAllocate(values: readonly number[], capacity: number, minGroups: number): Allocation {
  if (values.some((v) => v > capacity)) {
    throw new ConfigError(arealSays(`Some values exceed capacity ${capacity}. Cannot pack a single item that is larger than the bin.`));
  }
  if (values.length < minGroups) {
    throw new ConfigError(arealSays(`Number of values ${values.length} is smaller than min_groups ${minGroups}`));
  }
  const total = values.reduce((s, v) => s + v, 0);
  const k = Math.min(Math.max(minGroups, Math.ceil(total / capacity)), values.length);
  const groups = kkPartition(values, k);
  for (const g of groups) {
    const sum = g.reduce((s, i) => s + values[i]!, 0);
    if (sum > capacity) {
      const warning = `KK partition violates capacity constraint (${sum} > ${capacity}), falling back to FFD.`;
      return { groups: ffdAllocate(values, capacity, minGroups), warnings: [warning] };
    }
  }
  return { groups, warnings: [] };
}

/** get_allocate_fn(algorithm)(values, capacity, min_groups). */
export function allocate(algorithm: PackingAlgorithm, values: readonly number[], capacity: number, minGroups: number): Allocation {
  return algorithm === 'kk' ? kkAllocate(values, capacity, minGroups) : { groups: ffdAllocate(values, capacity, minGroups), warnings: [] };
}

/**
 * balanced_greedy_partition(nums, K): K groups of len(nums) / K items; values largest first (a stable sort), each
 * into the non-full group with the smallest sum (the first such group on a tie).
 */
export function balancedGreedyPartition(nums: readonly number[], K: number): number[][] {
  const n = nums.length;
  if (n < K) throw new ConfigError(arealSays(`Number of items (${n}) must be >= K (${K}).`));
  if (n % K !== 0) throw new ConfigError(arealSays('The length of nums must be divisible by K.'));
  const m = n / K;
  const order = nums.map((_, i) => i).sort((a, b) => nums[b]! - nums[a]! || a - b);
  const groups: number[][] = Array.from({ length: K }, () => []);
  const sums = new Array<number>(K).fill(0);
  for (const idx of order) {
    let chosen = -1;
    let minSum = Number.POSITIVE_INFINITY;
    for (let i = 0; i < K; i++) {
      if (groups[i]!.length < m && sums[i]! < minSum) {
        minSum = sums[i]!;
        chosen = i;
      }
    }
    groups[chosen]!.push(idx);
    sums[chosen]! += nums[idx]!;
  }
  return groups;
}
