// slime's reward post-processing: slime/ray/rollout.py RolloutManager._post_process_rewards @ 624b824.
//
// With --advantage-estimator grpo/gspo/cispo/reinforce_plus_plus_baseline and rewards normalisation on
// (the default), the rewards become a float32 tensor. When there are exactly n_samples_per_prompt ×
// rollout_batch_size of them it is reshaped to rows of n by POSITION (the rollout returns each prompt's
// copies together, sorted by group); otherwise it is viewed as ONE row: the whole batch is normalised as
// a single group (open bug THUDM/slime#2230). Each row loses its mean; grpo/gspo/cispo then divide by
// its unbiased std + 1e-6 unless --disable-grpo-std-normalization (slime_validate_args also turns the
// std off when n_samples_per_prompt is 1). reinforce_plus_plus and ppo keep the raw rewards here.
import type { AdvantageDef } from '../types.ts';

export type RewardMode = 'mean-std' | 'mean' | 'raw';

const f32 = Math.fround;

export interface SlimeRewards {
  advantages: (number | null)[];
  /** True when the count is not n × rollout_batch_size and the batch became one group. */
  oneGroup: boolean;
}

/** _post_process_rewards in float32 (torch's mean/std of a row, rounded to float32 at each tensor op). */
export function slimeRewards(rewards: readonly number[], k: number, rolloutBatchSize: number, mode: RewardMode): SlimeRewards {
  if (mode === 'raw') return { advantages: [...rewards], oneGroup: false };
  const even = rewards.length === k * rolloutBatchSize;
  const width = even ? k : rewards.length;
  const useStd = mode === 'mean-std' && k !== 1;
  const out: (number | null)[] = [];
  for (let start = 0; start < rewards.length; start += width) {
    const row = rewards.slice(start, start + width).map(f32);
    const mean = f32(f32(row.reduce((s, r) => s + r, 0)) / row.length);
    const centred = row.map((r) => f32(r - mean));
    if (!useStd) {
      out.push(...centred);
      continue;
    }
    if (row.length < 2) {
      out.push(...centred.map(() => null)); // std of one value with Bessel's correction: NaN
      continue;
    }
    const m = centred.reduce((s, r) => s + r, 0) / row.length;
    const std = f32(Math.sqrt(centred.reduce((s, r) => s + (r - m) ** 2, 0) / (row.length - 1)));
    const divisor = f32(std + 1e-6);
    out.push(...centred.map((r) => f32(r / divisor)));
  }
  return { advantages: out, oneGroup: !even };
}

/** The rollout batch the advantages see: its distinct prompts (slime compares with --rollout-batch-size, which compute() is not given). */
function distinctPrompts(promptIds: readonly number[]): number {
  return new Set(promptIds).size;
}

function scheme(name: string, mode: RewardMode, about: string): AdvantageDef {
  return {
    scheme: name,
    about,
    groupBy: 'position',
    compute({ rewards, promptIds, k }) {
      const rolloutBatchSize = distinctPrompts(promptIds);
      const { advantages, oneGroup } = slimeRewards(rewards, k, rolloutBatchSize, mode);
      const warnings = oneGroup
        ? [
            `the whole batch was normalised as one group: ${rewards.length} rewards ≠ n_samples_per_prompt ${k} × rollout_batch_size ` +
              `${rolloutBatchSize}, so slime's _post_process_rewards views them as one row (open bug THUDM/slime#2230 at 624b824)`,
          ]
        : [];
      return { advantages, warnings };
    },
  };
}

export const advantages: readonly AdvantageDef[] = [
  scheme(
    'slime',
    'mean-std',
    'slime default (grpo; also gspo, cispo): rows of n by position, (r − mean) / (unbiased std + 1e-6) in float32; n = 1 turns the std off; a ' +
      'count other than n × rollout_batch_size makes the whole batch ONE group (bug #2230)',
  ),
  scheme(
    'slime-no-std',
    'mean',
    'slime --disable-grpo-std-normalization or reinforce_plus_plus_baseline: rows of n by position, r − mean; the same one-group fallback',
  ),
  scheme('slime-raw', 'raw', 'slime --disable-rewards-normalization, reinforce_plus_plus or ppo: the raw rewards (no grouping here)'),
];

/** The scheme slime's settings select. */
export function rewardMode(estimator: string, disableNormalization: boolean, disableStd: boolean): RewardMode {
  if (disableNormalization || !['grpo', 'gspo', 'cispo', 'reinforce_plus_plus_baseline'].includes(estimator)) return 'raw';
  if (estimator === 'reinforce_plus_plus_baseline' || disableStd) return 'mean';
  return 'mean-std';
}
