// prime-rl's balanced_partition (src/prime_rl/trainer/batch.py @ 559b447): Karmarkar–Karp over
// equal-count chunks of the weight-sorted items, then swap refinement. Not verl's KK (verl/balance.ts):
// prime-rl breaks ties by comparing a set's (total, item list) and a state's (spread, largest set),
// and refines the result by pairwise swaps, so it is restated here.

interface WeightedSet {
  total: number;
  items: number[];
}

/** Python's list comparison on ints: -1, 0 or 1. */
function compareLists(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** _WeightedSet.__lt__ as a comparator: by total, then by item list. */
function compareSets(a: WeightedSet, b: WeightedSet): number {
  if (a.total !== b.total) return a.total < b.total ? -1 : 1;
  return compareLists(a.items, b.items);
}

/** sets.sort(reverse=True): heaviest first (Python's reverse sort is stable, so equal sets keep their order). */
function sortDescending(sets: WeightedSet[]): void {
  sets.sort((a, b) => compareSets(b, a));
}

/** A _KKState: k sets, heaviest first. */
class KKState {
  constructor(readonly sets: WeightedSet[]) {
    sortDescending(sets);
  }

  get spread(): number {
    return this.sets[0]!.total - this.sets[this.sets.length - 1]!.total;
  }

  /** _KKState.__lt__: the larger spread comes first, then the larger heaviest set. */
  before(other: KKState): boolean {
    if (this.spread !== other.spread) return this.spread > other.spread;
    return compareSets(this.sets[0]!, other.sets[0]!) > 0;
  }

  /** Merges the other state's sets lightest-into-heaviest, then re-sorts. */
  merge(other: KKState): void {
    const k = this.sets.length;
    for (let i = 0; i < k; i++) {
      const into = this.sets[i]!;
      const from = other.sets[k - 1 - i]!;
      into.items.push(...from.items);
      into.total += from.total;
    }
    sortDescending(this.sets);
  }
}

/** Removes and returns the first state in _KKState order (what heapq.heappop returns: the order has no ties). */
function popFirst(states: KKState[]): KKState {
  let best = 0;
  for (let i = 1; i < states.length; i++) if (states[i]!.before(states[best]!)) best = i;
  return states.splice(best, 1)[0]!;
}

/** _karmarkar_karp: requires a positive multiple of `parts` weights; returns each set's sorted items, heaviest set first. */
export function karmarkarKarp(weights: readonly number[], parts: number): number[][] {
  if (weights.length < parts || weights.length % parts !== 0) {
    throw new RangeError(`karmarkarKarp: ${weights.length} weights is not a positive multiple of ${parts} parts`);
  }
  const order = weights.map((_w, i) => i).sort((a, b) => weights[a]! - weights[b]! || a - b);
  const states: KKState[] = [];
  for (let offset = 0; offset < order.length; offset += parts) {
    const chunk = order.slice(offset, offset + parts);
    states.push(new KKState(chunk.map((i) => ({ total: weights[i]!, items: [i] }))));
  }
  while (states.length > 1) {
    const state = popFirst(states);
    state.merge(popFirst(states));
    states.push(state);
  }
  return states[0]!.sets.map((s) => [...s.items].sort((a, b) => a - b));
}

/** The largest load of the ranks other than l and r (-Infinity when there is none), from the three largest. */
function extremeWithout(top: readonly number[], loads: readonly number[], l: number, r: number): number {
  for (const t of top) if (t !== l && t !== r) return loads[t]!;
  return Number.NaN;
}

/** The ranks of the three largest (sign 1) or smallest (sign -1) loads, extreme first. */
function threeExtremes(loads: readonly number[], sign: 1 | -1): number[] {
  const top: number[] = [];
  for (let i = 0; i < loads.length; i++) {
    let at = top.length;
    while (at > 0 && sign * loads[i]! > sign * loads[top[at - 1]!]!) at--;
    if (at < 3) {
      top.splice(at, 0, i);
      if (top.length > 3) top.pop();
    }
  }
  return top;
}

/**
 * _refine_by_swapping: repeatedly makes the one swap between two parts that most lowers (max load, max − min), until
 * none does. prime-rl scores every swap on a copy of all the loads; here the largest and smallest load of the other
 * parts come from the three extremes, and a pair of parts whose other loads alone already score no better than the
 * best swap so far is skipped (its swaps cannot be strictly better), so the swap chosen is the same: the first, in
 * prime-rl's loop order, of the lowest score. test/core/frameworks/prime-rl-partition.test.ts holds prime-rl's loop
 * as written and checks the two agree.
 */
export function refineBySwapping(weights: readonly number[], partitions: readonly number[][]): number[][] {
  const parts = partitions.map((p) => [...p]);
  const loads = parts.map((p) => p.reduce((s, i) => s + weights[i]!, 0));
  const count = parts.length;
  for (;;) {
    const top = threeExtremes(loads, 1);
    const bottom = threeExtremes(loads, -1);
    let bestMax = loads[top[0]!]!;
    let bestSpread = bestMax - loads[bottom[0]!]!;
    let best: { l: number; r: number; lp: number; rp: number; left: number; right: number } | null = null;
    for (let l = 0; l < count; l++) {
      for (let r = l + 1; r < count; r++) {
        const otherMax = count > 2 ? extremeWithout(top, loads, l, r) : Number.NEGATIVE_INFINITY;
        const otherMin = count > 2 ? extremeWithout(bottom, loads, l, r) : Number.POSITIVE_INFINITY;
        // Every swap of this pair scores at least (otherMax, otherMax − otherMin).
        if (otherMax > bestMax || (otherMax === bestMax && otherMax - otherMin >= bestSpread)) continue;
        const left = parts[l]!;
        const right = parts[r]!;
        const leftLoad = loads[l]!;
        const rightLoad = loads[r]!;
        for (let lp = 0; lp < left.length; lp++) {
          const lw = weights[left[lp]!]!;
          for (let rp = 0; rp < right.length; rp++) {
            const rw = weights[right[rp]!]!;
            const newLeft = leftLoad - lw + rw;
            const newRight = rightLoad - rw + lw;
            const max = Math.max(otherMax, newLeft, newRight);
            const spread = max - Math.min(otherMin, newLeft, newRight);
            if (max < bestMax || (max === bestMax && spread < bestSpread)) {
              bestMax = max;
              bestSpread = spread;
              best = { l, r, lp, rp, left: newLeft, right: newRight };
            }
          }
        }
      }
    }
    if (!best) return parts;
    const t = parts[best.l]![best.lp]!;
    parts[best.l]![best.lp] = parts[best.r]![best.rp]!;
    parts[best.r]![best.rp] = t;
    loads[best.l] = best.left;
    loads[best.r] = best.right;
  }
}

/** balanced_partition: Karmarkar–Karp, then swap refinement. */
export function balancedPartition(weights: readonly number[], parts: number): number[][] {
  return refineBySwapping(weights, karmarkarKarp(weights, parts));
}
