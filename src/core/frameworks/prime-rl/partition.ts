// prime-rl's balanced_partition (src/prime_rl/trainer/batch.py @ 559b447): Karmarkar–Karp over
// equal-count chunks of the weight-sorted items, then swap refinement. Not verl's KK (verl-balance.ts):
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

/** _refine_by_swapping: repeatedly makes the one swap between two parts that most lowers (max load, max − min), until none does. */
export function refineBySwapping(weights: readonly number[], partitions: readonly number[][]): number[][] {
  const parts = partitions.map((p) => [...p]);
  let loads = parts.map((p) => p.reduce((s, i) => s + weights[i]!, 0));
  for (;;) {
    let best: { l: number; r: number; lp: number; rp: number; loads: number[] } | null = null;
    let bestMax = Math.max(...loads);
    let bestSpread = bestMax - Math.min(...loads);
    for (let l = 0; l < parts.length; l++) {
      for (let r = l + 1; r < parts.length; r++) {
        for (let lp = 0; lp < parts[l]!.length; lp++) {
          for (let rp = 0; rp < parts[r]!.length; rp++) {
            const li = parts[l]![lp]!;
            const ri = parts[r]![rp]!;
            const next = [...loads];
            next[l] = loads[l]! - weights[li]! + weights[ri]!;
            next[r] = loads[r]! - weights[ri]! + weights[li]!;
            const max = Math.max(...next);
            const spread = max - Math.min(...next);
            if (max < bestMax || (max === bestMax && spread < bestSpread)) {
              bestMax = max;
              bestSpread = spread;
              best = { l, r, lp, rp, loads: next };
            }
          }
        }
      }
    }
    if (!best) return parts;
    const t = parts[best.l]![best.lp]!;
    parts[best.l]![best.lp] = parts[best.r]![best.rp]!;
    parts[best.r]![best.rp] = t;
    loads = best.loads;
  }
}

/** balanced_partition: Karmarkar–Karp, then swap refinement. */
export function balancedPartition(weights: readonly number[], parts: number): number[][] {
  return refineBySwapping(weights, karmarkarKarp(weights, parts));
}
