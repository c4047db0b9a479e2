// The async simulation's own guarantees: zero staleness is the synchronous loop (written separately, sync-loop.ts),
// a run is a pure function of its inputs, every rule keeps its bound, in-flight updates mark samples with several
// versions, and the per-step and overall accounting adds up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readRuleValues, ruleDef, runFramework, simulate, synchronousLoop } from '../../../src/core/async/index.ts';
import type { RuleState, StalenessRule } from '../../../src/core/async/rule.ts';
import type { AsyncResult, AsyncWorkload, TrainedStep } from '../../../src/core/async/types.ts';

const workload = (over: Partial<AsyncWorkload> = {}): AsyncWorkload => ({
  genWorkers: 2,
  concurrency: 8,
  tokensPerSecond: 100,
  trainBatchSize: 4,
  k: 4,
  steps: 10,
  stepTime: 10,
  trainTokensPerSecond: null,
  lengths: { kind: 'distribution', name: 'bimodal' },
  seed: 0,
  ...over,
});
const run = (w: AsyncWorkload, framework: string, flags: Record<string, string> = {}) => runFramework(w, framework, (f) => flags[f]);

/** A step with its samples in prompt order: the synchronous loop lists them so; async rules list them in finishing order. */
const canonical = (steps: TrainedStep[]) =>
  steps.map((s) => ({ ...s, samples: [...s.samples].sort((a, b) => a.prompt - b.prompt || a.index - b.index) }));

const ZERO: [string, Record<string, string>][] = [
  ['areal', { 'max-staleness': '0' }],
  ['skyrl', { 'max-staleness': '0' }],
  ['nemo-rl', { 'sampler-policy': 'ready_first', 'max-staleness': '0' }],
  ['nemo-rl', { 'sampler-policy': 'weight_fifo', 'max-staleness': '0' }],
  ['nemo-rl', { 'sampler-policy': 'in_order', 'max-lookahead-versions': '0' }],
  ['roll', { 'max-staleness': '0' }],
  ['verl', { 'max-staleness': '0', 'trigger-parameter-sync-step': '1' }],
];
const WORKLOADS: [string, AsyncWorkload][] = [
  ['bimodal, 16 slots for 16 completions', workload()],
  [
    'uniform, 3 slots, steps by tokens',
    workload({
      genWorkers: 1,
      concurrency: 3,
      lengths: { kind: 'distribution', name: 'uniform' },
      stepTime: null,
      trainTokensPerSecond: 400,
      seed: 7,
    }),
  ],
  [
    'long-tail, 40 slots, k 3, batch 5',
    workload({ genWorkers: 5, concurrency: 8, k: 3, trainBatchSize: 5, lengths: { kind: 'distribution', name: 'long-tail' }, seed: 3 }),
  ],
];

for (const [name, w] of WORKLOADS) {
  const sync = synchronousLoop(w);
  for (const [framework, flags] of ZERO) {
    test(`zero staleness: ${framework} ${JSON.stringify(flags)} is the synchronous loop (${name})`, () => {
      const r = run(w, framework, flags);
      assert.deepEqual(canonical(r.steps), canonical(sync));
      assert.deepEqual(r.dropped, []);
    });
  }
}

test('a positive bound makes the loop asynchronous: some sample trains at lag ≥ 1 and the run is faster', () => {
  const w = workload();
  const sync = synchronousLoop(w);
  const r = run(w, 'areal', { 'max-staleness': '2' });
  assert.ok(r.summary.maxLag >= 1);
  assert.ok(r.summary.makespan < sync[sync.length - 1]!.end);
});

test('same inputs, same bytes; another seed, other lengths', () => {
  for (const framework of ['nemo-rl', 'prime-rl', 'trl-async', 'roll']) {
    assert.equal(JSON.stringify(run(workload(), framework)), JSON.stringify(run(workload(), framework)));
  }
  assert.notEqual(JSON.stringify(run(workload(), 'areal').steps), JSON.stringify(run(workload({ seed: 1 }), 'areal').steps));
});

// A fast generator and a slow trainer: everything goes stale unless the rule stops it.
const stress = workload({ genWorkers: 2, concurrency: 16, steps: 12, stepTime: 5, seed: 1 });
const BOUNDED: [string, Record<string, string>, number][] = [
  ['trl-async', { 'max-staleness': '1' }, 1],
  ['prime-rl', { 'max-staleness': '1' }, 1],
  ['open-instruct', { 'max-staleness': '1' }, 1],
  ['nemo-rl', { 'sampler-policy': 'windowed', 'max-staleness': '1' }, 1],
  ['nemo-rl', { 'sampler-policy': 'weight_fifo', 'max-staleness': '2' }, 2],
  ['nemo-rl', { 'sampler-policy': 'in_order', 'max-lookahead-versions': '2' }, 2],
  ['roll', { 'max-staleness': '2' }, 2],
  ['roll', { 'max-staleness': '1.5' }, 2],
];
for (const [framework, flags, bound] of BOUNDED) {
  test(`${framework} ${JSON.stringify(flags)}: no trained sample lags more than ${bound}`, () => {
    const r = run(stress, framework, flags);
    for (const s of r.steps) for (const x of s.samples) assert.ok(x.lag <= bound, `step ${s.step} prompt ${x.prompt} lag ${x.lag}`);
  });
}

test('drop-at-consumption and eviction rules say why they dropped what', () => {
  assert.ok(run(stress, 'trl-async', { 'max-staleness': '1' }).dropped.every((d) => d.why === 'stale-at-consumption'));
  const windowed = run(stress, 'nemo-rl', { 'max-staleness': '1' }).dropped;
  assert.ok(windowed.some((d) => d.why === 'evicted') && windowed.some((d) => d.why === 'aborted-in-flight'));
  const prime = run(stress, 'prime-rl', { 'max-staleness': '1' }).dropped;
  assert.ok(prime.length > 0 && prime.every((d) => d.detail.includes('max_off_policy_steps=1')));
});

test('AReaL bounds how many rollouts run ahead, not each one: a straggler can train beyond max_head_offpolicyness', () => {
  assert.ok(run(stress, 'areal', { 'max-staleness': '2' }).summary.maxLag > 2);
});

test('in-flight updates give samples several versions; slime and OpenRLHF without partial rollouts never do', () => {
  const multi = (r: AsyncResult) => r.steps.flatMap((s) => s.samples).filter((x) => x.versions);
  for (const f of ['areal', 'prime-rl', 'trl-async', 'open-instruct', 'skyrl', 'nemo-rl']) {
    const xs = multi(run(stress, f, f === 'areal' ? { 'max-staleness': '2' } : {}));
    assert.ok(xs.length > 0, f);
    for (const x of xs) assert.ok(x.versions!.length >= 2 && x.versions!.every((v, i) => i === 0 || v > x.versions![i - 1]!), f);
  }
  assert.equal(multi(run(stress, 'slime')).length, 0);
  assert.equal(multi(run(stress, 'openrlhf')).length, 0);
  assert.ok(multi(run(stress, 'openrlhf', { 'partial-rollout-enable': 'true' })).length > 0);
});

test('OpenRLHF: a batch starts at most async_queue_size versions behind the step that trains it, with or without partial rollouts', () => {
  for (const q of ['1', '2']) {
    for (const partial of ['false', 'true']) {
      const r = run(stress, 'openrlhf', { 'max-staleness': q, 'partial-rollout-enable': partial });
      assert.ok(r.summary.maxLag <= Number(q) && r.summary.maxLag >= 1, `queue ${q} partial ${partial}: max lag ${r.summary.maxLag}`);
    }
  }
});

test('accounting: each step trains batch × k completions of distinct groups, no group twice; idle + busy = slots × time', () => {
  for (const f of ['areal', 'nemo-rl', 'prime-rl', 'trl-async', 'open-instruct', 'openrlhf', 'verl', 'roll', 'skyrl', 'slime']) {
    const r = run(stress, f);
    const seen = new Set<number>();
    for (const s of r.steps) {
      assert.equal(s.samples.length, stress.trainBatchSize * stress.k, f);
      assert.equal(
        Object.values(s.byVersion).reduce((a, b) => a + b, 0),
        s.samples.length,
      );
      for (const g of new Set(s.samples.map((x) => x.group))) {
        assert.ok(!seen.has(g), `${f}: group ${g} trained twice`);
        seen.add(g);
      }
    }
    for (const d of r.dropped) assert.ok(!seen.has(d.group), `${f}: group ${d.group} trained and dropped`);
    const slots = stress.genWorkers * stress.concurrency;
    assert.ok(r.summary.generatorIdle <= slots * r.summary.makespan + 1e-6);
  }
});

test('the length bias is the trained and generated means of the run', () => {
  const r = run(stress, 'trl-async', { 'max-staleness': '1' });
  const trained = r.steps.flatMap((s) => s.samples);
  const mean = trained.reduce((a, x) => a + x.length, 0) / trained.length;
  assert.ok(Math.abs(r.summary.lengthBias.trainedMean - mean) < 1e-6);
  // Dropping what went stale drops the long (hard) completions first: the trainer sees shorter ones than were generated.
  assert.ok(r.summary.lengthBias.bias < 0);
  const hard = r.summary.lengthBias.byDifficulty.hard!;
  assert.ok(
    hard.trained / (hard.trained + r.summary.lengthBias.byDifficulty.easy!.trained) <
      hard.generated / (hard.generated + r.summary.lengthBias.byDifficulty.easy!.generated),
  );
});

test('given lengths: the run uses them prompt by prompt and asks for more when they run out', () => {
  const lengths = Array.from({ length: 40 }, (_, p) => [100 + p, 200, 300, 400]);
  const r = run(workload({ steps: 3, lengths: { kind: 'given', lengths, difficulty: null } }), 'areal');
  assert.deepEqual(
    r.steps[0]!.samples.filter((x) => x.prompt === 0).map((x) => x.length),
    [100, 200, 300, 400],
  );
  assert.throws(() => run(workload({ steps: 30, lengths: { kind: 'given', lengths, difficulty: null } }), 'areal'), /stalls|give more/);
});

/** What select may read: the state but openCompletions, and how often the rule's callbacks were told something. */
function selectInputs(state: RuleState, told: number): string {
  const ids = (gs: readonly { id: number }[]) => gs.map((g) => g.id).join(',');
  const { trainer, generator, dispatched, trained, droppedCount } = state;
  return JSON.stringify([trainer, generator, dispatched, trained, droppedCount, ids(state.ready), ids(state.inFlight), told]);
}

test('after a null, select is asked again only once what it reads has changed (and the run is the same bytes)', () => {
  const others = ['areal', 'prime-rl', 'trl-async', 'open-instruct', 'openrlhf', 'verl', 'roll', 'skyrl', 'slime'];
  const rules: [string, Record<string, string>][] = [
    ...others.map((f): [string, Record<string, string>] => [f, {}]),
    ...['windowed', 'ready_first', 'weight_fifo', 'in_order'].map((p): [string, Record<string, string>] => [
      'nemo-rl',
      { 'sampler-policy': p },
    ]),
  ];
  for (const [framework, flags] of rules) {
    const def = ruleDef(framework)!;
    const rule = def.build(
      readRuleValues(def, (f) => flags[f]),
      stress.trainBatchSize,
      stress.k,
      stress.genWorkers,
    );
    let told = 0;
    let lastNull: string | null = null;
    let asked = 0;
    const watched: StalenessRule = {
      ...rule,
      dispatched(g, state) {
        told += 1;
        rule.dispatched(g, state);
      },
      finished(g, state) {
        told += 1;
        rule.finished(g, state);
      },
      afterUpdate(state) {
        told += 1;
        return rule.afterUpdate(state);
      },
      select(state) {
        asked += 1;
        const inputs = selectInputs(state, told);
        assert.notEqual(inputs, lastNull, `${framework} ${JSON.stringify(flags)}: select asked again with nothing changed`);
        const sel = rule.select(state);
        lastNull = sel ? null : inputs;
        return sel;
      },
    };
    if (rule.synced)
      watched.synced = (state) => {
        told += 1;
        rule.synced!(state);
      };
    const result = simulate(stress, watched);
    assert.ok(asked > stress.steps, framework);
    assert.equal(JSON.stringify(result), JSON.stringify(run(stress, framework, flags)));
  }
});
