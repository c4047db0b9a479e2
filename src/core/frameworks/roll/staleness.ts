// ROLL's asynchronous generation (alibaba/ROLL @ 8eb27cc, roll/distributed/scheduler/generate_scheduler.py ReplayBuffer),
// as the async simulation (src/core/async) applies it. Before taking step t's batch the scheduler calls
// advance_step(t): the prompt budget grows by rollout_batch_size (and, the first time with a ratio > 0, by
// ceil(rollout_batch_size × async_generation_ratio)); a new prompt may start while running + completed < budget, and
// begin() binds it to the current step. get_batch then walks the steps from min_step = t − ceil(ratio): every older
// step is skipped; at min_step it takes only int(expected × (ratio % 1)) samples when the ratio is fractional; each
// step waits while it has running prompts and too few finished samples; the current step fills the rest. gc() then
// aborts the running prompts and discards the finished ones of every step ≤ min_step. The async pipeline pauses
// sampling for the model update and resumes after it, so running prompts continue under the new weights.
// Lag: t − the step a prompt was bound to (its sampling_start_step).
import { ConfigError } from '../../errors.ts';
import { type RuleDef, type RuleDrop, type RuleKey, type RuleState, type StalenessRule, settingsOf } from '../../async/rule.ts';
import type { Group } from '../../async/types.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: 'async_generation_ratio',
    flag: 'max-staleness',
    kind: 'float',
    default: 0,
    min: 0,
    about:
      'steps generation may run ahead; 0 = synchronous; the RLVR pipeline asserts ≥ 1.0 when async; a fraction takes part of the oldest step',
  },
];

/** ReplayBuffer.get_batch's expected samples from step `step` (null: skipped), given what is still missing. */
export function expectedFromStep(step: number, current: number, ratio: number, expectedSamples: number, missing: number): number | null {
  const minStep = current - Math.ceil(ratio);
  if (step < minStep) return null;
  if (step === minStep && ratio % 1 !== 0) return Math.trunc(expectedSamples * (ratio % 1));
  return missing;
}

export const rollRule: RuleDef = {
  framework: 'roll',
  pinned: 'alibaba/ROLL 8eb27cc',
  keys: KEYS,
  checkedBy:
    'test/fixtures/golden-async-predicates.json: ReplayBuffer and ItemsGroup exec’d from generate_scheduler.py in a scripted rollout loop ' +
    '(poll admits, get_batch takes, gc discards and aborts: all compared event by event)',
  build(values, batch, k): StalenessRule {
    const ratio = values.async_generation_ratio as number;
    if (ratio > 0 && ratio < 1)
      throw new ConfigError(`AssertionError: async_generation_ratio must be >= 1.0 (ROLL 8eb27cc, rlvr_config.py), got ${ratio}`);
    let completed = 0;
    const budget = (trainer: number) => (ratio > 0 ? Math.ceil(batch * ratio) : 0) + batch * (trainer + 1);
    const take = (state: RuleState): { take: Group[] } | null => {
      const t = state.trainer;
      const expected = batch * k;
      const out: Group[] = [];
      let collected = 0;
      for (let step = t - Math.ceil(ratio); step <= t && collected < expected; step++) {
        const want = expectedFromStep(step, t, ratio, expected, expected - collected);
        if (want === null) continue;
        const finished = state.ready.filter((g) => g.stamp === step);
        const running = state.inFlight.some((g) => g.stamp === step);
        const have = finished.length * k;
        if (have < want && running) return null;
        if (step === t && have < want) return null;
        // ItemsGroup.get_batch: all finished prompts if they are no more than expected, else whole prompts until reached.
        let got = 0;
        for (const g of finished) {
          if (have > want && got >= want) break;
          out.push(g);
          got += k;
        }
        collected += got;
      }
      return collected >= expected ? { take: out } : null;
    };
    return {
      framework: 'roll',
      settings: settingsOf(KEYS, values),
      weightSync: 'in-flight',
      syncEvery: 1,
      lagDefinition: 'the step being trained − the step the prompt was bound to when it began (sampling_start_step)',
      admit: (state) => (state.inFlight.length + completed < budget(state.trainer) ? 1 : 0),
      dispatched(group, state) {
        group.stamp = state.trainer;
      },
      finished() {
        completed += 1;
      },
      select(state) {
        const got = take(state);
        if (!got) return null;
        const minStep = state.trainer - Math.ceil(ratio);
        const chosen = new Set(got.take);
        const gc = (g: Group) => g.stamp !== null && g.stamp <= minStep && !chosen.has(g);
        const dropped: RuleDrop[] = [
          ...state.ready
            .filter(gc)
            .map((group) => ({ group, why: 'outside-step-window' as const, detail: `gc: finished prompt of step ≤ ${minStep}` })),
          ...state.inFlight
            .filter(gc)
            .map((group) => ({ group, why: 'aborted-in-flight' as const, detail: `gc: running prompt of step ≤ ${minStep}` })),
        ];
        return { take: got.take, dropped };
      },
      afterUpdate: () => [],
      lag: (group, trainer) => trainer - (group.stamp ?? group.dispatchVersion),
    };
  },
};
