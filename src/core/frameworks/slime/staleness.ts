// slime (THUDM/slime @ 624b824) has no version control in its fully asynchronous rollout
// (rollout/fully_async_rollout.py, AsyncRolloutWorker): a background worker tops up groups while it has fewer than
// max_concurrent = --sglang-server-concurrency × engines running AND fewer than that many finished groups waiting, and
// each rollout takes rollout_batch_size finished groups from its queue, however old (sorted by index afterwards).
// Nothing is admitted, evicted or dropped by version: issue #1800 and PRs #1781, #2278 propose staleness control, none
// is merged at 624b824. The worker is "oblivious to slime's higher-level pause / weight-update signalling"; the
// simulation lets running groups finish under the weights they started with (an assumption: whether sglang keeps or
// aborts them across update_weights is not in this file). Lag: trainer version − the version a group started with.
import { type RuleDef, type RuleKey, type StalenessRule, fifo, settingsOf } from '../../async/rule.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: '--sglang-server-concurrency',
    flag: 'sglang-server-concurrency',
    kind: 'int',
    default: 512,
    min: 1,
    about: 'per engine; × engines (gen-workers) = groups generating at once, and the most finished groups kept waiting',
  },
];

export const slimeRule: RuleDef = {
  framework: 'slime',
  pinned: 'THUDM/slime 624b824',
  keys: KEYS,
  checkedBy: 'read from rollout/fully_async_rollout.py: no staleness setting exists; the top-up condition is transcribed',
  build(values, _batch, _k, genWorkers): StalenessRule {
    const maxConcurrent = (values['--sglang-server-concurrency'] as number) * genWorkers;
    return {
      framework: 'slime',
      settings: settingsOf(KEYS, values),
      weightSync: 'next-sample',
      syncEvery: 1,
      lagDefinition: 'trainer version − the version a group started with (slime records none)',
      admit: (state) => (state.inFlight.length < maxConcurrent && state.ready.length < maxConcurrent ? 1 : 0),
      dispatched() {},
      finished() {},
      select: (state) => fifo(state),
      afterUpdate: () => [],
      lag: (group, trainer) => trainer - group.dispatchVersion,
    };
  },
};
