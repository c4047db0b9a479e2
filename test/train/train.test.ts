// Training across real rank workers (src/train): learning, determinism, rank-count invariance,
// resume, and the replica check. Runs under Node and Deno (npm test runs both).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildLayout } from '../../src/core/samplers/index.ts';
import { WorldFailure } from '../../src/ranks/world.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/train/checkpoint.ts';
import { DEFAULT_TRAIN, layoutConfigOf } from '../../src/train/config.ts';
import { lastMean, randomFraction, runTrain, type Metrics } from './helpers.ts';

const small = { ranks: 2, batch: 16, k: 4, sampler: 'trl', steps: 20 } as const;

test('the dense task with the default settings (8 ranks) reaches ≥ 95% of the optimum', async () => {
  const r = await runTrain({});
  assert.equal(r.plain.length, DEFAULT_TRAIN.steps);
  assert.ok(lastMean(r.plain) >= 0.95, `last 10 steps at ${lastMean(r.plain)}`);
});

test('the sparse task improves over its first steps', async () => {
  const r = await runTrain({ ...small, reward: 'sparse', steps: 30 });
  const first = r.plain.slice(0, 5).reduce((s, m) => s + m.optimumFraction, 0) / 5;
  assert.ok(lastMean(r.plain, 5) > first + 0.1, `first ${first}, last ${lastMean(r.plain, 5)}`);
  // Sampled 0/1 correctness makes tied groups (zero-std, advantage 0) common.
  assert.ok(r.plain.some((m) => m.zeroStdFraction > 0));
});

for (const over of [
  { advantage: 'flow-grpo' },
  { advantage: 'trl-group' },
  { advantage: 'trl-batch' },
  { advantage: 'trl-none' },
  { advantage: 'verl' },
  { advantage: 'dance' },
  { advantage: 'flow-grpo-prompt-std' },
  { advantage: 'verl-no-std' },
  { advantage: 'dance-nogroup' },
  { loss: 'pairwise' },
] as const) {
  test(`${JSON.stringify(over)} beats the random policy`, async () => {
    const random = randomFraction();
    const r = await runTrain({ ...small, ...over });
    assert.ok(lastMean(r.plain, 5) > random + 0.05, `last 5 steps at ${lastMean(r.plain, 5)}, random policy ${random}`);
  });
}

// The fast ops' SIMD kernel sums in float32 (src/ops/fast/simd.ts), the reference in float64:
// the same configurations are sampled, and every float metric and parameter agrees within the
// stated tolerance (relative 1e-4, as across rank counts). Without SIMD the fast ops give the
// reference's bits (test/ops/fast.test.ts).
test('the fast CPU ops (the default) train as the CPU reference ops do, within float32 tolerance', async () => {
  const near = (x: number, y: number, what: string) =>
    assert.ok(Math.abs(x - y) <= 1e-4 * Math.max(1, Math.abs(x), Math.abs(y)), `${what}: ${x} vs ${y}`);
  const compare = (a: Awaited<ReturnType<typeof runTrain>>, b: Awaited<ReturnType<typeof runTrain>>) => {
    a.plain.forEach((m, i) => {
      const n = b.plain[i]!;
      for (const key of ['rewardMean', 'rewardStd', 'optimumFraction', 'zeroStdFraction', 'loss', 'gradNorm'] as const)
        near(m[key], n[key], `step ${m.step} ${key}`);
    });
    a.final.params.forEach((p, i) => near(p, b.final.params[i]!, `parameter ${i}`));
  };
  const config = { ...small, steps: 4, loss: 'pairwise', beta: 0 } as const;
  compare(await runTrain(config), await runTrain(config, { cpuOps: 'reference' }));
  const grpo = { ...small, steps: 4, beta: 0.04 } as const;
  compare(await runTrain(grpo), await runTrain(grpo, { cpuOps: 'reference' }));
});

test('the same seed gives the same metrics bit for bit; another seed does not', async () => {
  const a = await runTrain({ ...small, steps: 4, beta: 0.04 });
  const b = await runTrain({ ...small, steps: 4, beta: 0.04 });
  assert.deepEqual(a.plain, b.plain);
  assert.deepEqual(a.final.params, b.final.params);
  assert.ok(a.plain.every((m) => m.kl !== null && m.kl >= 0));
  const c = await runTrain({ ...small, steps: 4, beta: 0.04, seed: 1 });
  assert.notDeepEqual(a.plain, c.plain);
});

// 8 ranks × 16 and 1 rank × 128 hold the same global batch in the same gathered order, and each
// sample's draws are keyed by its gathered position, so the runs sample the same configurations.
// What differs is float32 rounding: each rank sums its rows' gradients, then the allReduce sums
// 8 partial sums in float32. Stated tolerance: relative 1e-4 on every float metric over 8 steps.
test('8 ranks equal 1 rank with the same global batch, within float32 reduction tolerance', async () => {
  const eight = { ...DEFAULT_TRAIN, ranks: 8, batch: 16, steps: 8 };
  const one = { ...eight, ranks: 1, batch: 128 };
  const gathered = (c: typeof eight) =>
    buildLayout(layoutConfigOf(c, 8))
      .steps.map((s) => s.ranks.flat())
      .slice(0, 8);
  assert.deepEqual(gathered(eight), gathered(one), 'the sampler gives both the same gathered order');
  const a = await runTrain(eight);
  const b = await runTrain(one);
  const close = (x: number, y: number, what: string) =>
    assert.ok(Math.abs(x - y) <= 1e-4 * Math.max(1, Math.abs(x), Math.abs(y)), `${what}: ${x} vs ${y}`);
  a.plain.forEach((m, i) => {
    const n = b.plain[i]!;
    for (const key of ['rewardMean', 'rewardStd', 'optimumFraction', 'zeroStdFraction', 'loss', 'gradNorm'] as const)
      close(m[key], n[key], `step ${m.step} ${key}`);
    for (const h of Object.keys(m.entropy) as (keyof Metrics['entropy'])[])
      close(m.entropy[h], n.entropy[h], `step ${m.step} entropy ${h}`);
  });
  // Not trivially equal: the reduction order does change the bits.
  assert.notDeepEqual(a.final.params, b.final.params);
});

test('resuming from a checkpoint continues the uninterrupted run exactly', async () => {
  const config = { ...small, steps: 8 };
  const whole = await runTrain(config);
  let done = 0;
  const first = await runTrain(config, { shouldStop: () => done >= 3, onStep: () => done++, stepsPerCall: 1 });
  assert.equal(first.stopped, true);
  assert.equal(first.final.step, 3);
  // Through the checkpoint file format, as `--resume` reads it.
  const file = JSON.parse(JSON.stringify(encodeCheckpoint(first.final, DEFAULT_TRAIN.seed)));
  const state = decodeCheckpoint(file, first.final.params.length, 'checkpoint.json');
  const rest = await runTrain(config, { resume: state });
  assert.deepEqual([...first.plain, ...rest.plain], whole.plain);
  assert.deepEqual(rest.final.params, whole.final.params);
});

test('replicas that diverge are an error naming the ranks', async () => {
  await assert.rejects(runTrain({ ...small, ranks: 3, steps: 3, checksumEvery: 1 }, { divergeRank: 1 }), (err: unknown) => {
    assert.ok(err instanceof WorldFailure);
    assert.match(err.message, /parameters diverged across ranks after step 1/);
    assert.match(err.message, /ranks 0, 2: [0-9a-f]{8}; rank 1: [0-9a-f]{8}/);
    return true;
  });
});
