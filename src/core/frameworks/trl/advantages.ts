// TRL's advantages (GRPOTrainer's rewards.view(-1, k) with its scale_rewards, and the async trainer's
// group objects): its schemes, the regrouping and scale its sampler's framework uses, and the
// advantage of the view regrouping.
import { groupBy, mean, normalise, rowsOf, std } from '../../grpo/group-stats.ts';
import { type AdvantageInput, type RegroupAdvantage, type SamplerDefault, type ScaleRewards, schemeDef } from '../../grpo/scheme-types.ts';

/** The release whose code the schemes reproduce. */
const VERSION = '1.13.0';

/**
 * TRL's async GRPO trainer (trl.experimental.async_grpo, 1.13.0): AsyncRolloutWorker._score_group
 * normalises each RolloutGroup (one prompt's completions) on its own, (r − mean) / (numpy std (ddof 0)
 * + 1e-8). Its rule for a completion whose every reward function returned None (advantage 0, left out
 * of the statistics) cannot arise here: the sandbox's rewards are finite numbers.
 */
export function trlAsyncAdvantages(rewards: ArrayLike<number>, promptIds: ArrayLike<number | string>): number[] {
  if (promptIds.length !== rewards.length) throw new RangeError(`TRL async: ${rewards.length} rewards but ${promptIds.length} prompt ids`);
  return normalise(rewards, groupBy(promptIds), (g) => ({ mean: mean(rewards, g), std: std(rewards, g, 0) }), 1e-8);
}

/**
 * TRL GRPOTrainer: `rewards.view(-1, G)` rows are the groups (whatever prompts they hold);
 * mean per row; scale 'group' divides by the row's unbiased std + 1e-4, 'batch' by the
 * unbiased std of all rewards + 1e-4, 'none' does not divide (Dr. GRPO).
 */
export function trlAdvantages(rewards: ArrayLike<number>, k: number, scale: ScaleRewards = 'group'): number[] {
  const rows = rowsOf(rewards.length, k, 'trl-view');
  const all = Array.from({ length: rewards.length }, (_, i) => i);
  const batchS = scale === 'batch' ? std(rewards, all, 1) : 0;
  return normalise(
    rewards,
    rows,
    (g) => ({ mean: mean(rewards, g), std: scale === 'batch' ? batchS : std(rewards, g, 1) }),
    1e-4,
    scale !== 'none',
  );
}

/** GRPOTrainer's schemes view the rewards as rows of k: it refuses a count that is not a multiple of k. */
const viewRefusal = ({ rewards: { length: n }, k }: AdvantageInput) =>
  n % k !== 0 ? `TRL views the ${n} rewards as rows of k=${k}; give a multiple of k rewards or another --k` : null;

const view = {
  framework: 'TRL',
  version: VERSION,
  checkedBy:
    'transcribed: a torch float64 transcription of GRPOTrainer._generate_and_score_completions (test/fixtures/golden-advantages.json, ' +
    'scripts/golden/make_fixtures.py)',
  groupBy: 'position',
  refusal: viewRefusal,
} as const;
const rows = { grouping: 'runs', ddof: 1, eps: 1e-4, loneKeepsReward: false } as const;

export const schemes = [
  schemeDef({
    scheme: 'trl-group',
    about: 'TRL scale_rewards="group": rows of view(-1, k), unbiased std per row, eps 1e-4',
    ...view,
    rule: { ...rows, batchStd: false, divide: true },
    shippedDefault: true,
    compute: ({ rewards, k }) => trlAdvantages(rewards, k, 'group'),
  }),
  schemeDef({
    scheme: 'trl-batch',
    about: 'TRL scale_rewards="batch": rows of view(-1, k) for the mean, unbiased std of the whole batch, eps 1e-4',
    ...view,
    rule: { ...rows, batchStd: true, divide: true },
    shippedDefault: false,
    compute: ({ rewards, k }) => trlAdvantages(rewards, k, 'batch'),
  }),
  schemeDef({
    scheme: 'trl-none',
    about: 'TRL scale_rewards="none" (Dr. GRPO): r − row mean, no division',
    ...view,
    rule: { ...rows, batchStd: false, divide: false },
    shippedDefault: false,
    compute: ({ rewards, k }) => trlAdvantages(rewards, k, 'none'),
  }),
  schemeDef({
    scheme: 'trl-async',
    about: "TRL 1.13.0 async_grpo (AsyncRolloutWorker._score_group): each prompt's group object alone, numpy std (ddof 0), eps 1e-8",
    framework: 'TRL async_grpo',
    version: VERSION,
    checkedBy:
      "exec'd: AsyncRolloutWorker._score_group from the installed TRL 1.13.0 wheel's source (test/fixtures/golden-trl-async-advantages.json, " +
      'scripts/golden/trl_async_advantages.py)',
    groupBy: 'group-object',
    rule: { grouping: 'prompt', ddof: 0, batchStd: false, eps: 1e-8, divide: true, loneKeepsReward: false },
    shippedDefault: true,
    refusal: () => null,
    compute: ({ rewards, promptIds }) => trlAsyncAdvantages(rewards, promptIds),
  }),
] as const;

/** What TRL does after sampling. */
export const samplerDefaults = [
  {
    sampler: 'trl',
    framework: 'TRL',
    regroup: 'view',
    scale: 'group',
    does: 'gathers each generation batch and groups with rewards.view(-1, k)',
  },
] as const satisfies readonly SamplerDefault[];

/** view → TRL: `view(-1, k)`, `scale` applies. */
export const regroupAdvantage: RegroupAdvantage<'view'> = {
  regroup: 'view',
  compute: (_gather, rewards, k, scale) => trlAdvantages(rewards, k, scale),
};
