// randperm for n in the thousands, rand at full precision and randint against test/fixtures/golden-rng.json
// (torch 2.13 CPU, written by scripts/golden/make_fixtures.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mt19937, rand, randint, randperm } from '../../../src/core/rng/index.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Golden {
  randperm: { seed: number; n: number; randperm: number[] }[];
  rand: { seed: number; dtype: 'float32' | 'float64'; values: number[] }[];
  randint: { seed: number; randpermFirst: number; low: number; high: number; values: number[] }[];
}
const golden = fixture<Golden>('golden-rng.json');

for (const v of golden.randperm) {
  test(`randperm(${v.n}) with seed ${v.seed} equals torch's, element for element`, () => {
    assert.ok(v.n >= 1000);
    assert.deepEqual(Array.from(randperm(v.n, new Mt19937(v.seed))), v.randperm);
  });
}

for (const v of golden.rand) {
  test(`rand ${v.dtype} seed ${v.seed}: ${v.values.length} values bit-identical to torch's`, () => {
    // Exact equality: every float32 is exact in a double, and the JSON carries shortest round-trip decimals.
    assert.deepEqual(Array.from(rand(new Mt19937(v.seed), v.values.length, v.dtype)), v.values);
  });
}

for (const v of golden.randint) {
  test(`randint [${v.low}, ${v.high}) seed ${v.seed} after randperm(${v.randpermFirst}): ${v.values.length} values equal torch's`, () => {
    // The randperm first: randint must continue from the draws randperm consumed, as torch's generator does.
    const gen = new Mt19937(v.seed);
    randperm(v.randpermFirst, gen);
    assert.deepEqual(Array.from(randint(gen, v.low, v.high, v.values.length)), v.values);
  });
}
