// NeMo RL's windowed and ready_first staleness samplers against its own code (staleness_sampler.py and
// TQReplayBuffer exec'd by scripts/golden/nemo-rl_staleness.py) on scripted event traces.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { StalenessSampler, type StalenessPolicy } from '../../../src/core/frameworks/nemo-rl/staleness.ts';

type Event =
  | { op: 'admit'; trainer: number }
  | { op: 'reserve'; group: string; weight: number }
  | { op: 'commit'; group: string }
  | { op: 'select'; trainer: number; min: number; max: number }
  | { op: 'evict'; trainer: number }
  | { op: 'abort'; start: number; trainer: number };
interface Run {
  policy: 'windowed' | 'ready_first';
  args: { max_staleness_versions: number; sample_freshest_first?: boolean };
  trace: number;
  isOnPolicy: boolean;
  requiredBufferCapacity: number | null;
  results: Record<string, unknown>[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-nemo-rl-staleness.json', import.meta.url), 'utf8')) as {
  source: { 'nemo-rl': string };
  traces: Event[][];
  runs: Run[];
  constructorErrors: { policy: Run['policy']; args: Run['args']; error: string }[];
};

function policyOf(run: Pick<Run, 'policy' | 'args'>): StalenessPolicy {
  return run.policy === 'windowed'
    ? {
        name: 'windowed',
        maxStalenessVersions: run.args.max_staleness_versions,
        sampleFreshestFirst: run.args.sample_freshest_first ?? false,
      }
    : { name: 'ready_first', maxStalenessVersions: run.args.max_staleness_versions };
}

/** One event on the sampler, answered in the fixture's shape. */
function step(sampler: StalenessSampler, ev: Event, stamp: { last: number | null }): Record<string, unknown> {
  try {
    switch (ev.op) {
      case 'admit': {
        const a = sampler.admit(ev.trainer);
        if (!a.blocked) stamp.last = a.stamp;
        return { ...(a.blocked ? { blocked: true } : { blocked: false, stamp: a.stamp }), dispatchIndex: sampler.dispatchIndex };
      }
      case 'reserve':
        sampler.reserve(ev.group, ev.weight, stamp.last);
        return {};
      case 'commit':
        sampler.commit(ev.group);
        return {};
      case 'select': {
        const groups = sampler.select(ev.trainer, ev.min, ev.max);
        return { selected: groups, count: groups ? groups.length : 0 };
      }
      case 'evict': {
        const removed = sampler.evict(ev.trainer);
        return { removed, count: removed.length };
      }
      case 'abort':
        return { abort: sampler.shouldAbortInflight(ev.start, ev.trainer) };
    }
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { error: e.message.replace(/ \(NeMo RL 7ea279a\)$/, '') };
  }
}

test('the staleness fixture comes from NeMo RL 7ea279a', () => {
  assert.equal(golden.source['nemo-rl'], '7ea279abfbeb698b092856d0dab61e7cf39bc909');
});

test(`windowed and ready_first = NeMo RL's samplers on ${golden.runs.length} trace runs`, () => {
  for (const run of golden.runs) {
    const sampler = new StalenessSampler(policyOf(run));
    const where = `${run.policy} ${JSON.stringify(run.args)} trace ${run.trace}`;
    assert.equal(sampler.isOnPolicy, run.isOnPolicy, where);
    assert.equal(sampler.requiredBufferCapacity(4), run.requiredBufferCapacity, where);
    const stamp = { last: null as number | null };
    golden.traces[run.trace]!.forEach((ev, i) => {
      const got = { ...step(sampler, ev, stamp), buffer: sampler.slots.map((s) => s.group) };
      assert.deepEqual(got, run.results[i], `${where} event ${i} ${JSON.stringify(ev)}`);
    });
  }
});

test('negative windows are refused in NeMo RL words', () => {
  for (const c of golden.constructorErrors) {
    assert.throws(() => new StalenessSampler(policyOf(c)), { message: `${c.error} (NeMo RL 7ea279a)` });
  }
});
