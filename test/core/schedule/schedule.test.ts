// The schedule simulator (src/core/schedule): seed-001's figures, the invariants every timeline
// must keep for any setting, by-structure against per-rank-serial, edge cases, and latencies drawn
// from a policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SCHEMES,
  caption,
  headline,
  parseHeadTables,
  sampleActions,
  schedulePresets,
  simulateSchedules,
  uniformPolicy,
  type ControllerPolicy,
  type ScheduleConfig,
  type ScheduleResult,
  type SchemeName,
} from '../../../src/core/schedule/index.ts';
import { ConfigError } from '../../../src/core/errors.ts';
import { knob3Valid } from '../../../src/core/env/controller.ts';

const seed001 = schedulePresets['seed-001']!.config;
const constant = (t = 1) => ({ kind: 'constant' as const, t, unit: 'T' });
const controller = (policy: ControllerPolicy = uniformPolicy()) => ({ kind: 'controller' as const, policy });

function scheme(r: ScheduleResult, name: SchemeName) {
  return r.schemes.find((s) => s.scheme === name)!;
}

/** A policy that always picks the same configuration. */
function fixedPolicy(tier: number, insertion: number, topK: number, knob3: number): ControllerPolicy {
  const hot = (n: number, i: number) => Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));
  return {
    name: 'fixed',
    tables: [parseHeadTables({ tier: hot(3, tier), insertion: hot(5, insertion), topK: hot(5, topK), knob3: hot(16, knob3) }, 'test')],
  };
}

test('seed-001: batch 4, group 5, 4 GPUs → serial-dp 20T, per-rank-batched 5T (α = 0), a 4× speed-up', () => {
  const r = simulateSchedules(seed001);
  assert.equal(r.configurations.length, 20);
  assert.equal(scheme(r, 'serial-dp').makespan, 20);
  assert.equal(scheme(r, 'per-rank-batched').makespan, 5);
  assert.equal(scheme(r, 'per-rank-batched').speedup, 4);
  assert.equal(scheme(r, 'per-rank-batched').launches, 4);
  assert.equal(scheme(r, 'per-rank-batched').peakBatch, 5);
  assert.equal(scheme(r, 'per-rank-serial').makespan, 5);
  // Today's code keeps ranks 1–3 idle for the whole step.
  assert.deepEqual(scheme(r, 'serial-dp').idleFraction, [0, 1, 1, 1]);
  assert.deepEqual(scheme(r, 'per-rank-batched').idleFraction, [0, 0, 0, 0]);
  // Spread: 5 configurations per rank (Config1-5 wraps to rank 0), then the gather (10% of T).
  const spread = scheme(r, 'spread');
  assert.deepEqual(
    spread.timeline[0]!.filter((i) => i.kind === 'run').map((i) => r.configurations[i.configs[0]!]!.id),
    ['1-1', '1-5', '2-4', '3-3', '4-2'],
  );
  assert.ok(Math.abs(spread.makespan - 5.1) < 1e-12);
});

test('seed-001 with α > 0: a batch of 5 costs (5 − 4α)T, i.e. 4αT less than the seed’s 5T', () => {
  for (const alpha of [0.1, 0.25, 0.5, 1]) {
    const r = simulateSchedules({ ...seed001, alpha });
    assert.ok(Math.abs(scheme(r, 'per-rank-batched').makespan - (5 - 4 * alpha)) < 1e-12, `α = ${alpha}`);
    assert.equal(scheme(r, 'serial-dp').makespan, 20, 'batch 1 never benefits from α');
  }
});

test('1 GPU with batch 1 (one sample, group 5) takes 5T', () => {
  const r = simulateSchedules({ ...seed001, ranks: 1, batch: 1 });
  for (const name of ['serial-dp', 'per-rank-serial', 'spread'] as const) assert.equal(scheme(r, name).makespan, 5, name);
  assert.equal(scheme(r, 'spread').timeline[0]!.length, 5, 'one rank has nobody to gather from');
});

/** Every invariant a timeline must keep. */
function checkInvariants(c: ScheduleConfig, label: string): ScheduleResult {
  const r = simulateSchedules(c);
  const n = c.batch * c.k;
  const work = r.configurations.reduce((a, x) => a + x.latency, 0);
  for (const s of r.schemes) {
    const where = `${label} ${s.scheme}`;
    assert.equal(s.timeline.length, c.ranks, where);
    // Every configuration runs exactly once.
    const ran = s.timeline.flat().flatMap((i) => i.configs);
    assert.equal(ran.length, n, `${where}: ${ran.length} runs for ${n} configurations`);
    assert.deepEqual(
      [...ran].sort((a, b) => a - b),
      Array.from({ length: n }, (_, i) => i),
      where,
    );
    // No rank runs two things at once; each launch lasts what the batching model says.
    for (const t of s.timeline) {
      let prev = 0;
      for (const i of t) {
        assert.ok(i.start >= prev - 1e-9 && i.end >= i.start, `${where}: overlap at ${i.start}`);
        prev = i.end;
        if (i.kind === 'run') {
          const slowest = Math.max(...i.configs.map((x) => r.configurations[x]!.latency));
          const b = i.configs.length;
          assert.ok(Math.abs(i.end - i.start - slowest * (c.alpha + (1 - c.alpha) * b)) < 1e-9, where);
          if (c.maxBatch !== null) assert.ok(b <= c.maxBatch, `${where}: launch of ${b} over the cap ${c.maxBatch}`);
        }
      }
    }
    // The makespan is no less than the work spread evenly (batching can save at most α of it).
    assert.ok(s.makespan >= ((1 - c.alpha) * work) / c.ranks - 1e-9, `${where}: ${s.makespan} < work/ranks`);
    assert.ok(s.makespan >= s.runTime / c.ranks - 1e-9, where);
    for (const f of s.idleFraction) assert.ok(f >= 0 && f <= 1, where);
    assert.equal(s.launches, s.timeline.flat().filter((i) => i.kind === 'run').length);
  }
  return r;
}

/** A grid of settings: small and odd sizes, all α extremes, caps, both latency models. */
function* grid(): Generator<[ScheduleConfig, string]> {
  for (const ranks of [1, 2, 3, 4, 7])
    for (const batch of [1, 2, 5, 9])
      for (const k of [1, 2, 5, 8])
        for (const alpha of [0, 0.35, 1])
          for (const maxBatch of [null, 1, 3]) {
            const base = { ranks, batch, k, alpha, maxBatch, gatherCost: null, seed: ranks * 1000 + batch * 10 + k };
            yield [{ ...base, latency: constant(2) }, `constant W${ranks} B${batch} k${k} α${alpha} cap${maxBatch}`];
            yield [{ ...base, latency: controller() }, `controller W${ranks} B${batch} k${k} α${alpha} cap${maxBatch}`];
          }
}

test('invariants for every scheme on a grid of settings: each configuration once, no overlap, makespan ≥ work/ranks', () => {
  let cases = 0;
  for (const [c, label] of grid()) {
    checkInvariants(c, label);
    cases++;
  }
  assert.equal(cases, 5 * 4 * 4 * 3 * 3 * 2);
});

test('by-structure is never slower than per-rank-serial', () => {
  for (const [c, label] of grid()) {
    const r = simulateSchedules(c);
    assert.ok(scheme(r, 'by-structure').makespan <= scheme(r, 'per-rank-serial').makespan * (1 + 1e-12), label);
  }
  // Including a policy that draws few structures, where batching pays.
  const few: ControllerPolicy = {
    name: 'few',
    tables: [parseHeadTables({ tier: [1, 0, 1], insertion: [1, 0, 0, 0, 0], topK: [0, 0, 0, 0, 1], knob3: Array(16).fill(1) }, 'test')],
  };
  const r = simulateSchedules({ ...seed001, batch: 16, k: 8, alpha: 0.6, latency: controller(few) });
  assert.ok(scheme(r, 'by-structure').makespan < scheme(r, 'per-rank-serial').makespan);
  assert.ok(scheme(r, 'by-structure').peakBatch > 1);
});

test('edge: more ranks than configurations', () => {
  const c: ScheduleConfig = { ...seed001, ranks: 8, batch: 1, k: 3, gatherCost: 0.5 };
  const r = checkInvariants(c, 'W8 B1 k3');
  // DDP: the one sample sits on rank 0; the other 7 ranks have nothing to do.
  assert.equal(scheme(r, 'per-rank-serial').makespan, 3);
  assert.deepEqual(scheme(r, 'per-rank-serial').idleFraction, [0, 1, 1, 1, 1, 1, 1, 1]);
  // Spread puts one configuration on each of ranks 0–2, then all 8 ranks join the gather.
  assert.equal(scheme(r, 'spread').makespan, 1.5);
  assert.deepEqual(scheme(r, 'spread').idleFraction, [0, 0, 0, 1 - 0.5 / 1.5, 1 - 0.5 / 1.5, 1 - 0.5 / 1.5, 1 - 0.5 / 1.5, 1 - 0.5 / 1.5]);
});

test('edge: group 1 (one configuration per sample) and batching cap 1', () => {
  // Group 1: each group is one configuration, whole on one rank, so spread has nothing to gather.
  const g1 = checkInvariants({ ...seed001, k: 1, alpha: 0.5 }, 'k1');
  for (const s of g1.schemes) if (s.scheme !== 'serial-dp') assert.ok(Math.abs(s.makespan - 1) < 1e-12, `${s.scheme}: ${s.makespan}`);
  const cap1 = checkInvariants({ ...seed001, alpha: 0.5, maxBatch: 1 }, 'cap 1');
  for (const s of cap1.schemes) assert.equal(s.peakBatch, 1, s.scheme);
  assert.equal(scheme(cap1, 'per-rank-batched').makespan, scheme(cap1, 'per-rank-serial').makespan);
  // A cap of 2 splits each sample's 5 into 2 + 2 + 1: 3 launches of T·(α + (1−α)·b).
  const cap2 = simulateSchedules({ ...seed001, alpha: 0.5, maxBatch: 2 });
  assert.equal(scheme(cap2, 'per-rank-batched').makespan, 1.5 + 1.5 + 1);
  assert.equal(scheme(cap2, 'per-rank-batched').launches, 12);
});

test('latencies drawn from a policy: a fixed configuration costs the controller task’s prefill latency', () => {
  // high tier (12 crops), insertion after block 1, top-K 8, 15 further blocks: 1 + 1.5·12 + 15·(1 + 0.15·8) = 52 ms.
  const r = simulateSchedules({ ...seed001, alpha: 0.5, latency: controller(fixedPolicy(2, 0, 4, 15)) });
  for (const x of r.configurations) {
    assert.ok(Math.abs(x.latency - 52) < 1e-9, String(x.latency));
    assert.deepEqual(x.actions, { tier: 2, insertion: 0, topK: 4, knob3: 15 });
  }
  assert.equal(r.unit, 'ms');
  assert.ok(Math.abs(scheme(r, 'serial-dp').makespan - 20 * 52) < 1e-9);
  // One structure: by-structure batches each rank's 5 like per-rank-batched, 52·(0.5 + 0.5·5) ms.
  assert.ok(Math.abs(scheme(r, 'by-structure').makespan - 52 * 3) < 1e-9);
  assert.equal(scheme(r, 'by-structure').launches, 4);
  // low tier (3 crops), insertion after block 5, top-K 4, 7 further blocks: 5 + 4.5 + 7·1.6 = 20.7 ms.
  const low = simulateSchedules({ ...seed001, latency: controller(fixedPolicy(0, 4, 0, 7)) });
  assert.ok(Math.abs(low.configurations[0]!.latency - 20.7) < 1e-9);
});

test('the uniform policy draws every head uniformly and knob 3 only where valid; draws are seeded', () => {
  const actions = sampleActions(uniformPolicy(), 1000, 20, 7);
  const freq = (f: (a: (typeof actions)[0]) => number, n: number) => {
    const counts = Array(n).fill(0);
    for (const a of actions) counts[f(a)]++;
    return counts.map((x) => x / actions.length);
  };
  for (const p of freq((a) => a.tier, 3)) assert.ok(Math.abs(p - 1 / 3) < 0.015, String(p));
  for (const p of freq((a) => a.insertion, 5)) assert.ok(Math.abs(p - 1 / 5) < 0.015, String(p));
  for (const p of freq((a) => a.topK, 5)) assert.ok(Math.abs(p - 1 / 5) < 0.015, String(p));
  for (const a of actions) assert.ok(knob3Valid(a.insertion + 1, a.knob3), JSON.stringify(a));
  // Given insertion p, the five valid knob-3 options are equally likely.
  const afterBlock3 = actions.filter((a) => a.insertion === 2);
  for (let n = 9; n <= 13; n++) {
    const share = afterBlock3.filter((a) => a.knob3 === n).length / afterBlock3.length;
    assert.ok(Math.abs(share - 0.2) < 0.03, `n=${n}: ${share}`);
  }
  assert.deepEqual(sampleActions(uniformPolicy(), 4, 5, 7), sampleActions(uniformPolicy(), 4, 5, 7));
  assert.notDeepEqual(sampleActions(uniformPolicy(), 4, 5, 7), sampleActions(uniformPolicy(), 4, 5, 8));
});

test('policy tables: per-insertion stage-2 tables, and one-line errors for bad ones', () => {
  const perInsertion = parseHeadTables(
    {
      tier: [1, 1, 1],
      insertion: [1, 1, 0, 0, 0],
      topK: [
        [1, 0, 0, 0, 0],
        [0, 0, 0, 0, 1],
        [1, 1, 1, 1, 1],
        [1, 1, 1, 1, 1],
        [1, 1, 1, 1, 1],
      ],
      knob3: Array(16).fill(1),
    },
    'p.json',
  );
  const drawn = sampleActions({ name: 'p', tables: [perInsertion] }, 50, 4, 1);
  for (const a of drawn) assert.equal(a.topK, a.insertion === 0 ? 0 : 4);
  const bad: [unknown, RegExp][] = [
    [[1, 2], /expected an object/],
    [{ tier: [1, 1, 1], insertion: [1, 1, 1, 1, 1], topK: [1, 1, 1, 1, 1] }, /missing "knob3"/],
    [{ tier: [1, 1], insertion: [1, 1, 1, 1, 1], topK: [1, 1, 1, 1, 1], knob3: Array(16).fill(1) }, /tier must be an array of 3/],
    [{ tier: [1, -1, 1], insertion: [1, 1, 1, 1, 1], topK: [1, 1, 1, 1, 1], knob3: Array(16).fill(1) }, /non-negative/],
    [{ tier: [0, 0, 0], insertion: [1, 1, 1, 1, 1], topK: [1, 1, 1, 1, 1], knob3: Array(16).fill(1) }, /sums to 0/],
    // Only n = 0…8 weighted: none is valid after block 3 (needs 9…13).
    [
      { tier: [1, 1, 1], insertion: [0, 0, 1, 0, 0], topK: [1, 1, 1, 1, 1], knob3: [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0] },
      /valid after block 3 \(n = 9, 10, 11, 12, 13\)/,
    ],
  ];
  for (const [json, message] of bad) {
    assert.throws(
      () => parseHeadTables(json, 'p.json'),
      (err: Error) => err instanceof ConfigError && message.test(err.message) && !err.message.includes('\n'),
    );
  }
});

test('settings no scheme can run are ConfigErrors', () => {
  const bad: [Partial<ScheduleConfig>, RegExp][] = [
    [{ ranks: 0 }, /ranks must be a whole number ≥ 1/],
    [{ k: 1.5 }, /k must be a whole number/],
    [{ alpha: 1.2 }, /alpha must be in \[0, 1\]/],
    [{ maxBatch: 0 }, /max-batch/],
    [{ latency: constant(0) }, /positive/],
    [{ gatherCost: -1 }, /gather-cost/],
    [{ batch: 1000, k: 1000 }, /100000/],
  ];
  for (const [change, message] of bad) assert.throws(() => simulateSchedules({ ...seed001, ...change }), message);
});

test('every scheme is reported, serial-dp first as the speed-up reference', () => {
  const r = simulateSchedules({ ...seed001, latency: controller(), alpha: 0.3 });
  assert.deepEqual(
    r.schemes.map((s) => s.scheme),
    [...SCHEMES],
  );
  assert.equal(r.schemes[0]!.speedup, 1);
  for (const s of r.schemes) assert.ok(Math.abs(s.speedup - r.schemes[0]!.makespan / s.makespan) < 1e-12);
});

test('spread pays the gather only when some group’s configurations sit on more than one rank', () => {
  const gathers = (r: ScheduleResult) => scheme(r, 'spread').timeline.map((t) => t.filter((i) => i.kind === 'gather').length);
  // k = 1: every group is one configuration, on one rank; nothing to gather, on any rank count.
  for (const ranks of [1, 2, 4, 7]) {
    const r = simulateSchedules({ ...seed001, ranks, k: 1, gatherCost: 0.5 });
    assert.deepEqual(gathers(r), Array(ranks).fill(0), `W${ranks} k1`);
    assert.equal(scheme(r, 'spread').makespan, scheme(r, 'per-rank-serial').makespan, `W${ranks} k1`);
    if (ranks > 1) assert.match(caption(r, scheme(r, 'spread')), /no group spans ranks and nothing is gathered/);
  }
  // k ≥ 2 on ≥ 2 ranks: round-robin splits every group, so every rank joins one gather.
  for (const [ranks, k] of [
    [2, 2],
    [4, 5],
    [7, 3],
  ] as const) {
    const r = simulateSchedules({ ...seed001, ranks, k, gatherCost: 0.5 });
    assert.deepEqual(gathers(r), Array(ranks).fill(1), `W${ranks} k${k}`);
    assert.match(caption(r, scheme(r, 'spread')), /all-gather of the results \(0\.5T\)/);
  }
});

test('captions print numbers without float noise: 1 − α at α = 0.7, 0.8, 0.9 reads 0.3, 0.2, 0.1', () => {
  for (const [alpha, rest, cost, saved] of [
    [0.7, '0.3', '2.2', '2.8'],
    [0.8, '0.2', '1.8', '3.2'],
    [0.9, '0.1', '1.4', '3.6'],
  ] as const) {
    const r = simulateSchedules({ ...seed001, alpha });
    const text = caption(r, scheme(r, 'per-rank-batched'));
    assert.ok(text.includes(`T·(${alpha} + ${rest}·5) = ${cost}·T, ${saved}·T less`), text);
    for (const t of [headline(r), ...r.schemes.map((s) => caption(r, s))]) assert.doesNotMatch(t, /\d\.\d{6,}/, t);
  }
  // A user's own digits survive.
  const r = simulateSchedules({ ...seed001, alpha: 0.123456 });
  assert.ok(caption(r, scheme(r, 'per-rank-batched')).includes('T·(0.123456 + 0.876544·5) = 4.506176·T'));
});
