// OpenRLHF's reward shaping for the group estimators (RemoteExperienceMaker.compute_advantages_and_returns,
// openrlhf/trainer/ppo_utils/experience_maker.py @ 3c3be62): the step's rewards are put back in generation
// order (from each micro-batch's .index), reshaped to rows of n_samples_per_prompt (so a group is n
// consecutive samples: by position), shaped per row, then clipped to --reward.clip_range (default (-10, 10))
// by compute_reward (openrlhf/models/utils.py). With gamma 1 and no KL penalty in the reward (KL as a loss,
// or no reference model) every token's advantage is that clipped value. The default estimator, gae, needs a
// critic's values and has no per-reward form here.
import { ConfigError } from '../../errors.ts';
import type { AdvantageDef } from '../types.ts';
import { VERSION, openrlhfError } from './version.ts';

/** --reward.clip_range's default. */
export const REWARD_CLIP = [-10, 10] as const;

type Shape = (row: readonly number[]) => number[];

const mean = (row: readonly number[]) => row.reduce((a, b) => a + b, 0) / row.length;

/** Tensor.std(-1): Bessel-corrected. */
function unbiasedStd(row: readonly number[]): number {
  const m = mean(row);
  return Math.sqrt(row.reduce((a, r) => a + (r - m) * (r - m), 0) / (row.length - 1));
}

const shapes: Record<string, Shape> = {
  group_norm: (row) => {
    const m = mean(row);
    const s = unbiasedStd(row);
    return row.map((r) => (r - m) / (s + 1e-9));
  },
  dr_grpo: (row) => row.map((r) => r - mean(row)),
  rloo: (row) => {
    const sum = row.reduce((a, b) => a + b, 0);
    return row.map((r) => r - (sum - r) / (row.length - 1));
  },
};

function compute(estimator: string, rewards: readonly number[], promptIds: readonly number[], k: number) {
  if (k <= 1) throw openrlhfError('AssertionError', `${estimator} requires n_samples_per_prompt > 1`, 'openrlhf/cli/train_ppo_ray.py');
  if (rewards.length % k !== 0) {
    throw new ConfigError(
      `RuntimeError: shape '[-1, ${k}]' is invalid for input of size ${rewards.length} (rewards.reshape(-1, n_samples_per_prompt) in ` +
        `compute_advantages_and_returns, ${VERSION})`,
    );
  }
  const advantages: number[] = [];
  const warnings: string[] = [];
  for (let start = 0; start < rewards.length; start += k) {
    const row = rewards.slice(start, start + k);
    const ids = promptIds.slice(start, start + k);
    if (ids.some((id) => id !== ids[0])) {
      warnings.push(
        `samples ${start}–${start + k - 1} hold prompts ${[...new Set(ids)].join(', ')}: OpenRLHF groups n consecutive samples, whatever their prompt`,
      );
    }
    if (estimator === 'group_norm' && row.every((r) => r === row[0]) && !Number.isInteger(row[0]! * 1024)) {
      warnings.push(
        `samples ${start}–${start + k - 1} all have reward ${row[0]}: OpenRLHF divides r − mean by std + 1e-9 in float32, where the mean of equal ` +
          'values can be off by one rounding step, giving large advantages instead of 0 (torch 2.13: eight rewards of 0.1 give −0.83 each); shown ' +
          'here as computed in float64',
      );
    }
    for (const a of shapes[estimator]!(row)) advantages.push(Math.min(REWARD_CLIP[1], Math.max(REWARD_CLIP[0], a)));
  }
  return { advantages, warnings };
}

const def = (scheme: string, estimator: string, about: string): AdvantageDef => ({
  scheme,
  about,
  groupBy: 'position',
  compute: ({ rewards, promptIds, k }) => compute(estimator, rewards, promptIds, k),
});

export const advantages: readonly AdvantageDef[] = [
  def(
    'openrlhf',
    'group_norm',
    '--algo.advantage.estimator group_norm (GRPO; the shipped default is gae, which needs a critic): rows of n consecutive samples, ' +
      '(r − mean) / (unbiased std + 1e-9), clipped to [−10, 10]; an all-equal group gets 0',
  ),
  def('openrlhf-dr-grpo', 'dr_grpo', '--algo.advantage.estimator dr_grpo: rows of n consecutive samples, r − mean, clipped to [−10, 10]'),
  def(
    'openrlhf-rloo',
    'rloo',
    '--algo.advantage.estimator rloo: rows of n consecutive samples, r − mean of the other n − 1, clipped to [−10, 10]',
  ),
];
