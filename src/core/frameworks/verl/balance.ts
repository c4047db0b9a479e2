// verl's `_balance_batch` (verl/trainer/ppo/ray_trainer.py at VERL_VERSION): the order in which the
// driver hands a step's samples to the data-parallel ranks so each gets a similar token workload.
// A port of verl/utils/seqlen_balancing.py's calculate_workload and karmarkar_karp (the Largest
// Differencing Method with equal-size partitions) with Python's heapq and sort semantics, so ties
// break exactly as verl's do; checked against verl's own code in test/fixtures/golden-verl.json.

/** verl's calculate_workload: ≈ FLOPs of a 7B dense block, 24576·seqlen + seqlen². */
export function verlWorkload(seqlen: number): number {
  return 24576 * seqlen + seqlen * seqlen;
}

type Item = [idx: number, val: number];

/** karmarkar_karp's Set: a sum and its (idx, val) items in insertion order. */
interface PartSet {
  sum: number;
  items: Item[];
}

/** Set.__lt__: by sum, then item count, then the item lists compared lexicographically. */
function setLess(a: PartSet, b: PartSet): boolean {
  if (a.sum !== b.sum) return a.sum < b.sum;
  if (a.items.length !== b.items.length) return a.items.length < b.items.length;
  const n = Math.min(a.items.length, b.items.length);
  for (let i = 0; i < n; i++) {
    const [ai, av] = a.items[i]!;
    const [bi, bv] = b.items[i]!;
    if (ai !== bi) return ai < bi;
    if (av !== bv) return av < bv;
  }
  return a.items.length < b.items.length;
}

/** sorted(sets, reverse=True): descending, equal sets keep their order (Python's reverse sort is stable). */
function sortSetsDescending(sets: PartSet[]): PartSet[] {
  return [...sets].sort((a, b) => (setLess(b, a) ? -1 : setLess(a, b) ? 1 : 0));
}

interface State {
  sets: PartSet[];
}

const spread = (s: State) => s.sets[0]!.sum - s.sets[s.sets.length - 1]!.sum;

/** State.__lt__: the larger spread first; on a tie, the state whose largest set is larger. */
function stateLess(a: State, b: State): boolean {
  const sa = spread(a);
  const sb = spread(b);
  if (sa !== sb) return sa > sb;
  return setLess(b.sets[0]!, a.sets[0]!);
}

/** heapq.heappush / heappop (CPython's _siftdown / _siftup), ordered by stateLess. */
function siftDown(heap: State[], start: number, pos: number): void {
  const item = heap[pos]!;
  while (pos > start) {
    const parentPos = (pos - 1) >> 1;
    const parent = heap[parentPos]!;
    if (stateLess(item, parent)) {
      heap[pos] = parent;
      pos = parentPos;
      continue;
    }
    break;
  }
  heap[pos] = item;
}

function heapPush(heap: State[], item: State): void {
  heap.push(item);
  siftDown(heap, 0, heap.length - 1);
}

function heapPop(heap: State[]): State {
  const last = heap.pop()!;
  if (heap.length === 0) return last;
  const top = heap[0]!;
  heap[0] = last;
  const end = heap.length;
  let pos = 0;
  let child = 1;
  while (child < end) {
    const right = child + 1;
    if (right < end && !stateLess(heap[child]!, heap[right]!)) child = right;
    heap[pos] = heap[child]!;
    pos = child;
    child = 2 * pos + 1;
  }
  heap[pos] = last;
  siftDown(heap, 0, pos);
  return top;
}

/**
 * karmarkar_karp(values, k, equal_size) followed by get_seqlen_balanced_partitions' sort of each
 * partition: k lists of indices into `values`, each ascending (an empty list where a partition got no
 * item). equal_size=True starts from the sorted values k at a time, so `values.length` must be a
 * multiple of k (verl asserts it); equal_size=False starts each item as a state of its own (the item
 * in one set, k − 1 empty sets), as the dynamic micro-batching of verl and its forks (EasyR1, OpenRLHF)
 * calls it.
 */
export function karmarkarKarp(values: readonly number[], k: number, equalSize: boolean): number[][] {
  const sorted = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const heap: State[] = [];
  if (equalSize) {
    for (let offset = 0; offset < sorted.length; offset += k) {
      const sets: PartSet[] = [];
      for (let i = 0; i < k; i++) {
        const [val, idx] = sorted[offset + i]!;
        sets.push({ sum: val, items: [[idx, val]] });
      }
      heapPush(heap, { sets: sortSetsDescending(sets) });
    }
  } else {
    for (const [val, idx] of sorted) {
      const sets: PartSet[] = Array.from({ length: k }, () => ({ sum: 0, items: [] }));
      sets[0] = { sum: val, items: [[idx, val]] };
      heapPush(heap, { sets: sortSetsDescending(sets) });
    }
  }
  while (heap.length > 1) {
    const a = heapPop(heap);
    const b = heapPop(heap);
    const merged = a.sets.map((s, i) => {
      const other = b.sets[k - 1 - i]!;
      return { sum: s.sum + other.sum, items: [...s.items, ...other.items] };
    });
    a.sets = sortSetsDescending(merged);
    heapPush(heap, a);
  }
  return heap[0]!.sets.map((s) => s.items.map(([idx]) => idx).sort((x, y) => x - y));
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
