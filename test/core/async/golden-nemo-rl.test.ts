// NeMo RL's four built-in staleness samplers, as the async simulation builds them (makeSampler: the home's
// StalenessSampler with each policy), against NeMo RL's own
// classes exec'd by scripts/golden/async_staleness.py on scripted admit / reserve / commit / select / evict / abort traces.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { makeSampler } from '../../../src/core/async/rules/nemo-rl.ts';
import { ConfigError } from '../../../src/core/errors.ts';

type Event =
  | { op: 'admit'; trainer: number }
  | { op: 'reserve'; group: string; weight: number }
  | { op: 'commit'; group: string }
  | { op: 'select'; trainer: number; min: number; max: number }
  | { op: 'evict'; trainer: number }
  | { op: 'abort'; start: number; trainer: number };
interface Run {
  policy: 'windowed' | 'ready_first' | 'weight_fifo' | 'in_order';
  args: { max_staleness_versions?: number; max_lookahead_versions?: number; sample_freshest_first?: boolean };
  trace: number;
  isOnPolicy: boolean;
  requiredBufferCapacity: number | null;
  results: Record<string, unknown>[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-async-nemo-rl.json', import.meta.url), 'utf8')) as {
  commit: string;
  traces: Event[][];
  runs: Run[];
};

function replay(run: Run, events: Event[]): Record<string, unknown>[] {
  const sampler = makeSampler(
    run.policy,
    run.args.max_staleness_versions ?? 0,
    run.args.max_lookahead_versions ?? 0,
    run.args.sample_freshest_first ?? false,
  );
  let stamp: number | null = null;
  return events.map((ev) => {
    let rec: Record<string, unknown> = {};
    try {
      if (ev.op === 'admit') {
        const a = sampler.admit(ev.trainer);
        if (!a.blocked) stamp = a.stamp;
        rec = a.blocked ? { blocked: true } : { blocked: false, stamp: a.stamp };
        rec.dispatchIndex = sampler.dispatchIndex;
      } else if (ev.op === 'reserve') sampler.reserve(ev.group, ev.weight, stamp);
      else if (ev.op === 'commit') sampler.commit(ev.group);
      else if (ev.op === 'select') {
        const got = sampler.select(ev.trainer, ev.min, ev.max);
        rec = { selected: got, count: got?.length ?? 0 };
      } else if (ev.op === 'evict') {
        const removed = sampler.evict(ev.trainer);
        rec = { removed, count: removed.length };
      } else {
        rec = { abort: sampler.shouldAbortInflight(ev.start, ev.trainer) };
      }
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      rec = { error: e.message.replace(/ \(NeMo RL 7ea279a\)$/, '') };
    }
    rec.buffer = sampler.slots.map((s) => s.group);
    return rec;
  });
}

test('the fixture was made from NeMo RL 7ea279a and covers all four built-in policies', () => {
  assert.match(golden.commit, /^7ea279a/);
  assert.deepEqual([...new Set(golden.runs.map((r) => r.policy))].sort(), ['in_order', 'ready_first', 'weight_fifo', 'windowed']);
});

for (const run of golden.runs) {
  test(`${run.policy} ${JSON.stringify(run.args)} on trace ${run.trace}: every answer and the buffer after it`, () => {
    const sampler = makeSampler(run.policy, run.args.max_staleness_versions ?? 0, run.args.max_lookahead_versions ?? 0, false);
    assert.equal(sampler.isOnPolicy, run.isOnPolicy);
    assert.equal(sampler.requiredBufferCapacity(4), run.requiredBufferCapacity);
    const got = replay(run, golden.traces[run.trace]!);
    got.forEach((rec, i) => assert.deepEqual(rec, run.results[i], `event ${i}: ${JSON.stringify(golden.traces[run.trace]![i])}`));
  });
}
