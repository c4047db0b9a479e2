// NeMo RL's bin packers (nemo_rl/data/packing/algorithms.py @ 7ea279a), restated: each takes a
// chunk's padded token counts and returns bins of sample indices, then SequencePacker.pack's
// _adjust_bin_count splits bins until there are at least min_bin_count and a multiple of
// bin_count_multiple. Python's stable sorts and tuple orders are kept, so ties break as NeMo's do.
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
  const room: number[] = [];
  for (const { idx, size } of order) {
    if (size > capacity) throw nemoError('ValueError', `Sequence length ${size} exceeds bin capacity ${capacity}`);
    const at = room.findIndex((r) => r >= size);
    if (at >= 0) {
      bins[at]!.push(idx);
      room[at]! -= size;
    } else {
      bins.push([idx]);
      room.push(capacity - size);
    }
  }
  return bins;
}

const total = (bin: readonly Item[]) => bin.reduce((s, it) => s + it.size, 0);
const descending = (a: Item, b: Item) => b.size - a.size;

/** Python's bisect.bisect_right on an ascending list. */
function bisectRight(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x < xs[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** ModifiedFirstFitDecreasingPacker (Johnson & Garey): large / medium / small / tiny classes, five phases. */
function modifiedFirstFitDecreasing(lengths: readonly number[], capacity: number): number[][] {
  if (capacity <= 0) throw nemoError('ValueError', 'bin_capacity must be positive');
  if (lengths.some((l) => l <= 0)) throw nemoError('ValueError', 'sequence lengths must be positive');
  checkLengths(lengths, capacity);
  const large: Item[] = [];
  const medium: Item[] = [];
  const small: Item[] = [];
  const tiny: Item[] = [];
  lengths.forEach((size, idx) => {
    if (size > capacity / 2) large.push({ idx, size });
    else if (size > capacity / 3) medium.push({ idx, size });
    else if (size > capacity / 6) small.push({ idx, size });
    else tiny.push({ idx, size });
  });
  large.sort(descending);
  medium.sort(descending);
  small.sort((a, b) => a.size - b.size);
  tiny.sort((a, b) => a.size - b.size);
  // 1: one bin per large item. 2: the first medium that fits into each.
  const bins: Item[][] = large.map((it) => [it]);
  for (const b of bins) {
    const room = capacity - total(b);
    const at = medium.findIndex((it) => it.size <= room);
    if (at >= 0) b.push(medium.splice(at, 1)[0]!);
  }
  // 3: backwards, bins without a medium item take the smallest small and the largest small that still fits.
  for (let bi = bins.length - 1; bi >= 0; bi--) {
    const b = bins[bi]!;
    const hasMedium = b.some((it) => capacity / 3 < it.size && it.size <= capacity / 2);
    if (hasMedium || small.length < 2) continue;
    const room = capacity - total(b);
    if (small[0]!.size + small[1]!.size > room) continue;
    const first = small.shift()!;
    let second = -1;
    for (let j = small.length - 1; j >= 0; j--) {
      if (small[j]!.size <= room - first.size) {
        second = j;
        break;
      }
    }
    // (NeMo drops `first` when no second fits; the check above makes that impossible.)
    if (second >= 0) b.push(first, small.splice(second, 1)[0]!);
  }
  // 4: forward, each bin takes the largest remaining item that fits, while any does.
  const rest = [...medium, ...small, ...tiny].sort(descending);
  for (const b of bins) {
    while (rest.length) {
      const room = capacity - total(b);
      if (room < rest[rest.length - 1]!.size) break;
      const at = rest.findIndex((it) => it.size <= room);
      if (at < 0) break;
      b.push(rest.splice(at, 1)[0]!);
    }
  }
  // 5: first-fit-decreasing on the leftovers, bins kept sorted by fill (only the emptiest is tried).
  const ffd: Item[][] = [[]];
  const fill: number[] = [0];
  for (const it of [...rest].sort(descending)) {
    let bin: Item[] = [];
    let size = 0;
    if (it.size <= capacity - fill[0]!) {
      bin = ffd.shift()!;
      size = fill.shift()!;
    }
    bin.push(it);
    size += it.size;
    const at = bisectRight(fill, size);
    ffd.splice(at, 0, bin);
    fill.splice(at, 0, size);
  }
  return [...bins, ...ffd].filter((b) => b.length).map((b) => b.map((it) => it.idx));
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
