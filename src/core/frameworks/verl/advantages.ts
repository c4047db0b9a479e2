// verl's advantages (volcengine/verl b178a3c, verl/trainer/ppo/core_algos.py compute_grpo_outcome_advantage):
// its two schemes, the regrouping and scale its sampler's framework uses, and the advantage of the uid
// regrouping.
import { groupBy, mean, normalise, std } from '../../grpo/group-stats.ts';
import { type RegroupAdvantage, type SamplerDefault, schemeDef } from '../../grpo/scheme-types.ts';

/** verl's lone-sample divisor: `torch.tensor(1.0)` is float32, so `std + epsilon` is float32(1 + 1e-6), whatever the scores' dtype. */
const VERL_LONE_DIVISOR = Math.fround(1 + 1e-6);

/**
 * verl's GRPO outcome advantage (compute_grpo_outcome_advantage): groups by uid (one uid per draw
 * of a prompt), unbiased std, (r − mean) / (std + 1e-6); a single-member group gets mean 0 and
 * std 1 (so its advantage is r / float32(1 + 1e-6)). normByStd false (`norm_adv_by_std_in_grpo=False`,
 * Dr. GRPO): r − mean, no division (a lone sample keeps r).
 */
export function verlAdvantages(rewards: ArrayLike<number>, uids: ArrayLike<string | number>, normByStd = true): number[] {
  if (uids.length !== rewards.length) throw new RangeError(`verl: ${rewards.length} rewards but ${uids.length} uids`);
  const groups = groupBy(uids);
  const out = normalise(rewards, groups, (g) => ({ mean: mean(rewards, g), std: std(rewards, g, 1) }), 1e-6, normByStd);
  for (const g of groups) if (g.length === 1) out[g[0]!] = normByStd ? rewards[g[0]!]! / VERL_LONE_DIVISOR : rewards[g[0]!]!;
  return out;
}

const source = {
  framework: 'verl',
  version: 'b178a3c',
  checkedBy:
    "exec'd: compute_grpo_outcome_advantage from the verl checkout (test/fixtures/golden-advantages-frameworks.json, " +
    'scripts/golden/advantages_frameworks.py); also a torch float64 transcription (golden-advantages.json)',
  groupBy: 'uid',
  refusal: () => null,
} as const;
const rule = { grouping: 'prompt', ddof: 1, batchStd: false, eps: 1e-6, loneKeepsReward: true } as const;

export const schemes = [
  schemeDef({
    scheme: 'verl',
    about:
      'verl GRPO (norm_adv_by_std_in_grpo=True, the default): group by uid (one per draw of a prompt in the step), unbiased std, eps 1e-6; ' +
      'a lone sample gets mean 0, std 1',
    ...source,
    rule: { ...rule, divide: true },
    shippedDefault: true,
    compute: ({ rewards, promptIds }) => verlAdvantages(rewards, promptIds, true),
  }),
  schemeDef({
    scheme: 'verl-no-std',
    about: 'verl GRPO with norm_adv_by_std_in_grpo=False (Dr. GRPO): r − uid group mean, no division; a lone sample keeps r',
    ...source,
    rule: { ...rule, divide: false },
    shippedDefault: false,
    compute: ({ rewards, promptIds }) => verlAdvantages(rewards, promptIds, false),
  }),
] as const;

/** What verl does after sampling. */
export const samplerDefaults = [
  {
    sampler: 'verl',
    framework: 'verl',
    regroup: 'uid',
    scale: 'group',
    does: 'holds the whole batch on the driver, groups by the uid each prompt got before repeat (compute_grpo_outcome_advantage)',
  },
] as const satisfies readonly SamplerDefault[];

/** uid → verl: groups by uid. */
export const regroupAdvantage: RegroupAdvantage<'uid'> = {
  regroup: 'uid',
  compute: (gather, rewards) =>
    verlAdvantages(
      rewards,
      gather.samples.map((s) => s.uid),
    ),
};
