// prime-rl's off-policy bound for asynchronous training (PrimeIntellect-ai/prime-rl @ 559b447), as the async simulation
// (src/core/async) applies it. The orchestrator dispatches episodes while it holds one of concurrency.max_inflight
// permits (1024; one per episode, i.e. per completion) and never waits for the trainer; the inference engines update
// weights under running requests, so a rollout can span versions. The batch being collected, progress.step, trains
// policy v{step − 1}; min_fresh_version(step, max_off_policy_steps) = (step − 1) − max_off_policy_steps
// (orchestrator/utils.py). A group shares its dispatch version (policy_version_at_start) and ages out whole:
// - Dispatcher.on_version_pending, before the weight update: in-flight train groups older than that are cancelled;
// - TrainSink._drop_stale, once per step and on each group's arrival: queued traces older than that are voided.
// Lag (episode_staleness): (step − 1) − the oldest version that generated the rollout, queue time included (#2674).
import { type RuleDef, type RuleKey, type StalenessRule, fifo, settingsOf } from '../../async/rule.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: 'orchestrator.max_off_policy_steps',
    flag: 'max-staleness',
    kind: 'int',
    default: 8,
    min: 0,
    about:
      'the version a batch trains on minus the oldest version that generated a rollout, queue time included; past it the group is dropped',
  },
  {
    key: 'orchestrator.concurrency.max_inflight',
    flag: 'max-inflight',
    kind: 'int',
    default: 1024,
    min: 1,
    about: 'episodes (completions) in flight at once; the adaptive controller moves the live cap below it, the sandbox holds it fixed',
  },
];

/** min_fresh_version: the oldest dispatch version whose episodes may still train in batch `step` (1-based). */
export function minFreshVersion(step: number, maxOffPolicySteps: number): number {
  return step - 1 - maxOffPolicySteps;
}

export const primeRlRule: RuleDef = {
  framework: 'prime-rl',
  pinned: 'PrimeIntellect-ai/prime-rl 559b447',
  keys: KEYS,
  checkedBy:
    'test/fixtures/golden-async-predicates.json: min_fresh_version and episode_staleness exec’d from orchestrator/utils.py; ' +
    'the dispatcher’s cancel and the sink’s sweep are transcribed (they need verifiers and asyncio engines)',
  build(values, _batch, k): StalenessRule {
    const maxOff = values['orchestrator.max_off_policy_steps'] as number;
    const maxInflight = values['orchestrator.concurrency.max_inflight'] as number;
    // The sandbox's trainer version v is prime-rl's step − 1 (batch `step` trains v{step − 1}).
    const fresh = (version: number, trainer: number) => version >= minFreshVersion(trainer + 1, maxOff);
    return {
      framework: 'prime-rl',
      settings: settingsOf(KEYS, values),
      weightSync: 'in-flight',
      syncEvery: 1,
      lagDefinition: '(step − 1) − the oldest version that generated the rollout (its dispatch version), queue time included',
      admit: (state) => (state.openCompletions + k <= maxInflight ? 1 : 0),
      dispatched() {},
      finished() {},
      select: (state) =>
        fifo(
          state,
          (g) => fresh(g.dispatchVersion, state.trainer),
          'stale-at-consumption',
          `TrainSink._drop_stale: past max_off_policy_steps=${maxOff}`,
        ),
      afterUpdate: (state) => [
        ...state.inFlight
          .filter((g) => !fresh(g.dispatchVersion, state.trainer))
          .map((group) => ({
            group,
            why: 'aborted-in-flight' as const,
            detail: `Dispatcher.on_version_pending: cancelled past max_off_policy_steps=${maxOff}`,
          })),
        ...state.ready
          .filter((g) => !fresh(g.dispatchVersion, state.trainer))
          .map((group) => ({
            group,
            why: 'evicted' as const,
            detail: `TrainSink._drop_stale: queued trace past max_off_policy_steps=${maxOff}`,
          })),
      ],
      lag: (group, trainer) => Math.max(0, trainer - group.dispatchVersion),
    };
  },
};
