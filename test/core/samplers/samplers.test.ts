// Each sampler on many random valid configurations: copies per prompt, per-rank sizes,
// determinism, epochs that differ, and agreement with a literal transcription of the framework code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Layout, LayoutConfig, SamplerName } from '../../../src/core/layout/types.ts';
import { Mt19937, randperm } from '../../../src/core/rng/index.ts';
import {
  buildLayout,
  checkGivenSettings,
  defaultConfig,
  distributedSamplerIndices,
  samplerNames,
  validateConfig,
  withSamplerDefaults,
} from '../../../src/core/samplers/index.ts';

/** Random valid configurations for `sampler`, from a fixed test seed. */
function randomConfigs(sampler: SamplerName, count: number): LayoutConfig[] {
  const g = new Mt19937(sampler.length * 1000 + 17);
  const pick = (lo: number, hi: number) => lo + (g.random() % (hi - lo + 1));
  const out: LayoutConfig[] = [];
  while (out.length < count) {
    const ranks = pick(1, 8);
    let k = pick(1, 8);
    let batch = pick(1, 6);
    if (sampler === 'flow-grpo') batch = pick(1, 3) * (k / gcd(k, ranks));
    if (sampler === 'trl') {
      k = pick(2, 8);
      batch = pick(1, 3) * (k / gcd(k, ranks));
    }
    if (sampler === 'contiguous' || sampler === 'dance-grpo') batch = k * pick(1, 3);
    if (sampler === 'group-distributed') {
      k = ranks * pick(1, 3);
      batch = pick(1, 3) * (k / ranks);
    }
    const config: LayoutConfig = {
      sampler,
      ranks,
      batch,
      k,
      batchesPerEpoch: pick(1, 4),
      epochs: pick(1, 3),
      datasetSize: pick(8, 120),
      seed: pick(0, 1000) - 500,
      stepsPerGeneration: sampler === 'trl' ? pick(1, 3) : 1,
      numIterations: sampler === 'trl' ? pick(1, 2) : 1,
      gradientAccumulationSteps: pick(1, 3),
      // The sampler classes on their own: the loop reads them directly (golden-flow-grpo-loader.test.ts checks the loader).
      numWorkers: 0,
      prefetchFactor: 2,
      acceleratePrepare: 0,
    };
    if (validateConfig(config) === null) out.push(config);
  }
  return out;
}
function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function counts(ids: number[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return m;
}

function checkShape(layout: Layout, perRank: number) {
  const { config } = layout;
  assert.equal(layout.steps.length, config.epochs * config.batchesPerEpoch);
  layout.steps.forEach((s, i) => {
    assert.equal(s.epoch, Math.floor(i / config.batchesPerEpoch));
    assert.equal(s.step, i % config.batchesPerEpoch);
    assert.equal(s.ranks.length, config.ranks);
    for (const slots of s.ranks) {
      assert.equal(slots.length, perRank);
      for (const id of slots) assert.ok(Number.isInteger(id) && id >= 0 && id < config.datasetSize);
    }
  });
}

const N = 40;

test('flow-grpo: every prompt of a step exactly k times, m distinct, equal to a literal transcription', () => {
  for (const c of randomConfigs('flow-grpo', N)) {
    const layout = buildLayout(c);
    checkShape(layout, c.batch);
    const m = (c.ranks * c.batch) / c.k;
    layout.steps.forEach((s, i) => {
      const cnt = counts(s.ranks.flat());
      assert.equal(cnt.size, m);
      for (const n of cnt.values()) assert.equal(n, c.k);
      // flow_grpo: g.manual_seed(seed + epoch); indices = randperm(len)[:m]; repeated; shuffled by a second randperm.
      const g = new Mt19937(c.seed + i);
      const indices = Array.from(randperm(c.datasetSize, g)).slice(0, m);
      const repeated = indices.flatMap((x) => Array<number>(c.k).fill(x));
      const shuffled = Array.from(randperm(repeated.length, g), (j) => repeated[j]!);
      s.ranks.forEach((slots, r) => assert.deepEqual(slots, shuffled.slice(r * c.batch, (r + 1) * c.batch)));
    });
  }
});

test('flow-grpo-lcm: each prompt of an epoch exactly k times even when k does not divide ranks×batch', () => {
  let nonDividing = 0;
  for (const c of randomConfigs('flow-grpo-lcm', N)) {
    const layout = buildLayout(c);
    const eff = layout.config;
    checkShape(layout, c.batch);
    assert.ok(eff.batchesPerEpoch >= c.batchesPerEpoch);
    if ((c.ranks * c.batch) % c.k !== 0) nonDividing++;
    for (let e = 0; e < eff.epochs; e++) {
      const ids = layout.steps.filter((s) => s.epoch === e).flatMap((s) => s.ranks.flat());
      for (const n of counts(ids).values()) assert.equal(n, c.k);
      assert.equal(ids.length % (c.ranks * c.batch), 0);
    }
  }
  assert.ok(nonDividing > 5, 'the random configurations include k not dividing ranks×batch');
});

test('flow-grpo-lcm equals a literal transcription of the one-permutation-per-epoch sampler', () => {
  for (const c of randomConfigs('flow-grpo-lcm', 20)) {
    const layout = buildLayout(c);
    const W = c.ranks;
    const B = c.batch;
    const step = (W * B) / gcd(c.k, W * B);
    const m = Math.ceil(Math.ceil((c.batchesPerEpoch * W * B) / c.k) / step) * step;
    assert.equal(layout.config.batchesPerEpoch, (m * c.k) / (W * B));
    for (let e = 0; e < c.epochs; e++) {
      const g = new Mt19937(c.seed + e);
      const indices = Array.from(randperm(c.datasetSize, g)).slice(0, m);
      const repeated = indices.flatMap((x) => Array<number>(c.k).fill(x));
      const shuffled = Array.from(randperm(repeated.length, g), (j) => repeated[j]!);
      layout.steps
        .filter((s) => s.epoch === e)
        .forEach((s) => {
          s.ranks.forEach((slots, r) => {
            const start = s.step * W * B + r * B;
            assert.deepEqual(slots, shuffled.slice(start, start + B));
          });
        });
    }
  }
});

test('trl: groups contiguous within each generation batch, ranks take contiguous blocks, stream continues across epochs', () => {
  for (const c of randomConfigs('trl', N)) {
    const layout = buildLayout(c);
    const perRank = c.batch * c.stepsPerGeneration;
    checkShape(layout, perRank);
    const P = (perRank * c.ranks) / c.k;
    assert.equal(layout.config.batchesPerEpoch, Math.floor(c.datasetSize / P));
    // Transcription: one generator for the run; each epoch a randperm cut into chunks of P.
    const g = new Mt19937(c.seed);
    for (let e = 0; e < c.epochs; e++) {
      const perm = Array.from(randperm(c.datasetSize, g));
      layout.steps
        .filter((s) => s.epoch === e)
        .forEach((s) => {
          const chunk = perm.slice(s.step * P, (s.step + 1) * P);
          assert.deepEqual(
            s.ranks.flat(),
            chunk.flatMap((x) => Array<number>(c.k).fill(x)),
          );
        });
    }
  }
});

test('contiguous: every prompt k times in a row on one rank; ranks follow DistributedSampler', () => {
  for (const c of randomConfigs('contiguous', N)) {
    const layout = buildLayout(c);
    checkShape(layout, c.batch);
    const q = c.batch / c.k;
    for (const s of layout.steps) {
      s.ranks.forEach((slots, r) => {
        for (let j = 0; j < slots.length; j++) assert.equal(slots[j], slots[j - (j % c.k)]);
        const mine = distributedSamplerIndices(c.datasetSize, c.ranks, r, c.seed, s.epoch);
        assert.deepEqual(
          slots.filter((_, j) => j % c.k === 0),
          mine.slice(s.step * q, (s.step + 1) * q),
        );
      });
    }
  }
});

test('DistributedSampler pads by repeating from the front and strides by rank', () => {
  const order = Array.from(randperm(5, new Mt19937(10 + 2)));
  const padded = [...order, order[0]!, order[1]!, order[2]!];
  for (let r = 0; r < 4; r++) assert.deepEqual(distributedSamplerIndices(5, 4, r, 10, 2), [padded[r]!, padded[r + 4]!]);
});

test('group-distributed: all ranks identical, k/ranks copies each, steps group-complete', () => {
  for (const c of randomConfigs('group-distributed', N)) {
    const layout = buildLayout(c);
    checkShape(layout, c.batch);
    for (const s of layout.steps) {
      for (const slots of s.ranks) assert.deepEqual(slots, s.ranks[0]);
      for (const n of counts(s.ranks.flat()).values()) assert.equal(n, c.k);
    }
  }
});

test('every sampler: same seed same layout, another seed or epoch a different one', () => {
  const base: Record<SamplerName, Partial<LayoutConfig>> = {
    // flow_grpo's sampler read directly; under the shipped loader seed-000's epoch 1 repeats epoch 0 (tested below).
    'flow-grpo': { numWorkers: 0, acceleratePrepare: 0 },
    'flow-grpo-lcm': { k: 3 },
    trl: { batchesPerEpoch: 1 },
    contiguous: { batch: 4 },
    'dance-grpo': { batch: 4 },
    'group-distributed': { k: 8 },
    verl: {},
  };
  for (const sampler of samplerNames) {
    const c: LayoutConfig = { ...defaultConfig, sampler, datasetSize: 200, epochs: 2, ...base[sampler] };
    const a = buildLayout(c);
    assert.deepEqual(buildLayout({ ...c }), a, sampler);
    assert.notDeepEqual(buildLayout({ ...c, seed: c.seed + 1 }).steps, a.steps, sampler);
    const epoch0 = a.steps.filter((s) => s.epoch === 0).map((s) => s.ranks);
    const epoch1 = a.steps.filter((s) => s.epoch === 1).map((s) => s.ranks);
    // DanceGRPO calls set_epoch(0) only: every pass repeats pass 0's order.
    if (sampler === 'dance-grpo') assert.deepEqual(epoch0, epoch1, `${sampler}: passes repeat`);
    else assert.notDeepEqual(epoch0, epoch1, `${sampler}: epochs differ`);
  }
});

test('seed-000 with seed 42, idealised loop: the first batch is randperm(32, seed 42)[:4], each 4 times', () => {
  const layout = buildLayout({ ...defaultConfig, numWorkers: 0, acceleratePrepare: 0 });
  const first4 = Array.from(randperm(32, new Mt19937(42))).slice(0, 4);
  assert.deepEqual(
    [...new Set(layout.steps[0]!.ranks.flat())].sort((a, b) => a - b),
    [...first4].sort((a, b) => a - b),
  );
  // The second batch is reseeded with 42 + 1 (set_epoch(1)).
  const second4 = Array.from(randperm(32, new Mt19937(43))).slice(0, 4);
  assert.deepEqual(
    [...new Set(layout.steps[1]!.ranks.flat())].sort((a, b) => a - b),
    [...second4].sort((a, b) => a - b),
  );
});

test('seed-000 as the published script runs it: steps 0–3 receive set_epoch(0)’s batch, so epoch 1 repeats epoch 0', () => {
  const shipped = buildLayout({ ...defaultConfig, epochs: 3 });
  const ideal = buildLayout({ ...defaultConfig, epochs: 3, numWorkers: 0, acceleratePrepare: 0 });
  for (let s = 0; s < 4; s++) assert.deepEqual(shipped.steps[s]!.ranks, ideal.steps[0]!.ranks);
  assert.deepEqual(shipped.steps[4]!.ranks, ideal.steps[1]!.ranks);
  assert.deepEqual(shipped.steps[5]!.ranks, ideal.steps[2]!.ranks);
});

test('the loader settings: refused by samplers that do not model them, taken from the sampler chosen', () => {
  assert.match(checkGivenSettings('trl', ['numWorkers'])!.message, /--sampler trl does not use --num-workers: .*flow_grpo/);
  assert.equal(checkGivenSettings('flow-grpo', ['numWorkers', 'prefetchFactor', 'acceleratePrepare']), null);
  assert.equal(withSamplerDefaults({ ...defaultConfig, sampler: 'flow-grpo-lcm' }).acceleratePrepare, 0);
  assert.equal(withSamplerDefaults({ ...defaultConfig, sampler: 'flow-grpo-lcm' }, ['acceleratePrepare']).acceleratePrepare, 1);
  const old = { ...defaultConfig } as Partial<LayoutConfig>;
  delete old.numWorkers;
  delete old.acceleratePrepare;
  assert.deepEqual(
    buildLayout(old as LayoutConfig).steps,
    buildLayout(defaultConfig).steps,
    'a config without them gets the published loader',
  );
});
