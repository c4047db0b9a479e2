// FirstFitBins (src/core/frameworks/first-fit.ts) against the packers' own code shape, a scan of every bin for the
// first whose load plus the sample fits: the same bin for every sample of many seeded length sets, past the tree's
// growth (hundreds of bins) and with samples that fill a bin exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FirstFitBins } from '../../../src/core/frameworks/first-fit.ts';
import { Mt19937, randint } from '../../../src/core/rng/index.ts';

test('FirstFitBins.place: the bin a scan of every bin finds (300 seeded length sets)', () => {
  let most = 0;
  for (let seed = 0; seed < 300; seed++) {
    const rng = new Mt19937(seed);
    const [capDraw, countDraw] = Array.from(randint(rng, 0, 1000, 2));
    const capacity = 1 + (capDraw! % 64);
    const lengths = Array.from(randint(rng, 1, capacity + 1, 1 + (countDraw! % 900)));
    const fast = new FirstFitBins(capacity, 1 + (seed % 20));
    const loads: number[] = [];
    for (const l of lengths) {
      let at = loads.findIndex((b) => b + l <= capacity);
      if (at >= 0) loads[at]! += l;
      else at = loads.push(l) - 1;
      assert.equal(fast.place(l), at, `seed ${seed}`);
    }
    assert.deepEqual(fast.loads, loads);
    most = Math.max(most, loads.length);
  }
  assert.ok(most > 256, `at most ${most} bins`);
});
