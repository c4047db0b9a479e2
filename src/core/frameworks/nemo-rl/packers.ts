// NeMo RL's bin packers (nemo_rl/data/packing/algorithms.py @ 7ea279a), restated: each takes a
// chunk's padded token counts and returns bins of sample indices, then SequencePacker.pack's
// _adjust_bin_count splits bins until there are at least min_bin_count and a multiple of
// bin_count_multiple. Python's stable sorts and tuple orders are kept, so ties break as NeMo's do.
import { FirstFitBins } from '../first-fit.ts';
import { nemoError } from './version.ts';

type Item = { idx: number; size: number };

function checkLengths(lengths: readonly number[], capacity: number): void {
  for (const length of lengths) {
    if (length > capacity) throw nemoError('ValueError', `Sequence length ${length} exceeds bin capacity ${capacity}`);
  }
}

/** ConcatenativePacker: in order, a new bin whenever the next sample would overflow. */
function concatenative(lengths: readonly number[], capacity: number): number[][] {
  checkLengths(lengths, capacity);
  const bins: number[][] = [];
  let current: number[] = [];
  let used = 0;
  lengths.forEach((length, i) => {
    if (used + length > capacity) {
      if (current.length) bins.push(current);
      current = [i];
      used = length;
    } else {
      current.push(i);
      used += length;
    }
  });
  if (current.length) bins.push(current);
  return bins;
}

/** FirstFitDecreasingPacker: (length, index) pairs sorted descending (ties: higher index first), each into the first bin it fits. */
function firstFitDecreasing(lengths: readonly number[], capacity: number): number[][] {
  const order = lengths.map((size, idx) => ({ idx, size })).sort((a, b) => b.size - a.size || b.idx - a.idx);
  const bins: number[][] = [];
  // NeMo keeps each bin's room and takes the first with room >= size: on whole token counts, load + size <= capacity.
  const fit = new FirstFitBins(capacity);
  for (const { idx, size } of order) {
    if (size > capacity) throw nemoError('ValueError', `Sequence length ${size} exceeds bin capacity ${capacity}`);
    const at = fit.place(size);
    if (at === bins.length) bins.push([]);
    bins[at]!.push(idx);
  }
  return bins;
}

const descending = (a: Item, b: Item) => b.size - a.size;

/**
 * A sorted list from which items are taken: NeMo's list.pop(i) / splice, with the first or last item still in the
 * list at or past a position found in O(α) (two union-find arrays of the next and previous remaining index)
 * instead of a scan and a shift of the whole list.
 */
class TakeList {
  readonly items: readonly Item[];
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  left: number;

  constructor(items: readonly Item[]) {
    this.items = items;
    this.left = items.length;
    // next[i]: i if item i remains, else towards the next remaining (items.length: none); prev[i + 1] likewise, 0: none.
    this.next = Int32Array.from({ length: items.length + 1 }, (_, i) => i);
    this.prev = Int32Array.from({ length: items.length + 1 }, (_, i) => i);
  }

  /** The index of the first remaining item at or after i, or items.length. */
  firstFrom(i: number): number {
    const next = this.next;
    let root = i;
    while (next[root] !== root) root = next[root]!;
    while (next[i] !== root) [i, next[i]] = [next[i]!, root];
    return root;
  }

  /** The index of the last remaining item at or before i, or -1. */
  lastUpTo(i: number): number {
    const prev = this.prev;
    let at = i + 1;
    let root = at;
    while (prev[root] !== root) root = prev[root]!;
    while (prev[at] !== root) [at, prev[at]] = [prev[at]!, root];
    return root - 1;
  }

  take(i: number): Item {
    this.next[i] = i + 1;
    this.prev[i + 1] = i;
    this.left--;
    return this.items[i]!;
  }

  remaining(): Item[] {
    const out: Item[] = [];
    for (let i = this.firstFrom(0); i < this.items.length; i = this.firstFrom(i + 1)) out.push(this.items[i]!);
    return out;
  }
}

/** The first index of a descending list whose size is <= room (its length when none). */
function firstAtMost(items: readonly Item[], room: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid]!.size <= room) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The number of items of an ascending list whose size is <= room. */
function countAtMost(items: readonly Item[], room: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid]!.size <= room) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A bin of phases 1–4: its items, their total and whether one is medium. */
interface MffdBin {
  items: Item[];
  used: number;
  hasMedium: boolean;
}

/**
 * ModifiedFirstFitDecreasingPacker (Johnson & Garey): large / medium / small / tiny classes, five phases. NeMo's
 * scans of its sorted lists (the first item that fits, list.pop) are binary searches over TakeLists here, and phase
 * 5's bins-sorted-by-fill list (bisect.insort, pop(0)) a heap ordered by (fill, insertion): the same choices, each in
 * O(log n). test/core/frameworks/nemo-rl-packers.test.ts holds NeMo's code shape and checks the two agree.
 */
function modifiedFirstFitDecreasing(lengths: readonly number[], capacity: number): number[][] {
  if (capacity <= 0) throw nemoError('ValueError', 'bin_capacity must be positive');
  if (lengths.some((l) => l <= 0)) throw nemoError('ValueError', 'sequence lengths must be positive');
  checkLengths(lengths, capacity);
  const large: Item[] = [];
  const mediumSorted: Item[] = [];
  const smallSorted: Item[] = [];
  const tiny: Item[] = [];
  lengths.forEach((size, idx) => {
    if (size > capacity / 2) large.push({ idx, size });
    else if (size > capacity / 3) mediumSorted.push({ idx, size });
    else if (size > capacity / 6) smallSorted.push({ idx, size });
    else tiny.push({ idx, size });
  });
  large.sort(descending);
  mediumSorted.sort(descending);
  smallSorted.sort((a, b) => a.size - b.size);
  tiny.sort((a, b) => a.size - b.size);
  const medium = new TakeList(mediumSorted);
  const small = new TakeList(smallSorted);
  // 1: one bin per large item. 2: the first medium that fits into each.
  const bins: MffdBin[] = large.map((it) => ({ items: [it], used: it.size, hasMedium: false }));
  for (const b of bins) {
    const at = medium.firstFrom(firstAtMost(medium.items, capacity - b.used));
    if (at < medium.items.length) {
      const it = medium.take(at);
      b.items.push(it);
      b.used += it.size;
      b.hasMedium = true;
    }
  }
  // 3: backwards, bins without a medium item take the smallest small and the largest small that still fits.
  for (let bi = bins.length - 1; bi >= 0; bi--) {
    const b = bins[bi]!;
    if (b.hasMedium || small.left < 2) continue;
    const room = capacity - b.used;
    const firstAt = small.firstFrom(0);
    const secondAt = small.firstFrom(firstAt + 1);
    if (small.items[firstAt]!.size + small.items[secondAt]!.size > room) continue;
    const first = small.take(firstAt);
    // The last remaining small item whose size is <= room - first.size (the check above makes one exist).
    const second = small.take(small.lastUpTo(countAtMost(small.items, room - first.size) - 1));
    b.items.push(first, second);
    b.used += first.size + second.size;
  }
  // 4: forward, each bin takes the largest remaining item that fits, while any does.
  const rest = new TakeList([...medium.remaining(), ...small.remaining(), ...tiny].sort(descending));
  for (const b of bins) {
    while (rest.left) {
      const room = capacity - b.used;
      if (room < rest.items[rest.lastUpTo(rest.items.length - 1)]!.size) break;
      const at = rest.firstFrom(firstAtMost(rest.items, room));
      if (at >= rest.items.length) break;
      const it = rest.take(at);
      b.items.push(it);
      b.used += it.size;
    }
  }
  // 5: first-fit-decreasing on the leftovers, bins kept sorted by fill (only the emptiest is tried); NeMo's list
  // inserts a bin after those of equal fill (bisect_right), so the heap breaks ties by insertion order.
  const ffd = new FillHeap();
  ffd.push([], 0);
  for (const it of rest.remaining()) {
    let bin: Item[] = [];
    let size = 0;
    if (it.size <= capacity - ffd.minFill()) [bin, size] = ffd.pop();
    bin.push(it);
    size += it.size;
    ffd.push(bin, size);
  }
  return [...bins.map((b) => b.items), ...ffd.inOrder()].filter((b) => b.length).map((b) => b.map((it) => it.idx));
}

/** Phase 5's bins as a binary heap on (fill, insertion number): the head is NeMo's ffd_bins[0]. */
class FillHeap {
  private readonly bins: Item[][] = [];
  private readonly fill: number[] = [];
  private readonly order: number[] = [];
  private inserted = 0;

  private before(i: number, j: number): boolean {
    return this.fill[i]! < this.fill[j]! || (this.fill[i] === this.fill[j] && this.order[i]! < this.order[j]!);
  }

  private swap(i: number, j: number): void {
    [this.bins[i], this.bins[j]] = [this.bins[j]!, this.bins[i]!];
    [this.fill[i], this.fill[j]] = [this.fill[j]!, this.fill[i]!];
    [this.order[i], this.order[j]] = [this.order[j]!, this.order[i]!];
  }

  minFill(): number {
    return this.fill[0]!;
  }

  push(bin: Item[], fill: number): void {
    let i = this.bins.length;
    this.bins.push(bin);
    this.fill.push(fill);
    this.order.push(this.inserted++);
    while (i > 0 && this.before(i, (i - 1) >> 1)) {
      this.swap(i, (i - 1) >> 1);
      i = (i - 1) >> 1;
    }
  }

  pop(): [Item[], number] {
    const top: [Item[], number] = [this.bins[0]!, this.fill[0]!];
    const last = this.bins.length - 1;
    this.swap(0, last);
    this.bins.pop();
    this.fill.pop();
    this.order.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.bins.length && this.before(l, m)) m = l;
      if (r < this.bins.length && this.before(r, m)) m = r;
      if (m === i) return top;
      this.swap(i, m);
      i = m;
    }
  }

  /** The bins as NeMo's list holds them: by fill, then insertion. */
  inOrder(): Item[][] {
    return this.bins
      .map((bin, i) => ({ bin, fill: this.fill[i]!, order: this.order[i]! }))
      .sort((a, b) => a.fill - b.fill || a.order - b.order)
      .map((x) => x.bin);
  }
}

/** SequencePacker._adjust_bin_count: split off single samples (from the fullest bins) until the count is right. */
function adjustBinCount(bins: number[][], minBins: number, multiple: number): number[][] {
  const current = bins.length;
  let target = Math.max(current, minBins);
  if (target % multiple !== 0) target += multiple - (target % multiple);
  if (target === current) return bins;
  const samples = bins.reduce((s, b) => s + b.length, 0);
  if (samples < target) {
    throw nemoError(
      'ValueError',
      `Cannot create ${target} bins with only ${samples} sequences. Each bin must contain at least one sequence. ` +
        'Either reduce min_bin_count/bin_count_multiple or provide more sequences.',
    );
  }
  const out = bins.map((b) => [...b]);
  for (let i = current; i < target; i++) out.push([]);
  // (len, index) pairs, largest first; ties: higher index first.
  const sources = bins.map((b, i) => ({ len: b.length, i })).sort((a, b) => b.len - a.len || b.i - a.i);
  let s = 0;
  for (let fresh = current; fresh < target; fresh++) {
    for (;;) {
      if (s >= sources.length) {
        throw nemoError(
          'ValueError',
          `Cannot create additional bins: insufficient sequences to redistribute. Need ${target - current} additional bins ` +
            'but cannot find enough bins with multiple sequences to redistribute from.WARNING: Triggering this section of code is a bug. Please report it.',
        );
      }
      const from = out[sources[s]!.i]!;
      if (from.length > 1) {
        out[fresh]!.push(from.pop()!);
        break;
      }
      s++;
    }
  }
  return out;
}

/** get_packer(algorithm, capacity, min_bin_count, bin_count_multiple).pack(lengths). */
export function packBins(algorithm: string, lengths: readonly number[], capacity: number, minBins: number, multiple: number): number[][] {
  let bins: number[][];
  switch (algorithm.toUpperCase()) {
    case 'MODIFIED_FIRST_FIT_DECREASING':
      bins = modifiedFirstFitDecreasing(lengths, capacity);
      break;
    case 'FIRST_FIT_DECREASING':
      bins = firstFitDecreasing(lengths, capacity);
      break;
    case 'CONCATENATIVE':
      bins = concatenative(lengths, capacity);
      break;
    default:
      throw new Error(`packBins: ${algorithm} is checked by the caller`);
  }
  return adjustBinCount(bins, minBins, multiple);
}
