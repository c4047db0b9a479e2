// prime-rl's _refine_by_swapping as prime-rl writes it (src/prime_rl/trainer/batch.py @ 559b447: every swap of
// every pair of parts scored on a copy of all the loads), kept here as the reference for the home's fast
// refineBySwapping (src/core/frameworks/prime-rl/partition.ts), which must choose the same swap each round:
// the two agree on many seeded weight sets, ties and equal weights included. golden-prime-rl-layout.json
// (prime-rl.test.ts) checks both against prime-rl's own code on fixture-sized inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { karmarkarKarp, refineBySwapping } from '../../../src/core/frameworks/prime-rl/partition.ts';
import { Mt19937, randint } from '../../../src/core/rng/index.ts';

/** _refine_by_swapping, line for line. */
function refineAsWritten(weights: readonly number[], partitions: readonly number[][]): number[][] {
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

test('refineBySwapping chooses the swaps prime-rl’s loop chooses (400 seeded cases, from KK and from arbitrary starts)', () => {
  let swapped = 0;
  for (let seed = 0; seed < 400; seed++) {
    const rng = new Mt19937(seed);
    const [partsDraw, perDraw, highDraw, startDraw] = Array.from(randint(rng, 0, 1000, 4));
    const parts = 1 + (partsDraw! % 9);
    const per = 1 + (perDraw! % 6);
    // Few distinct weights in some cases, so equal loads and tied scores are common.
    const high = [3, 10, 1000, 20000][highDraw! % 4]!;
    const weights = Array.from(randint(rng, 1, high + 1, parts * per));
    const start =
      startDraw! % 2 === 0
        ? karmarkarKarp(weights, parts)
        : Array.from({ length: parts }, (_, p) => Array.from({ length: per }, (_, j) => p * per + j));
    const expected = refineAsWritten(weights, start);
    assert.deepEqual(refineBySwapping(weights, start), expected, `seed ${seed}`);
    if (JSON.stringify(expected) !== JSON.stringify(start)) swapped++;
  }
  assert.ok(swapped > 100, `only ${swapped} cases made a swap`);
});
