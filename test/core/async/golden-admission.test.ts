// AReaL's StalenessManager and SkyRL's _AsyncStalenessManager decide which rollouts start: the async simulation's
// rules (built as the simulation builds them) replay the rollout loops of scripts/golden/async_staleness.py, whose
// admissions the frameworks' own classes decided, and must admit the same rollouts after every event.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { RuleDef } from '../../../src/core/async/rule.ts';
import { arealRule } from '../../../src/core/async/rules/areal.ts';
import { skyrlRule } from '../../../src/core/async/rules/skyrl.ts';
import { TraceState } from './rule-state.ts';

interface Trace {
  maxConcurrent: number;
  batch: number;
  maxStaleness: number;
  events: { event: 'start' | 'finish' | 'step'; rollout?: number; admitted: number[]; capacity: number }[];
}
const load = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/golden-async-${name}.json`, import.meta.url), 'utf8')) as {
    commit: string;
    traces: Trace[];
  };

const cases: [RuleDef, string, string, (t: Trace) => Record<string, number>][] = [
  [
    arealRule,
    'areal',
    '4aef98d',
    (t) => ({ 'rollout.max_head_offpolicyness': t.maxStaleness, 'rollout.max_concurrent_rollouts': t.maxConcurrent }),
  ],
  [
    skyrlRule,
    'skyrl',
    'a956457',
    (t) => ({
      'trainer.fully_async.max_staleness_steps': t.maxStaleness,
      'trainer.fully_async.num_parallel_generation_workers': t.maxConcurrent,
    }),
  ],
];

for (const [def, name, commit, values] of cases) {
  const golden = load(name);
  test(`${name}: the fixture was made from ${commit}`, () => assert.match(golden.commit, new RegExp(`^${commit}`)));
  golden.traces.forEach((trace, n) => {
    test(`${name} trace ${n} (batch ${trace.batch}, staleness ${trace.maxStaleness}, concurrency ${trace.maxConcurrent}): the same rollouts start`, () => {
      const state = new TraceState(trace.batch, 1);
      const rule = def.build(values(trace), trace.batch, 1, 1);
      trace.events.forEach((ev, i) => {
        if (ev.event === 'finish') rule.finished(state.finish(ev.rollout!), state);
        if (ev.event === 'step') {
          state.remove(state.ready.slice(0, trace.batch), true);
          state.trainer += 1;
          state.generator = state.trainer;
        }
        const admitted: number[] = [];
        while (rule.admit(state) > 0) {
          const g = state.dispatch();
          rule.dispatched(g, state);
          admitted.push(g.id);
        }
        assert.deepEqual(admitted, ev.admitted, `event ${i} (${ev.event})`);
      });
    });
  });
}
