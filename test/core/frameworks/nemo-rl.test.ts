// The nemo-rl home against NeMo RL's own code at 7ea279a: prompt order, dispatch and micro-batching
// (test/fixtures/golden-nemo-rl-layout.json, scripts/golden/nemo-rl_layout.py) and GRPO advantages
// (golden-nemo-rl-advantages.json, scripts/golden/nemo-rl_advantages.py); the shipped 1B config's keys.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { home } from '../../../src/core/frameworks/nemo-rl/index.ts';
import { samplerSeed } from '../../../src/core/frameworks/nemo-rl/order.ts';
import { pyFixed } from '../../../src/core/frameworks/nemo-rl/resolve.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings, PackerDef } from '../../../src/core/frameworks/types.ts';
import { ConfigError } from '../../../src/core/errors.ts';

const read = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');

interface Case {
  datasetSize: number;
  prompts: number;
  k: number;
  seed: number;
  shuffle: boolean;
  numWorkers: number;
  epochs: number;
  maxNumSteps: number;
  dp: number;
  gbs: number;
  mbs: number;
  mode: 'plain' | 'dynamic' | 'packing';
  trainMbTokens: number;
  seqRound: number;
  padMultiple: number;
  algorithm: string;
  microbatchOrder: string | null;
}
interface Step {
  epoch: number;
  step: number;
  prompts: number[];
  seqlens: number[];
  ranks: number[][];
  sources: number[][];
  microBatches: number[][][];
}
const layouts = JSON.parse(read('golden-nemo-rl-layout.json')) as {
  source: { 'nemo-rl': string; transcribed: string };
  syntheticSeqlens: { low: number; high: number };
  firstInt64AfterSeed42: string;
  layouts: { config: Case; steps: Step[]; error: string | null; 'len(dataloader)': number | null }[];
};
const advantages = JSON.parse(read('golden-nemo-rl-advantages.json')) as {
  source: { 'nemo-rl': string };
  cases: { rewards: number[]; promptIds: number[]; k: number; 'nemo-rl': (number | null)[]; 'nemo-rl-no-loo': (number | null)[] }[];
};

function settingsOf(c: Case): FrameworkSettings {
  return {
    ...defaultSettings(home.keys),
    'train-batch-size': c.prompts,
    k: c.k,
    seed: c.seed,
    shuffle: c.shuffle,
    'dataloader-num-workers': c.numWorkers,
    'dataset-size': c.datasetSize,
    epochs: c.epochs,
    'max-num-steps': c.maxNumSteps,
    ranks: c.dp,
    'train-global-batch-size': c.gbs,
    'train-micro-batch-size': c.mbs,
    'dynamic-batching': c.mode === 'dynamic',
    'dynamic-batching-train-mb-tokens': c.trainMbTokens,
    'dynamic-batching-sequence-length-round': c.seqRound,
    'sequence-packing': c.mode === 'packing',
    'sequence-packing-train-mb-tokens': c.trainMbTokens,
    'sequence-packing-algorithm': c.algorithm,
    'sequence-packing-microbatch-order': c.microbatchOrder ?? 'packer',
    'make-sequence-length-divisible-by': c.padMultiple,
  };
}

const label = (c: Case) => `${c.mode} N=${c.datasetSize} P=${c.prompts} k=${c.k} W=${c.dp} gbs=${c.gbs} seed=${c.seed} nw=${c.numWorkers}`;

test('the fixtures come from NeMo RL 7ea279a; the synthetic lengths are the sandbox convention', () => {
  assert.equal(layouts.source['nemo-rl'], '7ea279abfbeb698b092856d0dab61e7cf39bc909');
  assert.equal(advantages.source['nemo-rl'], '7ea279abfbeb698b092856d0dab61e7cf39bc909');
  assert.equal(home.pinned.commit, layouts.source['nemo-rl']);
  assert.deepEqual(layouts.syntheticSeqlens, { low: 64, high: 1025 });
  assert.match(home.checkedBy[0]!, /golden-nemo-rl-layout\.json: exec/);
});

test("the loader's sampler seed is torch's first int64 after manual_seed(42)", () => {
  assert.equal(samplerSeed(42).toString(), layouts.firstInt64AfterSeed42);
});

test(`layout = NeMo RL's loader, shard_by_batch_size and worker micro-batches on ${layouts.layouts.length} runs`, () => {
  let errors = 0;
  for (const { config: c, steps, error } of layouts.layouts) {
    const settings = settingsOf(c);
    if (error) {
      errors++;
      assert.throws(
        () => home.layout(settings),
        (e: unknown) => e instanceof ConfigError && e.message === `${error} (NeMo RL 7ea279a)`,
        `${label(c)}: ${error}`,
      );
      continue;
    }
    const got = home.layout(settings);
    assert.equal(got.steps.length, steps.length, label(c));
    for (const [i, want] of steps.entries()) {
      const step = got.steps[i]!;
      const where = `${label(c)} step ${i}`;
      assert.deepEqual([step.epoch, step.step], [want.epoch, want.step], where);
      assert.deepEqual(step.prompts, want.prompts, where);
      assert.deepEqual(step.seqlens, want.seqlens, where);
      assert.deepEqual(step.ranks, want.ranks, where);
      assert.deepEqual(step.sources, want.sources, where);
      const packed = (home.packing as PackerDef).pack(want.seqlens, settings);
      assert.deepEqual(packed.ranks, want.microBatches, where);
    }
  }
  assert.ok(errors >= 10);
});

test('len(dataloader) and the step count follow drop_last and max_num_steps', () => {
  for (const { config: c, steps, error, 'len(dataloader)': len } of layouts.layouts) {
    if (error) continue;
    const counts = home.layout(settingsOf(c)).counts;
    assert.equal(counts.find((x) => x.name === 'len(dataloader)')!.value, len, label(c));
    assert.equal(counts.find((x) => x.name === 'training steps')!.value, steps.length, label(c));
  }
});

test('measured token counts are used in turn, and too few are refused', () => {
  const settings = { ...defaultSettings(home.keys), 'dataset-size': 8, 'train-batch-size': 2, k: 2, ranks: 2 };
  const seqlens = Array.from({ length: 16 }, (_, i) => 100 + i * 37);
  const got = home.layout(settings, seqlens);
  assert.deepEqual(
    got.steps.map((s) => s.seqlens),
    [0, 1, 2, 3].map((s) => seqlens.slice(s * 4, s * 4 + 4)),
  );
  assert.throws(() => home.layout(settings, seqlens.slice(0, 15)), ConfigError);
});

test("NeMo RL's setup errors, in its words", () => {
  const base = defaultSettings(home.keys);
  assert.throws(() => home.layout({ ...base, ranks: 3, 'tensor-parallel-size': 2 }), {
    message:
      'ValueError: World size (3) must be divisible by PP * CP * TP (2). The data parallel size (DP = world_size / (PP * CP * TP)) must be a ' +
      'positive integer. ' +
      'Current DP would be 3/2 = 1.500000, which is not an integer. Please adjust your cluster size or parallelism parameters. (NeMo RL 7ea279a)',
  });
  assert.throws(
    () => home.layout({ ...base, ranks: 1, 'tensor-parallel-size': 16 }),
    /World size \(1\) is insufficient .* DP = 1\/16 = 0\.062, but DP must be ≥ 1/,
  );
  assert.throws(() => home.layout({ ...base, 'dynamic-batching': true }), /Dynamic Batching is exclusive of Sequence Packing/);
  assert.throws(() => home.layout({ ...base, 'sequence-packing-algorithm': 'first_fit_shuffle' }), /cannot be simulated/);
  assert.equal(pyFixed(0.0625, 3), '0.062');
  assert.equal(pyFixed(1.5, 6), '1.500000');
});

test('the data-parallel size is gpus_per_node × num_nodes / (TP × CP)', () => {
  const base = defaultSettings(home.keys);
  const run = home.layout({ ...base, ranks: 4, 'num-nodes': 2, 'tensor-parallel-size': 2, 'dataset-size': 64 });
  assert.equal(run.counts.find((c) => c.name === 'data_parallel_size')!.value, 4);
  assert.equal(run.steps[0]!.ranks.length, 4);
});

test(`advantages = GRPOAdvantageEstimator on ${advantages.cases.length} reward sets (both baselines)`, () => {
  assert.deepEqual(
    home.advantages.map((a) => a.scheme),
    ['nemo-rl', 'nemo-rl-no-loo'],
  );
  for (const def of home.advantages) {
    for (const [i, c] of advantages.cases.entries()) {
      const want = c[def.scheme as 'nemo-rl'];
      const got = def.compute({ rewards: c.rewards, promptIds: c.promptIds, k: c.k }).advantages;
      assert.equal(got.length, want.length);
      // Same float64 arithmetic (and float32 Bessel factor) in another summation order: equal to ~1e-15, except all-equal
      // groups, whose last-bit residue r − b (~1e-17) divided by a last-bit std + 1e-6 leaves up to ~3e-11.
      got.forEach((a, j) =>
        assert.ok(
          a !== null && want[j] !== null && Math.abs(a - want[j]!) <= 1e-10 * Math.max(1, Math.abs(want[j]!)),
          `${def.scheme} case ${i}[${j}]: ${a} vs ${want[j]}`,
        ),
      );
    }
  }
});

test("the shipped grpo_math_1B.yaml gives the run's settings, sequence packing on", () => {
  const text = read('configs/nemo-rl-grpo_math_1B.yaml');
  assert.match(text.split('\n')[0]!, /grpo_math_1B\.yaml @ 7ea279abfbeb698b092856d0dab61e7cf39bc909/);
  const { settings, ignored } = readConfig(home.keys, parse(text));
  assert.deepEqual(ignored, []);
  const expected: FrameworkSettings = { ...defaultSettings(home.keys), 'train-global-batch-size': 512 };
  assert.deepEqual(settings, expected);
  assert.equal(settings['sequence-packing'], true);
  assert.equal(settings['train-batch-size'], 32);
  assert.equal(settings.k, 16);
  assert.equal(settings['dataloader-num-workers'], 1);
  // 32 × 16 = 512 samples, one global batch; bins of 512 × 4 = 2048 tokens on one rank.
  const run = home.layout({ ...settings, 'dataset-size': 64 });
  assert.equal(run.steps.length, 2);
  assert.equal(run.counts.find((c) => c.name === 'global batches per step')!.value, 1);
  const packed = (home.packing as PackerDef).pack(run.steps[0]!.seqlens!, settings);
  for (const mb of packed.ranks[0]!) assert.ok(mb.reduce((s, i) => s + run.steps[0]!.seqlens![i]!, 0) <= 2048);
});
