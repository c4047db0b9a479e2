// verl's karmarkar_karp in its code shape (verl/utils/seqlen_balancing.py: every State holds its k sets, State.merge
// extends set i by the other's set k − 1 − i and sorts all k again), kept here as the reference for
// src/core/frameworks/verl/balance.ts's karmarkarKarp, which holds only a state's non-empty sets and re-sorts only the
// changed ones: the two agree on many seeded value sets, both starts (equal_size True and False), ties included.
// golden-verl.json, golden-easyr1-*.json and golden-openrlhf.json check the fast one against the frameworks' own code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { karmarkarKarp } from '../../../src/core/frameworks/verl/balance.ts';
import { Mt19937, randint } from '../../../src/core/rng/index.ts';

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
function karmarkarKarpAsWritten(values: readonly number[], k: number, equalSize: boolean): number[][] {
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

test('karmarkarKarp: the partitions of verl’s code shape (800 seeded cases, equal_size False and True)', () => {
  for (let seed = 0; seed < 800; seed++) {
    const rng = new Mt19937(seed);
    const [kDraw, perDraw, highDraw] = Array.from(randint(rng, 0, 1000, 3));
    const k = 1 + (kDraw! % 12);
    const equalSize = seed % 2 === 1;
    const count = equalSize ? k * (1 + (perDraw! % 8)) : 1 + (perDraw! % 60);
    // Few distinct values in some cases (equal sums, equal sets compared item by item), zeros included.
    const high = [2, 5, 600, 100000][highDraw! % 4]!;
    const values = Array.from(randint(rng, seed % 3 === 0 ? 0 : 1, high, count));
    assert.deepEqual(karmarkarKarp(values, k, equalSize), karmarkarKarpAsWritten(values, k, equalSize), `seed ${seed}`);
  }
});

test('karmarkarKarp refuses a negative value (a set holding it would sort below an empty one)', () => {
  assert.throws(() => karmarkarKarp([3, -1, 2], 2, false), RangeError);
});
