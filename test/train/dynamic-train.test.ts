import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Policy } from '../../src/core/dynamic/types.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { samplerNames } from '../../src/core/samplers/index.ts';
import { checkTrainConfig, DEFAULT_TRAIN, type TrainConfig } from '../../src/train/config.ts';
import type { DynamicStepMetrics } from '../../src/train/dynamic.ts';
import type { StepRecord } from '../../src/train/run.ts';
import { WorldFailure } from '../../src/ranks/world.ts';
import { runTrain } from './helpers.ts';

// Dynamic sampling inside training (src/train/dynamic.ts): real rank workers run the protocol
// of src/core/dynamic every step. The sparse reward filtered by its correctness bit with one
// resample leaves many steps short, so every policy's shortage path runs. checksumEvery 1 makes
// every step compare the replicas' parameters: identical decisions on every rank, or an error.
const sparse: Partial<TrainConfig> = {
  reward: 'sparse',
  filterMetric: 'accuracy',
  maxResampleTimes: 1,
  batch: 8,
  k: 4,
  sampler: 'contiguous',
  advantage: 'verl',
  checksumEvery: 1,
};

/** The metric invariants every policy keeps; returns the step's dynamic metrics. */
function checkStep(m: StepRecord, c: TrainConfig): DynamicStepMetrics {
  const d = m.dynamic!;
  const what = `step ${m.step} (${c.dynamicSampling})`;
  assert.ok(d, `${what}: dynamic metrics present`);
  assert.equal(d.target, c.ranks * c.batch, `${what}: target`);
  assert.equal(d.validAfter.length, d.resamples + 1, `${what}: one pool size per draw`);
  for (let i = 1; i < d.validAfter.length; i++) assert.ok(d.validAfter[i]! >= d.validAfter[i - 1]!, `${what}: valid after ≥ before`);
  const pool = d.validAfter.at(-1)!;
  assert.equal(d.shortage, Math.max(0, d.target - pool), `${what}: shortage`);
  assert.equal(d.draws, d.resamples + 1, `${what}: layout batches used`);
  assert.ok(d.extraGenerations >= 0, `${what}: extra generations`);
  assert.equal(d.rows.length, c.ranks);
  assert.equal(typeof m.checksum, 'number', `${what}: replicas compared`);
  const trained = d.rows.reduce((a, b) => a + b, 0);
  if (c.dynamicSampling !== 'stream') {
    assert.equal(d.discardedSurplus, Math.max(0, pool - d.target), `${what}: surplus`);
    assert.equal(d.extraGenerations, d.resamples * d.target, `${what}: every resample is a whole global batch`);
  }
  if (d.shortage === 0) assert.deepEqual(d.rows, new Array(c.ranks).fill(c.batch), `${what}: full pool, equal slices`);
  switch (c.dynamicSampling) {
    case 'fallback':
      assert.equal(trained, d.target);
      if (d.shortage > 0) assert.ok(d.invalidGroupsKept > 0, `${what}: short → flat groups of the original batch kept`);
      break;
    case 'pad':
      assert.equal(trained, d.target);
      assert.equal(d.duplicated, d.shortage > 0 && pool > 0 ? d.shortage : 0, `${what}: duplicates fill the shortage`);
      break;
    case 'rebalance':
      assert.equal(trained, Math.min(pool, d.target), `${what}: trains on the pool`);
      assert.ok(Math.max(...d.rows) - Math.min(...d.rows) <= 1, `${what}: sizes differ by at most one`);
      assert.ok(
        d.rows.every((n, r) => r === 0 || n <= d.rows[r - 1]!),
        `${what}: the first ranks get the extra`,
      );
      break;
    case 'stream':
      assert.equal(d.shortage, 0, `${what}: stream fills every slot`);
      break;
  }
  if (c.dynamicSampling !== 'pad') assert.equal(d.duplicated, 0);
  if (c.dynamicSampling !== 'fallback' && c.dynamicSampling !== 'pad') assert.equal(d.invalidGroupsKept, 0);
  return d;
}

for (const [policy, ranks, over] of [
  ['fallback', 4],
  ['pad', 3],
  ['rebalance', 4],
  ['stream', 2],
  // NeMo RL raises too; enough batches allowed that this run does not.
  ['raise-nemo', 2, { maxResampleTimes: 4 }],
] as [Policy, number, Partial<TrainConfig>?][]) {
  test(`--dynamic-sampling ${policy} trains on ${ranks} ranks with the sparse reward; metrics consistent, replicas equal`, async () => {
    const c: TrainConfig = { ...DEFAULT_TRAIN, ...sparse, ranks, steps: 4, dynamicSampling: policy, ...over };
    const { metrics, final } = await runTrain(c);
    assert.equal(metrics.length, 4);
    const ds = metrics.map((m) => checkStep(m, c));
    // The shared counter: each step starts where the previous step's draws ended.
    let at = 0;
    metrics.forEach((m, i) => {
      assert.equal(m.layoutStep, at, `step ${i + 1} starts at layout step ${at}`);
      at += ds[i]!.draws;
    });
    assert.equal(final.layoutStep, at, 'the checkpoint carries the counter');
    assert.ok(
      ds.some((d) => d.resamples > 0),
      'some step resampled',
    );
    if (policy === 'fallback' || policy === 'pad' || policy === 'rebalance')
      assert.ok(
        ds.some((d) => d.shortage > 0),
        'some step ended short (the policy acted)',
      );
    assert.ok(metrics.every((m) => Number.isFinite(m.loss) && Number.isFinite(m.gradNorm) && m.gradNorm > 0));
    assert.notDeepEqual(final.params, (await runTrain({ ...c, steps: 1 }, {})).final.params, 'parameters keep moving');
  });
}

test('--dynamic-sampling naive fails with the rank world’s shape mismatch (seed-002)', async () => {
  await assert.rejects(runTrain({ ...sparse, ranks: 4, steps: 4, dynamicSampling: 'naive' }), (err: unknown) => {
    assert.ok(err instanceof WorldFailure);
    assert.match(err.message, /ShapeMismatchError/);
    assert.match(err.message, /shape mismatch: ranks .* sent \[8\]; ranks .* sent \[\d\]/);
    return true;
  });
});

test("--dynamic-sampling raise fails with verl's message after max_num_gen_batches", async () => {
  await assert.rejects(runTrain({ ...sparse, ranks: 2, steps: 4, dynamicSampling: 'raise' }), (err: unknown) => {
    assert.ok(err instanceof WorldFailure);
    assert.match(
      err.message,
      /ValueError: num_gen_batches=2 >= max_num_gen_batches=2\. Generated too many\. Please check if your data are too difficult\./,
    );
    return true;
  });
});

test('rows from other ranks stay on their origin device without the fix (seed-004 inside training)', async () => {
  const c = { ...sparse, ranks: 4, steps: 2, dynamicSampling: 'rebalance' as const };
  await assert.rejects(runTrain(c, { deviceFix: false }), (err: unknown) => {
    assert.ok(err instanceof WorldFailure);
    assert.match(err.message, /tensor\.to\(rank\.device\)/);
    return true;
  });
  assert.equal((await runTrain(c)).metrics.length, 2, 'the same run trains with the fix');
});

test('every sampler trains with dynamic sampling (rebalance, 2 ranks)', async () => {
  for (const sampler of samplerNames) {
    const c: TrainConfig = { ...DEFAULT_TRAIN, ...sparse, sampler, ranks: 2, steps: 2, dynamicSampling: 'rebalance' };
    const { metrics } = await runTrain(c);
    assert.equal(metrics.length, 2, sampler);
    for (const m of metrics) checkStep(m, c);
  }
});

test('resuming a dynamic-sampling run continues the uninterrupted run exactly (the layout counter is restored)', async () => {
  const c = { ...sparse, ranks: 2, steps: 4, dynamicSampling: 'fallback' as const };
  const whole = await runTrain(c);
  const half = await runTrain({ ...c, steps: 2 });
  assert.ok(half.final.layoutStep! > 2, 'resamples moved the counter ahead of the step');
  const rest = await runTrain(c, { resume: half.final });
  assert.deepEqual([...half.plain, ...rest.plain], whole.plain);
});

test('combinations dynamic sampling cannot train are ConfigErrors naming the fix', () => {
  const bad: [Partial<TrainConfig>, RegExp][] = [
    [{ dynamicSampling: 'stream', sampler: 'flow-grpo', batch: 8, k: 4 }, /stream needs every group on one rank.*--sampler trl/],
    [{ dynamicSampling: 'stream', sampler: 'trl', batch: 6, k: 4 }, /multiple of k=4/],
    [{ dynamicSampling: 'fallback', loss: 'pairwise' }, /--loss pairwise/],
    [{ dynamicSampling: 'rebalance', advantage: 'dance', batch: 8, k: 4 }, /--advantage dance/],
    [{ dynamicSampling: 'sometimes' as Policy }, /--dynamic-sampling must be one of/],
    [{ dynamicSampling: 'pad', maxResampleTimes: -1 }, /--max-resample-times/],
  ];
  for (const [over, message] of bad)
    assert.throws(
      () => checkTrainConfig({ ...DEFAULT_TRAIN, ranks: 2, ...over }),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
});
