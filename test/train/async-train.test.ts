// train --async: rows sampled by the policy versions the asynchronous simulation says generated them. Zero staleness
// is the synchronous run bit for bit; the same seed gives the same run; a step trains on other rows only from the
// first step with a lagging row; what train --async does not model is refused in one line. Runs under Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { asyncPlanOf, asyncRunOf, stepLag } from '../../src/train/async-plan.ts';
import { DEFAULT_TRAIN, type TrainConfig } from '../../src/train/config.ts';
import { trainConfigFrom, trainSettingTexts } from '../../src/train/settings.ts';
import { runTrain, type Metrics } from './helpers.ts';

const small: Partial<TrainConfig> = { ranks: 2, batch: 8, k: 4, sampler: 'contiguous', steps: 8, lr: 0.05 };

const bytes = (p: Float32Array) => Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('base64');
const withoutLag = (m: Metrics[]) => m.map(({ async: _, ...rest }) => rest);

test('zero staleness (areal 0, skyrl 0) reproduces the synchronous run bit for bit', async () => {
  const sync = await runTrain(small);
  for (const async of ['areal', 'skyrl']) {
    const run = await runTrain({ ...small, async, maxStaleness: 0 });
    assert.ok(run.plain.every((m) => m.async?.maxLag === 0));
    assert.deepEqual(withoutLag(run.plain), sync.plain, async);
    assert.equal(bytes(run.final.params), bytes(sync.final.params), async);
    assert.equal(run.async?.meanLag, 0);
  }
  // seed-003's loss (pairwise, which ranks each group across the ranks) likewise.
  const pairwise = { ...small, loss: 'pairwise', steps: 4 } as const;
  const want = await runTrain(pairwise);
  const got = await runTrain({ ...pairwise, async: 'areal', maxStaleness: 0 });
  assert.deepEqual(withoutLag(got.plain), want.plain);
  assert.equal(bytes(got.final.params), bytes(want.final.params));
});

test('with staleness: the synchronous run until the first lagging row, another run from there; the same seed, the same bytes', async () => {
  const config = { ...DEFAULT_TRAIN, ...small, async: 'areal', maxStaleness: 2 };
  const plan = asyncPlanOf(config, asyncRunOf(config));
  const first = plan.steps.findIndex((rows, t) => stepLag(rows, t).max > 0);
  assert.ok(first > 0 && plan.maxLag > 0, 'the plan lags somewhere, after a first on-policy step');
  // Some rank holds rows of two versions in one step (sampled in two runs and joined).
  assert.ok(plan.steps.some((rows) => rows.versions.some((v) => new Set(v).size > 1)));
  const sync = await runTrain(small);
  const a = await runTrain({ ...small, async: 'areal', maxStaleness: 2 });
  const b = await runTrain({ ...small, async: 'areal', maxStaleness: 2 });
  assert.deepEqual(a.plain, b.plain);
  assert.equal(bytes(a.final.params), bytes(b.final.params));
  // Steps before the first lagging row train the synchronous run's rows at its version…
  assert.deepEqual(withoutLag(a.plain.slice(0, first)), sync.plain.slice(0, first));
  // … and the ratio is 1 there (nothing clipped); the first lagging step trains other samples.
  for (const m of a.plain) if (m.async!.maxLag === 0) assert.equal(m.clipFraction, 0, `step ${m.step}`);
  assert.ok(a.plain[first]!.rewardMean !== sync.plain[first]!.rewardMean || a.plain[first]!.loss !== sync.plain[first]!.loss);
  // Each step's lag is the plan's.
  a.plain.forEach((m, t) => assert.equal(m.async?.meanLag, stepLag(plan.steps[t]!, t).mean));
  assert.ok(
    a.plain.some((m) => m.clipFraction > 0),
    'some stale token leaves the clip range',
  );
});

test("the plan's rows are the simulation's trained completions: their versions, their prompts' groups", () => {
  const config = { ...DEFAULT_TRAIN, ...small, async: 'prime-rl' };
  const sim = asyncRunOf(config);
  const plan = asyncPlanOf(config, sim);
  sim.steps.forEach((s, t) => {
    const want = s.samples.map((x) => x.version ?? x.versions![0]!).sort();
    assert.deepEqual(plan.steps[t]!.versions.flat().sort(), want, `step ${t}`);
    // The contiguous sampler's step s holds prompts in one block per group: prompt p of the simulation is a layout group.
    const groups = new Set(plan.steps[t]!.ids.flat());
    assert.equal(groups.size, s.samples.length / config.k);
  });
});

test('the settings: --async and --max-staleness read, written into the link, and their refusals', async () => {
  const get = (o: Record<string, string>) => (key: string) => o[key];
  const c = trainConfigFrom(get({ async: 'trl-async', 'max-staleness': '1' }));
  assert.equal(c.async, 'trl-async');
  assert.equal(c.maxStaleness, 1);
  assert.deepEqual(trainConfigFrom(get(Object.fromEntries(trainSettingTexts(c)))), c);
  const off = trainConfigFrom(get({}));
  assert.equal(off.async, null);
  assert.ok(!trainSettingTexts(off).some(([k]) => k === 'max-staleness'));
  const refused: [string[], RegExp][] = [
    [['--max-staleness', '2'], /--max-staleness goes with --async/],
    [['--async', 'areal', '--backend', 'webgpu'], /--backend cpu only/],
    [['--async', 'areal', '--gradient-accumulation-steps', '2'], /not modelled with micro-steps/],
    [['--async', 'areal', '--dynamic-sampling', 'pad'], /not modelled with --dynamic-sampling/],
    [['--async', 'slime', '--max-staleness', '1'], /no staleness bound/],
    [['--async', 'trl-async', '--max-staleness', '1.5'], /whole number/],
    [['--async', 'areal', '--ranks', '1', '--batch', '6', '--k', '4'], /whole groups/],
    [['--async', 'nope'], /async/],
  ];
  for (const [args, want] of refused) {
    const io = memoryIo();
    assert.equal(await main(['train', ...args], io), 2, args.join(' '));
    assert.match(io.stderr, want, args.join(' '));
    assert.equal(io.stderr.trim().split('\n').length, 1, io.stderr);
  }
});

test('grpo-sandbox train --async prints each step’s lag and the run beside the synchronous one', async () => {
  const io = memoryIo();
  const args = [
    'train',
    '--ranks',
    '2',
    '--batch',
    '8',
    '--k',
    '4',
    '--sampler',
    'contiguous',
    '--steps',
    '6',
    '--async',
    'areal',
    '--max-staleness',
    '1',
  ];
  assert.equal(await main(args, io), 0, io.stderr);
  assert.match(io.stdout, /^async: areal's staleness rule \(rollout\.max_head_offpolicyness=1/m);
  assert.match(io.stdout, /step 6\/6 .* lag \d\.\d\d \(max \d\)/);
  assert.match(io.stdout, /^reward at step 6 \(mean of steps 1–6\): async \d\.\d{3} vs synchronous \d\.\d{3} \([+−]\d\.\d{3}\)/m);
  assert.match(io.stdout, /^95% of the optimum \(10-step mean\) reached (at step \d+|not) async, (at step \d+|not) synchronous$/m);
  const json = memoryIo();
  assert.equal(await main([...args, '--json'], json), 0, json.stderr);
  const out = JSON.parse(json.stdout);
  assert.equal(out.async.framework, 'areal');
  assert.equal(out.async.comparison.step, 6);
});
