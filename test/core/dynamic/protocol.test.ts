import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_CONFIG,
  type DynamicConfig,
  dynamicStep,
  effectiveBatch,
  generateSamples,
  type Policy,
  POLICIES,
  type RewardModel,
  runLocal,
  runSweep,
  type Sample,
  type StepPlan,
  simulateStep,
  stepFails,
  theoryShortage,
  tieProbability,
  verlTooManyBatches,
} from '../../../src/core/dynamic/index.ts';

// Hand-made pools: `valid[draw][rank]` = how many of a rank's groups have mixed rewards.
const cfg = (policy: Policy, over: Partial<DynamicConfig> = {}): DynamicConfig => ({
  ...DEFAULT_CONFIG,
  ranks: 4,
  perRank: 8,
  k: 2,
  maxResampleTimes: 2,
  policy,
  streamCapFactor: 4,
  ...over,
});
const script = (...valid: number[][]): RewardModel => ({ kind: 'script', valid });

/** Runs the protocol on an in-process world and returns every rank's plan. */
async function allPlans(c: DynamicConfig, model: RewardModel): Promise<StepPlan<Sample>[]> {
  return runLocal(c.ranks, (rank, gather) =>
    dynamicStep<Sample>({ rank, size: c.ranks, generate: (d, n) => generateSamples(model, d, rank, n, c.k), gather }, c),
  );
}
const sizes = (plan: StepPlan<Sample>) => plan.slices.map((s) => s.samples.length);
const ids = (xs: readonly Sample[]) => xs.map((s) => s.id);

test('all ranks make identical decisions, for every policy', async () => {
  for (const policy of POLICIES) {
    const c = cfg(policy);
    const plans = await allPlans(c, { kind: 'bernoulli', p: 0.15, seed: 3 });
    for (const plan of plans.slice(1)) assert.deepEqual(plan, plans[0], policy);
  }
});

test('exactly enough: one batch fills the pool, equal slices [8r, 8r+8), no resample, no surplus', async () => {
  for (const policy of POLICIES) {
    const plan = await simulateStep(cfg(policy), script([4, 4, 4, 4]));
    assert.equal(plan.outcome, 'full', policy);
    assert.equal(plan.pool, 32);
    assert.equal(plan.resamples, 0);
    assert.deepEqual(sizes(plan), [8, 8, 8, 8], policy);
    assert.equal(plan.discardedSurplus, 0);
    if (policy !== 'stream') assert.deepEqual(ids(plan.slices[2]!.samples).slice(0, 2), ['d0r2p0c0', 'd0r2p0c1']);
  }
});

test('surplus: valid samples beyond the target are discarded (pool truncated), slices stay equal', async () => {
  const plan = await simulateStep(cfg('fallback'), script([3, 3, 3, 3], [4, 4, 4, 4]));
  assert.equal(plan.pool, 56);
  assert.equal(plan.discardedSurplus, 24);
  assert.deepEqual(sizes(plan), [8, 8, 8, 8]);
  // The pool is rank-major per draw: rank 0's 3 valid groups (6 samples), then rank 1's first.
  assert.deepEqual(ids(plan.slices[0]!.samples), [
    'd0r0p0c0',
    'd0r0p0c1',
    'd0r0p1c0',
    'd0r0p1c1',
    'd0r0p2c0',
    'd0r0p2c1',
    'd0r1p0c0',
    'd0r1p0c1',
  ]);
});

test('one group short (pool 30 of 32, not divisible by 4 ranks): each policy slices as its framework does', async () => {
  const short = script([4, 4, 4, 3]);
  const naive = await simulateStep(cfg('naive'), short);
  assert.equal(naive.pool, 30);
  assert.equal(naive.shortage, 2);
  assert.equal(naive.resamples, 2);
  assert.deepEqual(sizes(naive), [8, 8, 8, 6]);
  assert.deepEqual(
    naive.slices.map((s) => [s.from, s.to]),
    [
      [0, 8],
      [8, 16],
      [16, 24],
      [24, 30],
    ],
  );

  const rebalance = await simulateStep(cfg('rebalance'), short);
  assert.deepEqual(sizes(rebalance), [8, 8, 7, 7]);
  assert.deepEqual(
    ids(rebalance.slices.flatMap((s) => s.samples)),
    ids(naive.slices.flatMap((s) => s.samples)),
    'every valid sample, once, in pool order',
  );

  const pad = await simulateStep(cfg('pad'), short);
  assert.deepEqual(sizes(pad), [8, 8, 8, 8]);
  assert.equal(pad.duplicated, 2);
  const all = pad.slices.flatMap((s) => s.samples);
  const pool = new Set(ids(naive.slices.flatMap((s) => s.samples)));
  assert.ok(
    all.every((s) => pool.has(s.id)),
    'pad only copies valid samples',
  );
  assert.equal(new Set(ids(all)).size, 30);

  const fallback = await simulateStep(cfg('fallback'), short);
  assert.deepEqual(sizes(fallback), [8, 8, 8, 8]);
  assert.equal(fallback.invalidGroupsKept, 1);
  assert.deepEqual(fallback.notes, ['There are still std=0 groups present after 2 retries.']);
  for (const s of fallback.slices)
    assert.ok(
      s.samples.every((x) => x.origin === s.rank && x.draw === 0),
      'each rank keeps its original batch',
    );

  const stream = await simulateStep(cfg('stream', { streamCapFactor: 100 }), script([4, 4, 4, 3], [0, 0, 0, 0], [0, 0, 0, 1]));
  assert.equal(stream.outcome, 'full');
  assert.deepEqual(sizes(stream), [8, 8, 8, 8]);
  assert.deepEqual(
    stream.events.map((e) => e.generated),
    [32, 2, 2],
    'each dropped prompt is replaced at once, nothing more',
  );
  assert.equal(stream.discardedSurplus, 0);
});

test('3 ranks, pool 22 of 24: rebalance gives 8, 7, 7; naive 8, 8, 6', async () => {
  const c = { ranks: 3 };
  assert.deepEqual(sizes(await simulateStep(cfg('rebalance', c), script([4, 4, 3]))), [8, 7, 7]);
  assert.deepEqual(sizes(await simulateStep(cfg('naive', c), script([4, 4, 3]))), [8, 8, 6]);
});

test('0 valid after every resample: fallback keeps every flat group; pad falls back; the raisers raise; stream gives up', async () => {
  const none = script();
  const fallback = await simulateStep(cfg('fallback'), none);
  assert.equal(fallback.outcome, 'short');
  assert.equal(fallback.invalidGroupsKept, 16);
  assert.deepEqual(sizes(fallback), [8, 8, 8, 8]);
  const pad = await simulateStep(cfg('pad'), none);
  assert.equal(pad.duplicated, 0);
  assert.match(pad.notes[0]!, /0 valid samples, nothing to duplicate/);
  assert.deepEqual(sizes(pad), [8, 8, 8, 8]);
  assert.deepEqual(sizes(await simulateStep(cfg('rebalance'), none)), [0, 0, 0, 0]);
  assert.deepEqual(sizes(await simulateStep(cfg('naive'), none)), [0, 0, 0, 0]);
  const stream = await simulateStep(cfg('stream'), none);
  assert.equal(stream.error?.name, 'StreamStalled');
  assert.ok(stream.generated >= 4 * 32);
});

test("raise: verl's ValueError in its own words once num_gen_batches reaches max (= 1 + max resample times)", async () => {
  const plan = await simulateStep(cfg('raise', { maxResampleTimes: 3 }), script());
  assert.equal(plan.events.length, 4, 'verl generates 4 batches when the cap is 4');
  assert.deepEqual(plan.error, {
    name: 'ValueError',
    message:
      'num_gen_batches=4 >= max_num_gen_batches=4. Generated too many. Please check if your data are too difficult. ' +
      'You could also try set max_num_gen_batches=0 to enable endless trials.',
  });
  assert.ok(verlTooManyBatches(10, 10).startsWith('num_gen_batches=10 >= max_num_gen_batches=10. Generated too many.'));
  const nemo = await simulateStep(cfg('raise-nemo', { maxResampleTimes: 3 }), script());
  assert.equal(nemo.events.length, 5, 'NeMo RL checks <=, so it generates one batch more');
  assert.match(nemo.error!.message, /^Dynamic sampling has reached the maximum allowed number of batches \(4\)\. Consider evaluating/);
  // Enough before the cap: no error.
  assert.equal((await simulateStep(cfg('raise'), script([4, 4, 4, 3], [1]))).error, null);
});

test('keep rules: verl keeps single-member groups, ms-swift drops them; OpenRLHF keeps min < mean < max only', async () => {
  const single = { k: 1, perRank: 4 };
  const verl = await simulateStep(cfg('raise', single), { kind: 'bernoulli', p: 0.5, seed: 1 });
  assert.equal(verl.events[0]!.added, 16);
  const swift = await simulateStep(cfg('fallback', single), { kind: 'bernoulli', p: 0.5, seed: 1 });
  assert.equal(swift.events[0]!.added, 0);
  // Mixed scripted groups have mean 0.5: inside (0, 1), outside (0.5, 1).
  assert.equal((await simulateStep(cfg('stream'), script([4, 4, 4, 4]))).events[0]!.added, 32);
  const narrow = await simulateStep(cfg('stream', { range: [0.5, 1] }), script([4, 4, 4, 4]));
  assert.equal(narrow.events[0]!.added, 0);
});

test('no deadlock: a rank whose batches never hold a valid group still joins every gather', async () => {
  // Batched: rank 2 never contributes; the others' resamples fill the pool.
  const batched = await simulateStep(cfg('fallback'), script([4, 4, 0, 4], [4, 4, 0, 4]));
  assert.equal(batched.outcome, 'full');
  assert.deepEqual(batched.events[0]!.addedByRank, [8, 8, 0, 8]);
  // Stream: ranks 0, 1, 3 are full after round 0 and join rounds 1 and 2 with empty batches.
  const stream = await simulateStep(cfg('stream'), script([4, 4, 0, 4], [0, 0, 0, 0], [0, 0, 4, 0]));
  assert.equal(stream.outcome, 'full');
  assert.deepEqual(
    stream.events.map((e) => e.addedByRank),
    [
      [8, 8, 0, 8],
      [0, 0, 0, 0],
      [0, 0, 8, 0],
    ],
  );
});

test('tie probability p^G + (1 − p)^G (frameworks.md: p = 0.18 → 70%, 45%, 20%, 4%) and the simulation agrees', async () => {
  assert.deepEqual(
    [2, 4, 8, 16].map((g) => Math.round(tieProbability(0.18, g) * 100)),
    [70, 45, 20, 4],
  );
  let flat = 0;
  let groups = 0;
  for (let t = 0; t < 50; t++) {
    const plan = await simulateStep(cfg('fallback', { k: 4, perRank: 16 }), { kind: 'bernoulli', p: 0.18, seed: t });
    flat += plan.events[0]!.flatGroups;
    groups += plan.events[0]!.groups;
  }
  // 800 groups: the binomial standard error is 0.018; 0.05 is ~3 of them.
  assert.ok(Math.abs(flat / groups - tieProbability(0.18, 4)) < 0.05, `${flat / groups}`);
});

test('shortage frequency: simulation meets the binomial theory; the sweep reports naive failing exactly when short', async () => {
  const c = cfg('fallback', { k: 4, perRank: 16, maxResampleTimes: 3 });
  let short = 0;
  const trials = 300;
  for (let t = 0; t < trials; t++) if ((await simulateStep(c, { kind: 'bernoulli', p: 0.07, seed: 1000 + t })).outcome === 'short') short++;
  const theory = theoryShortage(c, 'fallback', 0.07);
  const se = Math.sqrt((theory * (1 - theory)) / trials);
  assert.ok(Math.abs(short / trials - theory) < 4 * se, `simulated ${short / trials}, theory ${theory}`);

  const sweep = await runSweep({
    base: c,
    policies: ['naive', 'stream', 'pad'],
    ps: [0.05, 0.3],
    trials: 20,
    runs: 1,
    budgetBatches: 2,
    lr: 0.5,
  });
  assert.equal(sweep.rows.length, 6);
  for (const row of sweep.rows) {
    if (row.policy === 'naive') assert.equal(row.failureRate, row.shortageRate);
    if (row.policy === 'stream') assert.equal(row.shortageRate, 0);
    if (row.policy === 'pad') assert.equal(row.failureRate, 0);
    assert.ok(row.effectiveBatch <= c.ranks * c.perRank);
  }
});

test('effective batch counts distinct trained samples in mixed groups; pad duplicates do not count twice', async () => {
  const short = script([4, 4, 4, 3]);
  assert.equal(effectiveBatch(await simulateStep(cfg('pad'), short), 'reward'), 30);
  // fallback trains the original batches: 15 mixed groups of 2 and one flat group.
  assert.equal(effectiveBatch(await simulateStep(cfg('fallback'), short), 'reward'), 30);
  const naive = await simulateStep(cfg('naive'), short);
  assert.ok(stepFails(naive), 'uneven naive slices cannot be gathered');
  assert.ok(!stepFails(await simulateStep(cfg('rebalance'), short)), 'rebalance gathers with lengths');
});

test("stream refuses groups scattered over ranks (it judges each rank's own groups)", async () => {
  const c = cfg('stream');
  const plans = await runLocal(c.ranks, (rank, gather) =>
    dynamicStep<Sample>(
      {
        rank,
        size: c.ranks,
        // Every rank answers the same 4 prompts (flow_grpo-style scatter: copies on different ranks).
        generate: (d, n) => generateSamples(script([4, 4, 4, 4]), d, 0, n, c.k).map((s) => ({ ...s, origin: rank })),
        gather,
      },
      c,
    ),
  );
  assert.equal(plans[0]!.error?.name, 'StreamScatteredGroups');
  assert.match(plans[0]!.error!.message, /group d0r0p0 has members on ranks 0 and 1; use a sampler that keeps every group on one rank/);
});
