// verl's `_balance_batch` (verl/trainer/ppo/ray_trainer.py at VERL_VERSION): the order in which the
// driver hands a step's samples to the data-parallel ranks so each gets a similar token workload.
// A port of verl/utils/seqlen_balancing.py's calculate_workload and karmarkar_karp (the Largest
// Differencing Method with equal-size partitions) with Python's heapq and sort semantics, so ties
// break exactly as verl's do; checked against verl's own code in test/fixtures/golden-verl.json.

/** verl's calculate_workload: ≈ FLOPs of a 7B dense block, 24576·seqlen + seqlen². */
export function verlWorkload(seqlen: number): number {
  return 24576 * seqlen + seqlen * seqlen;
}

/**
 * karmarkar_karp's Set: a sum and the indices of its (idx, val) items in insertion order. The sets compared are
 * always disjoint (the sets of one state, or the largest sets of two states, which hold different items), so
 * Set.__lt__'s comparison of the (idx, val) lists is decided by their first indices: the values are not kept.
 */
interface PartSet {
  sum: number;
  items: number[];
}

/** Set.__lt__: by sum, then item count, then the item lists compared lexicographically (for disjoint sets, the first index). */
function setLess(a: PartSet, b: PartSet): boolean {
  if (a.sum !== b.sum) return a.sum < b.sum;
  if (a.items.length !== b.items.length) return a.items.length < b.items.length;
  return a.items.length > 0 && a.items[0]! < b.items[0]!;
}

/** sorted(sets, reverse=True): descending, equal sets keep their order (Python's reverse sort is stable). */
function sortSetsDescending(sets: PartSet[]): PartSet[] {
  return sets.sort((a, b) => (setLess(b, a) ? -1 : setLess(a, b) ? 1 : 0));
}

/**
 * A karmarkar_karp State of k sets, sorted descending. Only its non-empty sets are held (`sets`); the other
 * k − sets.length are empty and come last: with non-negative values a set holding an item is never below an
 * empty one (a larger sum, or the same sum 0 and more items), and two non-empty sets are never equal (their
 * items differ), so the sorted order is the one Python's stable sort gives whatever the order before it.
 */
interface State {
  sets: PartSet[];
}

const spread = (s: State, k: number) => s.sets[0]!.sum - (s.sets.length < k ? 0 : s.sets[k - 1]!.sum);

/**
 * State.__lt__: the larger spread first; on a tie, the state whose largest set is larger. A strict total order: two
 * states' largest sets are disjoint and non-empty, so never equal. heapq therefore pops the states in this order
 * however its list is arranged, and the pops here come from the initial states sorted once and a heap of the merged.
 */
function stateLess(a: State, b: State, k: number): boolean {
  const sa = spread(a, k);
  const sb = spread(b, k);
  if (sa !== sb) return sa > sb;
  return setLess(b.sets[0]!, a.sets[0]!);
}

/** A binary heap of the merged states, least (by stateLess) on top. */
function heapPush(heap: State[], item: State, k: number): void {
  let pos = heap.length;
  heap.push(item);
  while (pos > 0) {
    const parentPos = (pos - 1) >> 1;
    const parent = heap[parentPos]!;
    if (!stateLess(item, parent, k)) break;
    heap[pos] = parent;
    pos = parentPos;
  }
  heap[pos] = item;
}

function heapPop(heap: State[], k: number): State {
  const top = heap[0]!;
  const last = heap.pop()!;
  const end = heap.length;
  if (end === 0) return top;
  let pos = 0;
  for (;;) {
    let child = 2 * pos + 1;
    if (child >= end) break;
    if (child + 1 < end && stateLess(heap[child + 1]!, heap[child]!, k)) child++;
    if (!stateLess(heap[child]!, last, k)) break;
    heap[pos] = heap[child]!;
    pos = child;
  }
  heap[pos] = last;
  return top;
}

/**
 * State.merge: set i of `a` takes the items of set k − 1 − i of `b`, then the sets are sorted again. Only the
 * last b.sets.length positions of `a` change, so `a`'s untouched head stays sorted and the changed sets are
 * sorted and merged into it (the order the full sort gives, see State).
 */
function mergeStates(a: State, b: State, k: number): void {
  const mb = b.sets.length;
  const head = Math.min(a.sets.length, k - mb);
  const changed: PartSet[] = [];
  for (let j = 0; j < mb; j++) {
    const i = k - 1 - j;
    const from = b.sets[j]!;
    if (i < a.sets.length) {
      const into = a.sets[i]!;
      for (const item of from.items) into.items.push(item);
      into.sum += from.sum;
      changed.push(into);
    } else changed.push(from);
  }
  sortSetsDescending(changed);
  const sets = a.sets;
  sets.length = head;
  if (changed.length * 8 < head) {
    // A few changed sets into a long head: each at its place by binary search.
    for (const set of changed) {
      let lo = 0;
      let hi = sets.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (setLess(set, sets[mid]!)) lo = mid + 1;
        else hi = mid;
      }
      sets.splice(lo, 0, set);
    }
    return;
  }
  const merged: PartSet[] = new Array(head + changed.length);
  let h = 0;
  let c = 0;
  for (let o = 0; o < merged.length; o++) {
    merged[o] = h < head && (c >= changed.length || !setLess(sets[h]!, changed[c]!)) ? sets[h++]! : changed[c++]!;
  }
  a.sets = merged;
}

/**
 * karmarkar_karp(values, k, equal_size) followed by get_seqlen_balanced_partitions' sort of each
 * partition: k lists of indices into `values`, each ascending (an empty list where a partition got no
 * item). equal_size=True starts from the sorted values k at a time, so `values.length` must be a
 * multiple of k (verl asserts it); equal_size=False starts each item as a state of its own (the item
 * in one set, k − 1 empty sets), as the dynamic micro-batching of verl and its forks (EasyR1, OpenRLHF)
 * calls it. The values are token counts or workloads: non-negative (see State).
 */
export function karmarkarKarp(values: readonly number[], k: number, equalSize: boolean): number[][] {
  return karmarkarKarpSets(values, k, equalSize).map((items) => items.sort((x, y) => x - y));
}

/** karmarkar_karp's final state: its k sets, largest first, each set's indices in the order the merges added them. */
export function karmarkarKarpSets(values: readonly number[], k: number, equalSize: boolean): number[][] {
  if (values.some((v) => !(v >= 0))) throw new RangeError('karmarkarKarp: the values must be non-negative numbers');
  const sorted = Array.from(values.keys()).sort((a, b) => values[a]! - values[b]! || a - b);
  const initial: State[] = [];
  if (equalSize) {
    for (let offset = 0; offset < sorted.length; offset += k) {
      const sets: PartSet[] = [];
      for (let i = 0; i < k; i++) {
        const idx = sorted[offset + i]!;
        sets.push({ sum: values[idx]!, items: [idx] });
      }
      initial.push({ sets: sortSetsDescending(sets) });
    }
  } else {
    for (const idx of sorted) initial.push({ sets: [{ sum: values[idx]!, items: [idx] }] });
  }
  // heapq's pops: the least of the initial states not yet popped and the merged ones (see stateLess).
  initial.sort((a, b) => (stateLess(a, b, k) ? -1 : 1));
  const merged: State[] = [];
  let next = 0;
  const pop = (): State => {
    if (next < initial.length && (merged.length === 0 || stateLess(initial[next]!, merged[0]!, k))) return initial[next++]!;
    return heapPop(merged, k);
  };
  let left = initial.length;
  if (left === 0) return Array.from({ length: k }, () => []);
  while (left > 1) {
    const a = pop();
    const b = pop();
    mergeStates(a, b, k);
    heapPush(merged, a, k);
    left--;
  }
  const sets = pop().sets;
  return Array.from({ length: k }, (_, i) => sets[i]?.items ?? []);
}

/** karmarkar_karp(values, k, equal_size=True): the dispatch's equal-size partitions. */
export const balancedPartitions = (values: readonly number[], k: number): number[][] => karmarkarKarp(values, k, true);

/**
 * `_balance_batch`'s reorder index for a step whose samples have `seqlens` tokens (attention-mask
 * sums, in generation order) over `ranks` data-parallel ranks: the balanced partitions, each
 * sorted by (workload, index) and laid out small-large-small (`p[::2] + p[1::2][::-1]`), then
 * concatenated; dispatch hands rank r the r-th contiguous chunk of this order.
 */
export function balanceBatchOrder(seqlens: readonly number[], ranks: number): number[] {
  const workload = seqlens.map(verlWorkload);
  const parts = balancedPartitions(workload, ranks);
  return parts.flatMap((p) => smallLargeSmall(p, workload));
}

/**
 * `_balance_batch` with actor.use_prefix_grouper (get_group_balanced_partitions): the samples grouped by
 * uid (runs of equal uid in generation order; verl's uid is per draw, so each prompt's `k` consecutive
 * copies), each group weighed by the sum of its samples' workloads, the groups split into `ranks`
 * equal-count partitions by karmarkar_karp, each partition's samples in ascending index order; no
 * small-large-small reorder. verl raises its ValueError first unless the groups divide by the ranks.
 */
export function prefixGrouperOrder(seqlens: readonly number[], k: number, ranks: number): number[] {
  const groups = seqlens.length / k;
  const groupLoad = Array.from({ length: groups }, (_, g) => {
    let sum = 0;
    for (let i = g * k; i < (g + 1) * k; i++) sum += verlWorkload(seqlens[i]!);
    return sum;
  });
  return balancedPartitions(groupLoad, ranks).flatMap((part) =>
    part.flatMap((g) => Array.from({ length: k }, (_, c) => g * k + c)).sort((x, y) => x - y),
  );
}

/** A partition sorted by (workload, index) and laid out small-large-small (`p[::2] + p[1::2][::-1]`). */
function smallLargeSmall(part: readonly number[], workload: readonly number[]): number[] {
  const byLoad = [...part].sort((x, y) => workload[x]! - workload[y]! || x - y);
  return [...byLoad.filter((_, i) => i % 2 === 0), ...byLoad.filter((_, i) => i % 2 === 1).reverse()];
}

/**
 * `_balance_batch(keep_minibatch=True)`: the workload list cut into slices of `slice` entries (verl slices it
 * with actor.ppo_mini_batch_size as the trainer's config holds it), each slice balanced over the ranks on its own,
 * rank r's parts appended slice after slice, then each rank's list small-large-small. `seqlens.length` must be
 * a multiple of `slice` (verl drops the rest from the reorder index; the caller refuses that).
 */
export function keepMinibatchOrder(seqlens: readonly number[], ranks: number, slice: number): number[] {
  const workload = seqlens.map(verlWorkload);
  const perRank: number[][] = Array.from({ length: ranks }, () => []);
  for (let start = 0; start + slice <= workload.length; start += slice) {
    balancedPartitions(workload.slice(start, start + slice), ranks).forEach((part, r) => perRank[r]!.push(...part.map((i) => i + start)));
  }
  return perRank.flatMap((part) => smallLargeSmall(part, workload));
}
