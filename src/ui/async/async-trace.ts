// What the timeline draws, recorded from the core's simulation: `simulate` reports what each step trained and what was
// dropped; the lanes need every completion's slot, start and end too, which the simulation keeps on the groups it hands
// to the rule. `traceRun` passes a rule that records those groups and otherwise only forwards to the framework's rule,
// so the result is the same as `grpo-sandbox async` prints. Pure: no DOM.
import { RULES, readRuleValues, simulate } from '../../core/async/index.ts';
import type { RuleDef, RuleValues, StalenessRule } from '../../core/async/rule.ts';
import type { AsyncResult, AsyncWorkload, DropReason, Group, Sample, TrainedStep } from '../../core/async/types.ts';

/** What became of a group by the end of the run. */
export type GroupFate =
  | { kind: 'trained'; step: number; lag: number }
  | { kind: 'dropped'; why: DropReason; detail: string; atVersion: number }
  | { kind: 'left' };

export interface AsyncTrace {
  result: AsyncResult;
  /** Every dispatched group, by id, with its completions' slots and times (start −1: never started; end −1: still decoding). */
  groups: readonly Group[];
  fates: readonly GroupFate[];
  /** Generation workers, and their slots (gen-workers × concurrency; slot = worker × concurrency + lane). */
  workers: number;
  slots: number;
  /** The run's last moment: the last step's end. */
  end: number;
}

/** `rule`, forwarding every call, with each group it is told about kept in `groups`. */
function recording(rule: StalenessRule, groups: Group[]): StalenessRule {
  const recorder: StalenessRule = {
    get framework() {
      return rule.framework;
    },
    get settings() {
      return rule.settings;
    },
    get weightSync() {
      return rule.weightSync;
    },
    get syncEvery() {
      return rule.syncEvery;
    },
    get lagDefinition() {
      return rule.lagDefinition;
    },
    admit: (state) => rule.admit(state),
    dispatched: (group, state) => {
      groups.push(group);
      rule.dispatched(group, state);
    },
    finished: (group, state) => rule.finished(group, state),
    select: (state) => rule.select(state),
    afterUpdate: (state) => rule.afterUpdate(state),
    lag: (group, trainer) => rule.lag(group, trainer),
  };
  if (rule.synced) recorder.synced = (state) => rule.synced!(state);
  return recorder;
}

/** The workload under `def`'s rule with `values`, recorded for drawing. */
export function traceRun(workload: AsyncWorkload, def: RuleDef, values: RuleValues): AsyncTrace {
  const groups: Group[] = [];
  const rule = def.build(values, workload.trainBatchSize, workload.k, workload.genWorkers);
  const result = simulate(workload, recording(rule, groups));
  const fates: GroupFate[] = groups.map(() => ({ kind: 'left' }));
  for (const step of result.steps) for (const s of step.samples) fates[s.group] = { kind: 'trained', step: step.step, lag: s.lag };
  for (const d of result.dropped) fates[d.group] = { kind: 'dropped', why: d.why, detail: d.detail, atVersion: d.atVersion };
  return {
    result,
    groups,
    fates,
    workers: workload.genWorkers,
    slots: workload.genWorkers * workload.concurrency,
    end: result.steps.at(-1)?.end ?? 0,
  };
}

/** One stretch of a completion decoded by one policy version. */
export interface Segment {
  version: number;
  from: number;
  to: number;
}

/**
 * A completion's stretches by version: the generators take version v when the step that made it ends (an in-flight update
 * reaches a running completion there), so a completion generated across updates is cut at those steps' ends. A completion
 * still decoding at the end runs to `end`; one never started has none.
 */
export function segments(sample: Sample, steps: readonly TrainedStep[], end: number): Segment[] {
  if (sample.start < 0) return [];
  const to = sample.end < 0 ? end : sample.end;
  const vs = sample.versions;
  const cuts = vs.map((v, i) => (i === 0 ? sample.start : Math.max(sample.start, Math.min(to, steps[v - 1]?.end ?? sample.start))));
  return vs.map((version, i) => ({ version, from: cuts[i]!, to: i + 1 < vs.length ? cuts[i + 1]! : to }));
}

/** One row of the side-by-side table: a framework at its shipped settings on the workload. */
export interface CompareRow {
  def: RuleDef;
  result: AsyncResult;
}

/** Every framework the core offers, at its shipped settings, on the same workload (`grpo-sandbox async --framework all`). */
export function compareAll(workload: AsyncWorkload): CompareRow[] {
  return RULES.map((def) => {
    const values = readRuleValues(def, () => undefined);
    return { def, result: simulate(workload, def.build(values, workload.trainBatchSize, workload.k, workload.genWorkers)) };
  });
}

/** A setting's value as the table shows it: the framework's own key's last part = the value ("max_staleness=4"). */
export function boundText(def: RuleDef, result: AsyncResult): string | null {
  const keys = def.keys.filter((k) => k.flag === 'max-staleness' || k.flag === 'sampler-policy');
  if (keys.length === 0) return null;
  return keys.map((k) => `${k.key.split('.').pop()!.replace(/^--/, '')}=${result.settings[k.key]}`).join(', ');
}
