// karmarkar_karp(seqlen_list, k, equal_size=False) of EasyR1's verl/utils/seqlen_balancing.py (b44b311),
// with get_seqlen_balanced_partitions' checks and sort: every item starts as its own state (the item in
// one set, k−1 empty sets) and the two states of largest spread are merged until one is left, ties
// broken by Python's heapq and the Set/State orderings exactly. (The equal_size=True form, used for
// dispatch, is src/core/samplers/verl-balance.ts's balancedPartitions; this file adds the unequal start.)
import { easyr1Assert } from './dispatch.ts';

type Item = readonly [idx: number, val: number];

interface PartSet {
  sum: number;
  items: Item[];
}

/** Set.__lt__: by sum, then item count, then the (idx, val) lists compared lexicographically. */
function setLess(a: PartSet, b: PartSet): boolean {
  if (a.sum !== b.sum) return a.sum < b.sum;
  if (a.items.length !== b.items.length) return a.items.length < b.items.length;
  for (let i = 0; i < a.items.length; i++) {
    const [ai, av] = a.items[i]!;
    const [bi, bv] = b.items[i]!;
    if (ai !== bi) return ai < bi;
    if (av !== bv) return av < bv;
  }
  return false;
}

/** sorted(sets, reverse=True): descending and stable. */
const sortDescending = (sets: PartSet[]): PartSet[] => [...sets].sort((a, b) => (setLess(b, a) ? -1 : setLess(a, b) ? 1 : 0));

type State = PartSet[];

const spread = (s: State) => s[0]!.sum - s[s.length - 1]!.sum;

/** State.__lt__: larger spread first; on a tie, the state whose largest set is larger. */
function stateLess(a: State, b: State): boolean {
  if (spread(a) !== spread(b)) return spread(a) > spread(b);
  return setLess(b[0]!, a[0]!);
}

function siftDown(heap: State[], start: number, pos: number): void {
  const item = heap[pos]!;
  while (pos > start) {
    const parent = (pos - 1) >> 1;
    if (!stateLess(item, heap[parent]!)) break;
    heap[pos] = heap[parent]!;
    pos = parent;
  }
  heap[pos] = item;
}

function push(heap: State[], s: State): void {
  heap.push(s);
  siftDown(heap, 0, heap.length - 1);
}

/** heapq.heappop (CPython's _siftup then _siftdown). */
function pop(heap: State[]): State {
  const last = heap.pop()!;
  if (heap.length === 0) return last;
  const top = heap[0]!;
  let pos = 0;
  let child = 1;
  while (child < heap.length) {
    if (child + 1 < heap.length && !stateLess(heap[child]!, heap[child + 1]!)) child++;
    heap[pos] = heap[child]!;
    pos = child;
    child = 2 * pos + 1;
  }
  heap[pos] = last;
  siftDown(heap, 0, pos);
  return top;
}

/** get_seqlen_balanced_partitions(seqlens, k, equal_size=False): k partitions of indices, each ascending. */
export function unequalPartitions(seqlens: readonly number[], k: number): number[][] {
  if (seqlens.length < k) {
    throw easyr1Assert(`number of items:[${seqlens.length}] < k_partitions:[${k}]`, 'seqlen_balancing.get_seqlen_balanced_partitions');
  }
  const sorted = seqlens.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const heap: State[] = [];
  for (const [val, idx] of sorted) {
    const sets: PartSet[] = Array.from({ length: k }, () => ({ sum: 0, items: [] }));
    sets[0] = { sum: val, items: [[idx, val]] };
    push(heap, sortDescending(sets));
  }
  while (heap.length > 1) {
    const a = pop(heap);
    const b = pop(heap);
    const merged = a.map((s, i) => ({ sum: s.sum + b[k - 1 - i]!.sum, items: [...s.items, ...b[k - 1 - i]!.items] }));
    push(heap, sortDescending(merged));
  }
  return heap[0]!.map((s, i) => {
    if (s.items.length === 0) throw easyr1Assert(`the ${i}-th partition is empty`, 'seqlen_balancing.get_seqlen_balanced_partitions');
    return s.items.map(([idx]) => idx).sort((x, y) => x - y);
  });
}
