// NeMo RL's FirstFitDecreasingPacker and ModifiedFirstFitDecreasingPacker in their code shape
// (nemo_rl/data/packing/algorithms.py @ 7ea279a: a scan of every bin or of the sorted lists for the first that fits,
// list.pop and bisect.insort), kept here as the reference for the home's packers (src/core/frameworks/nemo-rl/packers.ts),
// which find the same bins with a segment tree, union-find lists and a heap: the two agree on many seeded length sets
// whose capacities put items in all four of MFFD's classes. golden-nemo-rl-layout.json (nemo-rl.test.ts) checks the
// home against NeMo's own code on fixture-sized inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packBins } from '../../../src/core/frameworks/nemo-rl/packers.ts';
import { Mt19937, randint } from '../../../src/core/rng/index.ts';

type Item = { idx: number; size: number };

/** FirstFitDecreasingPacker: (length, index) pairs sorted descending (ties: higher index first), each into the first bin it fits. */
function firstFitDecreasingAsWritten(lengths: readonly number[], capacity: number): number[][] {
  const order = lengths.map((size, idx) => ({ idx, size })).sort((a, b) => b.size - a.size || b.idx - a.idx);
  const bins: number[][] = [];
  const room: number[] = [];
  for (const { idx, size } of order) {
    if (size > capacity) throw new Error('too long');
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
function modifiedFirstFitDecreasingAsWritten(lengths: readonly number[], capacity: number): number[][] {
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

function seededCase(seed: number): { lengths: number[]; capacity: number } {
  const rng = new Mt19937(seed);
  const [countDraw, capDraw, shapeDraw] = Array.from(randint(rng, 0, 1000, 3));
  const capacity = 12 + (capDraw! % 500);
  const count = 1 + (countDraw! % 300);
  // Lengths over the whole range (every class), or few distinct ones (ties), or only small ones (phase 5).
  const high = [capacity, 6, Math.max(1, Math.floor(capacity / 6))][shapeDraw! % 3]!;
  return { lengths: Array.from(randint(rng, 1, high + 1, count)), capacity };
}

test('MODIFIED_FIRST_FIT_DECREASING: the same bins as NeMo’s code shape (600 seeded length sets)', () => {
  for (let seed = 0; seed < 600; seed++) {
    const { lengths, capacity } = seededCase(seed);
    assert.deepEqual(
      packBins('MODIFIED_FIRST_FIT_DECREASING', lengths, capacity, 1, 1),
      modifiedFirstFitDecreasingAsWritten(lengths, capacity).map((b) => b),
      `seed ${seed}`,
    );
  }
});

test('FIRST_FIT_DECREASING: the same bins as NeMo’s code shape (600 seeded length sets)', () => {
  for (let seed = 0; seed < 600; seed++) {
    const { lengths, capacity } = seededCase(seed);
    assert.deepEqual(
      packBins('FIRST_FIT_DECREASING', lengths, capacity, 1, 1),
      firstFitDecreasingAsWritten(lengths, capacity),
      `seed ${seed}`,
    );
  }
});
