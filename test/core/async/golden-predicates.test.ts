// The drop and take rules the async simulation applies for TRL, open-instruct, prime-rl and ROLL, against the frameworks'
// own code exec'd by scripts/golden/async_predicates.py: TRL's RolloutQueueDataset, open-instruct's result_is_stale,
// prime-rl's min_fresh_version and episode_staleness, and ROLL's ReplayBuffer run as a rollout loop.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { resultIsStale } from '../../../src/core/async/rules/open-instruct.ts';
import { trlIsStale } from '../../../src/core/async/rules/trl-async.ts';
import { minFreshVersion, primeRlRule } from '../../../src/core/frameworks/prime-rl/staleness.ts';
import { rollRule } from '../../../src/core/frameworks/roll/staleness.ts';
import { TraceState } from './rule-state.ts';

interface RollEvent {
  event: 'advance' | 'finish' | 'batch';
  step?: number;
  prompt?: number;
  batchDone?: boolean;
  prompts?: number[];
  discarded?: number[];
  aborted?: number[];
  admitted: [number, number][];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-async-predicates.json', import.meta.url), 'utf8')) as {
  openInstruct: {
    commit: string;
    resultIsStale: { modelStep: number | null; trainingStep: number | null; maxResultAgeSteps: number | null; stale: boolean }[];
  };
  primeRl: {
    commit: string;
    rows: { step: number; maxOffPolicySteps: number; start: number; end: number; minFreshVersion: number; staleness: number[] }[];
  };
  trl: {
    version: string;
    cases: {
      k: number;
      perStep: number;
      maxStaleness: number;
      queue: { group: number; modelVersion: number }[];
      steps: { version: number; groups: number[]; dropped: number }[];
    }[];
  };
  roll: { commit: string; runs: { ratio: number; batch: number; k: number; events: RollEvent[] }[] };
};

test('open-instruct e6c3044: result_is_stale on every combination, None included', () => {
  assert.match(golden.openInstruct.commit, /^e6c3044/);
  for (const r of golden.openInstruct.resultIsStale)
    assert.equal(resultIsStale(r.modelStep, r.trainingStep, r.maxResultAgeSteps), r.stale, JSON.stringify(r));
});

test('prime-rl 559b447: min_fresh_version, and the rule’s lag and drop against episode_staleness', () => {
  assert.match(golden.primeRl.commit, /^559b447/);
  for (const r of golden.primeRl.rows) {
    assert.equal(minFreshVersion(r.step, r.maxOffPolicySteps), r.minFreshVersion);
    const rule = primeRlRule.build(
      { 'orchestrator.max_off_policy_steps': r.maxOffPolicySteps, 'orchestrator.concurrency.max_inflight': 1024 },
      1,
      1,
      1,
    );
    const state = new TraceState(1, 1);
    state.generator = r.start;
    const group = state.dispatch();
    // Batch `step` trains v{step − 1}: the sandbox's trainer version.
    assert.equal(rule.lag(group, r.step - 1), r.staleness[0], JSON.stringify(r));
    state.trainer = r.step - 1;
    state.finish(group.id);
    const sel = rule.select(state);
    const dropped = sel !== null && sel.dropped.length === 1;
    assert.equal(dropped, r.start < r.minFreshVersion, JSON.stringify(r));
  }
});

test(`TRL ${golden.trl.version}: RolloutQueueDataset yields and drops the same samples step by step`, () => {
  assert.equal(golden.trl.version, '1.13.0');
  for (const c of golden.trl.cases) {
    let next = 0;
    for (const step of c.steps) {
      const got: number[] = [];
      let dropped = 0;
      while (got.length < c.perStep) {
        const sample = c.queue[next++]!;
        if (trlIsStale(step.version, sample.modelVersion, c.maxStaleness)) dropped += 1;
        else got.push(sample.group);
      }
      assert.deepEqual({ groups: got, dropped }, { groups: step.groups, dropped: step.dropped });
    }
  }
});

test('ROLL 8eb27cc: the rule admits, takes, discards and aborts what ReplayBuffer does in a rollout loop', () => {
  assert.match(golden.roll.commit, /^8eb27cc/);
  for (const [n, run] of golden.roll.runs.entries()) {
    const state = new TraceState(run.batch, run.k);
    const rule = rollRule.build({ async_generation_ratio: run.ratio }, run.batch, run.k, 1);
    const where = (i: number) => `run ${n} (ratio ${run.ratio}, batch ${run.batch}, k ${run.k}) event ${i}`;
    const admit = () => {
      const out: [number, number][] = [];
      while (rule.admit(state) > 0) {
        const g = state.dispatch();
        rule.dispatched(g, state);
        out.push([g.id, g.stamp!]);
      }
      return out;
    };
    run.events.forEach((ev, i) => {
      if (ev.event === 'advance') state.trainer = ev.step!;
      if (ev.event === 'finish') {
        rule.finished(state.finish(ev.prompt!), state);
        assert.equal(rule.select(state) !== null, ev.batchDone, where(i));
      }
      if (ev.event === 'batch') {
        const sel = rule.select(state);
        assert.ok(sel, where(i));
        assert.deepEqual(
          sel.take.map((g) => g.id),
          ev.prompts,
          where(i),
        );
        const discarded = sel.dropped.filter((d) => d.why === 'outside-step-window').map((d) => d.group.id);
        const aborted = sel.dropped.filter((d) => d.why === 'aborted-in-flight').map((d) => d.group.id);
        assert.deepEqual([discarded.sort((a, b) => a - b), aborted.sort((a, b) => a - b)], [ev.discarded, ev.aborted], where(i));
        state.remove(sel.take, true);
        state.remove(
          sel.dropped.map((d) => d.group),
          false,
        );
      }
      assert.deepEqual(admit(), ev.admitted, `${where(i)}: admitted`);
    });
  }
});
