// Every vector of the published PyTorch outputs (test/fixtures/torch-rng.json, copied from shared/golden).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mt19937, rand, randperm } from '../../../src/core/rng/index.ts';
import { repeatSamplerPass } from '../../../src/core/samplers/index.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Golden {
  randperm: { seed: number; n: number; randperm: number[]; source: string }[];
  rand_float32: { seed: number; values_4dp: number[] }[];
  mt19937_raw: { seed: number; first: number[]; output_10000?: number }[];
  trl_repeat_sampler: { mini_repeat_count: number; batch_size: number; repeat_count: number; seed: number; yields: number[] };
}
const golden = fixture<Golden>('torch-rng.json');

test('golden data has every section', () => {
  assert.equal(golden.randperm.length, 9);
  assert.equal(golden.rand_float32.length, 2);
  assert.equal(golden.mt19937_raw.length, 2);
});

for (const v of golden.randperm) {
  test(`randperm(${v.n}) with seed ${v.seed} matches PyTorch (${v.source.slice(0, 40)})`, () => {
    // JSON numbers above 2^53 would be rounded; every seed in the fixture is a safe integer.
    assert.ok(Number.isSafeInteger(v.seed));
    assert.deepEqual(Array.from(randperm(v.n, new Mt19937(v.seed))), v.randperm);
    assert.deepEqual(Array.from(randperm(v.n, new Mt19937(BigInt(v.seed)))), v.randperm);
  });
}

for (const v of golden.rand_float32) {
  test(`torch.rand float32 with seed ${v.seed} matches to 4 decimals`, () => {
    const values = rand(new Mt19937(v.seed), v.values_4dp.length, 'float32');
    assert.deepEqual(
      Array.from(values, (x) => Number(x.toFixed(4))),
      v.values_4dp,
    );
  });
}

for (const v of golden.mt19937_raw) {
  test(`MT19937 raw outputs for seed ${v.seed}`, () => {
    const g = new Mt19937(v.seed);
    assert.deepEqual(
      v.first.map(() => g.random()),
      v.first,
    );
    if (v.output_10000 !== undefined) {
      for (let i = v.first.length; i < 9999; i++) g.random();
      assert.equal(g.random(), v.output_10000);
    }
  });
}

test('TRL RepeatSampler example (a..g, mini_repeat_count=2, batch_size=3, repeat_count=4, seed=42)', () => {
  const t = golden.trl_repeat_sampler;
  const yields = repeatSamplerPass(7, t.mini_repeat_count, t.batch_size, t.repeat_count, new Mt19937(t.seed));
  assert.deepEqual(yields, t.yields);
});
