// randperm for n in the thousands and rand at full precision against test/fixtures/golden-rng.json
// (torch 2.13 CPU, written by scripts/golden/make_fixtures.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mt19937, rand, randperm } from '../../../src/core/rng/index.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Golden {
  randperm: { seed: number; n: number; randperm: number[] }[];
  rand: { seed: number; dtype: 'float32' | 'float64'; values: number[] }[];
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
