// The steps model on small runs worked out by hand from each framework's code (the fixtures check
// the same against the real trainers; these pin the arithmetic and the rules).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/core/errors.ts';
import { type Fact, say } from '../../../src/core/messages/index.ts';
import { lengthsText } from '../../../src/core/messages/steps.ts';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { buildLayout } from '../../../src/core/samplers/index.ts';
import { FRAMEWORKS, buildSteps, parseLengths } from '../../../src/core/steps/index.ts';

/** Findings as the CLI prints them, joined. */
const said = (facts: Fact[]) => facts.map((f) => say(f)).join(' ');

const trl = (over: Partial<LayoutConfig> = {}): LayoutConfig => ({
  sampler: 'trl',
  ranks: 2,
  batch: 2,
  k: 2,
  batchesPerEpoch: 1,
  epochs: 1,
  datasetSize: 8,
  seed: 3,
  stepsPerGeneration: 2,
  numIterations: 1,
  gradientAccumulationSteps: 2,
  numWorkers: 0,
  prefetchFactor: 2,
  acceleratePrepare: 0,
  ...over,
});
const lengths = [10, 20, 30, 40, 50, 60, 70, 80];
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

test('TRL grpo: a token weighs 1 / (its completion’s length × B × GA × W); every update has the token mean’s size', () => {
  const r = buildSteps(buildLayout(trl()), { framework: 'trl-1.13.0', loss: 'grpo', lengths });
  for (const step of r.steps) {
    for (const row of step.rows) assert.ok(close(row.weight, 1 / (row.tokens * 2 * 2 * 2)));
    assert.ok(close(step.updateScale, 1));
  }
});

test('TRL bnpo: a token weighs 1 / (its rank’s micro-batch tokens × GA × W)', () => {
  const r = buildSteps(buildLayout(trl()), { framework: 'trl-1.13.0', loss: 'bnpo', lengths });
  for (const step of r.steps) {
    for (const m of step.microBatches) {
      const t = m.rows.reduce((n, i) => n + step.rows[i]!.tokens, 0);
      for (const i of m.rows) assert.ok(close(step.rows[i]!.weight, 1 / (t * 2 * 2)));
    }
  }
});

test('TRL dapo: 1.13.0 is the global token mean when spg = GA; before PR #6024 the update is GA / spg of it', () => {
  const eq = buildSteps(buildLayout(trl()), { framework: 'trl-1.13.0', loss: 'dapo', lengths });
  for (const step of eq.steps) for (const row of step.rows) assert.ok(close(row.weight, row.intendedWeight));
  const cfg = trl({ stepsPerGeneration: 4, datasetSize: 16 });
  const fixed = buildSteps(buildLayout(cfg), { framework: 'trl-1.13.0', loss: 'dapo', lengths });
  const old = buildSteps(buildLayout(cfg), { framework: 'trl-1.9.0', loss: 'dapo', lengths });
  fixed.steps.forEach((s, i) => s.rows.forEach((row, j) => assert.ok(close(old.steps[i]!.rows[j]!.weight / row.weight, 2 / 4))));
  assert.match(said(old.findings), /GA \/ spg = 0\.5/);
});

test('ms-swift dapo: before PR #10116 every update is 1/GA of the token mean, after it exactly the token mean', () => {
  const cfg = trl({ gradientAccumulationSteps: 4, stepsPerGeneration: 4, datasetSize: 16 });
  const before = buildSteps(buildLayout(cfg), { framework: 'ms-swift-efd0a54', loss: 'dapo', lengths });
  const after = buildSteps(buildLayout(cfg), { framework: 'ms-swift-pr10116', loss: 'dapo', lengths });
  for (const s of before.steps) assert.ok(close(s.updateScale, 1 / 4));
  for (const s of after.steps) for (const row of s.rows) assert.ok(close(row.weight, row.intendedWeight));
});

test('the last, short accumulation window of an epoch steps with current_gradient_accumulation_steps = its length', () => {
  // 2 generation batches × spg 2 × num_iterations 1 = 4 micro-steps (… 3 with GA 3: windows 3 + 1).
  const r = buildSteps(buildLayout(trl({ gradientAccumulationSteps: 3 })), { framework: 'trl-1.13.0', loss: 'grpo', lengths });
  assert.deepEqual(
    r.steps.map((s) => s.microSteps),
    [3, 1],
  );
  const last = r.steps[1]!;
  for (const row of last.rows) assert.ok(close(row.weight, 1 / (row.tokens * 2 * 1 * 2)));
  assert.match(said(r.findings), /Short windows: 1 optimizer step/);
});

test('policy versions: with steps_per_generation 4 and GA 2 the second half of each generation batch is trained one step off-policy', () => {
  const r = buildSteps(buildLayout(trl({ stepsPerGeneration: 4, datasetSize: 16 })), { framework: 'trl-1.13.0', loss: 'grpo', lengths });
  const micro = r.steps.flatMap((s) => s.microBatches.filter((m) => m.rank === 0));
  assert.deepEqual(
    micro.map((m) => [m.policyVersion, m.trainVersion]),
    [
      [0, 0],
      [0, 0],
      [0, 1],
      [0, 1],
      [2, 2],
      [2, 2],
      [2, 3],
      [2, 3],
    ],
  );
  assert.match(said(r.findings), /Off-policy: 4 of 8 micro-steps/);
});

test('num_iterations: the same completions are trained again in a later pass, off-policy', () => {
  const r = buildSteps(buildLayout(trl({ numIterations: 2 })), { framework: 'trl-1.13.0', loss: 'grpo', lengths });
  const micro = r.steps.flatMap((s) => s.microBatches.filter((m) => m.rank === 0));
  assert.deepEqual(
    micro.map((m) => m.pass),
    [0, 0, 1, 1, 0, 0, 1, 1],
  );
  assert.deepEqual(micro[2]!.rows.length, 2);
  assert.equal(micro[2]!.trainVersion - micro[2]!.policyVersion, 1);
});

test('flow_grpo: accelerate’s counter runs across epochs; the trailing micro-steps are never applied', () => {
  const cfg: LayoutConfig = {
    ...trl(),
    sampler: 'flow-grpo',
    batchesPerEpoch: 3,
    epochs: 1,
    datasetSize: 20,
    stepsPerGeneration: 1,
    gradientAccumulationSteps: 2,
  };
  const r = buildSteps(buildLayout(cfg));
  assert.equal(r.framework.name, 'flow_grpo-ac4c86e');
  assert.deepEqual(
    r.steps.map((s) => [s.microSteps, s.applied]),
    [
      [2, true],
      [1, false],
    ],
  );
  for (const row of r.steps[1]!.rows) assert.equal(row.weight, 0);
  for (const row of r.steps[0]!.rows) assert.ok(close(row.weight, 1 / (2 * 2 * 2)));
  assert.match(said(r.findings), /Never applied: the last 1 micro-step/);
});

test('verl legacy seq-mean-token-sum-norm divides by the response length, not by the tokens: the update shrinks with shorter completions', () => {
  const cfg: LayoutConfig = {
    ...trl(),
    sampler: 'contiguous',
    batch: 4,
    k: 2,
    datasetSize: 8,
    stepsPerGeneration: 1,
    gradientAccumulationSteps: 2,
  };
  const r = buildSteps(buildLayout(cfg), {
    framework: 'verl-b178a3c',
    loss: 'seq-mean-token-sum-norm',
    lengths,
    maxCompletionLength: 100,
    microBatch: 2,
  });
  for (const row of r.steps[0]!.rows) assert.ok(close(row.weight, 1 / (100 * 2 * 2)));
  const tokens = r.steps[0]!.rows.reduce((n, row) => n + row.tokens, 0);
  assert.ok(close(r.steps[0]!.updateScale, tokens / (100 * 2 * 2)));
});

test('mistakes are one ConfigError naming the alternatives', () => {
  const layout = buildLayout(trl());
  const refuses = (f: () => unknown, pattern: RegExp) =>
    assert.throws(f, (e: unknown) => e instanceof ConfigError && pattern.test(e.message) && !e.message.includes('\n'));
  refuses(
    () => buildSteps(layout, { framework: 'trl-9' }),
    /unknown --framework 'trl-9'; frameworks: flow_grpo-ac4c86e, flow_grpo-sd3-fast-74db691, trl-1\.13\.0/,
  );
  refuses(
    () => buildSteps(layout, { framework: 'verl-b178a3c' }),
    /does not train --sampler trl's layout; for trl: trl-1\.13\.0, trl-1\.9\.0/,
  );
  refuses(() => buildSteps(layout, { loss: 'token-mean' }), /--loss token-mean is not one of trl-1\.13\.0's: grpo, bnpo, dr_grpo, dapo/);
  refuses(() => buildSteps(layout, { microBatch: 2 }), /--micro-batch is verl's/);
  const dance = buildLayout({
    ...trl(),
    sampler: 'dance-grpo',
    batch: 4,
    datasetSize: 8,
    stepsPerGeneration: 1,
    gradientAccumulationSteps: 1,
  } as LayoutConfig);
  assert.equal(buildSteps(dance).framework.name, 'dance-grpo-22b85ef');
  refuses(
    () => buildSteps(dance, { framework: 'flow_grpo-ac4c86e' }),
    /does not train --sampler dance-grpo's layout; for dance-grpo: dance-grpo-22b85ef/,
  );
  const flow = buildLayout({ ...trl(), sampler: 'flow-grpo', batchesPerEpoch: 2, datasetSize: 20, stepsPerGeneration: 1 } as LayoutConfig);
  refuses(() => buildSteps(flow, { lengths: [3] }), /per-sample mean \(no tokens\): leave --lengths out/);
  refuses(() => parseLengths('[1, 2, 900]', 'l.json', 512), /entry 2 is 900; each length must be a whole number in \[0, 512\]/);
  refuses(() => parseLengths('1 two', 'l.txt', 512), /entry 1 is "two"/);
});

test('lengths: a JSON array or numbers separated by spaces or commas', () => {
  assert.deepEqual(parseLengths('[1,2,3]', 'x', 10), [1, 2, 3]);
  assert.deepEqual(parseLengths('4 5,6\n7', 'x', 10), [4, 5, 6, 7]);
});

// verl's own sampler carries ppo_mini_batch_size and ppo_micro_batch_size_per_gpu (and its seqlens): the model reads them there.
const verl = (over: Partial<LayoutConfig> = {}): LayoutConfig => ({
  ...trl(),
  sampler: 'verl',
  ranks: 2,
  batch: 8,
  k: 4,
  datasetSize: 8,
  stepsPerGeneration: 1,
  gradientAccumulationSteps: 1,
  ppoMiniBatchSize: 2,
  ppoMicroBatchSizePerGpu: 2,
  ...over,
});

test('verl sampler: micro- and mini-batches are its ppo_micro_batch_size_per_gpu and normalised ppo_mini_batch_size; GA is their quotient', () => {
  // mini: 2 prompts × n 4 // dp 2 = 4 samples per rank; micro 2 → 2 micro-steps per optimizer step, 1/GA = 1/2.
  const r = buildSteps(buildLayout(verl()), { framework: 'verl-b178a3c', loss: 'seq-mean-token-sum', lengths });
  assert.equal(r.microBatch, 2);
  assert.equal(r.gradientAccumulation, 2);
  // Two layout steps (dataset 8 / train_batch_size 4 prompts), two mini-batches each.
  assert.equal(r.steps.length, 4);
  for (const step of r.steps) {
    assert.equal(step.microSteps, 2);
    for (const m of step.microBatches) assert.equal(m.rows.length, 2);
    for (const row of step.rows) assert.ok(close(row.weight, 1 / (2 * 2 * 2)));
  }
  // --micro-batch is the same setting: equal is accepted, different is refused naming the verl flag.
  assert.equal(buildSteps(buildLayout(verl()), { microBatch: 2, lengths }).microBatch, 2);
  assert.throws(
    () => buildSteps(buildLayout(verl()), { microBatch: 4, lengths }),
    (e: unknown) =>
      e instanceof ConfigError &&
      /--micro-batch 4 conflicts with verl's ppo_micro_batch_size_per_gpu 2 .*--ppo-micro-batch-size-per-gpu/.test(e.message),
  );
});

test('verl sampler: without --lengths the loss counts the seqlens _balance_batch balanced, in dispatch order', () => {
  const seqlens = Array.from({ length: 16 }, (_, i) => 100 + 37 * ((i * 5) % 16));
  const layout = buildLayout(verl({ seqlens, datasetSize: 4 }));
  const step = layout.steps[0]!;
  const r = buildSteps(layout, { framework: 'verl-b178a3c-engine', loss: 'token-mean' });
  const perRank = step.ranks[0]!.length;
  for (const row of r.steps.flatMap((s) => s.rows)) {
    const rank = Math.floor(row.completion / perRank);
    const slot = row.completion % perRank;
    assert.equal(row.tokens, seqlens[step.order![rank * perRank + slot]!]);
  }
  assert.match(lengthsText(r.lengths), /seqlens \(measured, --seqlens\)/);
  // Balanced: the two ranks' token sums differ by less than one sample's.
  const sums = [0, 1].map((rank) =>
    r.steps
      .flatMap((s) => s.rows)
      .filter((x) => x.rank === rank)
      .reduce((n, x) => n + x.tokens, 0),
  );
  assert.ok(Math.abs(sums[0]! - sums[1]!) < Math.max(...seqlens), `rank sums ${sums}`);
  // Given --lengths win for the loss (verl balances by prompt + response tokens, the loss counts the response).
  assert.equal(buildSteps(layout, { lengths: [7] }).steps[0]!.rows[0]!.tokens, 7);
  // seq-mean-token-sum-norm's response length must hold the longest completion.
  assert.throws(() => buildSteps(layout, { maxCompletionLength: 200 }), /below the longest of the verl sampler's seqlens \(655\)/);
});

test('every framework version is listed under its own name (the catalogues key their words by it)', () => {
  for (const [name, spec] of Object.entries(FRAMEWORKS)) assert.equal(spec.name, name);
});

test('each sampler has its one default framework version, declared by that version (defaultFor), which trains it', async () => {
  const { defaultFramework } = await import('../../../src/core/steps/index.ts');
  const { samplerNames } = await import('../../../src/core/samplers/index.ts');
  const defaults = Object.fromEntries(samplerNames.map((s) => [s, defaultFramework(s)?.name ?? null]));
  assert.deepEqual(defaults, {
    'flow-grpo': 'flow_grpo-ac4c86e',
    'flow-grpo-lcm': 'flow_grpo-ac4c86e',
    trl: 'trl-1.13.0',
    contiguous: 'flow_grpo-ac4c86e',
    'group-distributed': 'flow_grpo-ac4c86e',
    'dance-grpo': 'dance-grpo-22b85ef',
    verl: 'verl-b178a3c',
  });
  for (const s of samplerNames) {
    const named = Object.values(FRAMEWORKS).filter((spec) => spec.defaultFor.includes(s));
    assert.equal(named.length, 1, s);
    assert.ok(named[0]!.accepts(s), s);
  }
});

test("each framework's schedule names sentences the core has (its off-policy, shuffle and never-applied facts)", async () => {
  const { EN } = await import('../../../src/core/messages/index.ts');
  for (const spec of Object.values(FRAMEWORKS)) {
    const { offPolicy, shuffle, neverApplied } = spec.schedule.facts;
    for (const id of [offPolicy, shuffle, neverApplied ?? 'steps.on-policy']) assert.ok(Object.hasOwn(EN, id), `${spec.name}: ${id}`);
  }
});
