// NeMo RL's GRPO advantages (algorithms/advantage_estimator.py GRPOAdvantageEstimator and
// algorithms/utils.py calculate_baseline_and_std_per_prompt @ 7ea279a), restated in doubles.
// Groups are prompts by content (torch.unique over the prompt token ids), so two draws of one prompt
// in a step are one group. With the leave-one-out baseline (the default) each sample's baseline and
// std come from the group's other samples (Bessel-corrected); advantage = reward − baseline, divided
// by std + 1e-6 only where std > 0. A group of one keeps baseline = reward (advantage 0).
import type { AdvantageDef } from '../types.ts';

const EPSILON = 1e-6;

/** Baseline and std per sample, as calculate_baseline_and_std_per_prompt computes them (every sample valid). */
export function baselineAndStd(rewards: readonly number[], promptIds: readonly number[], leaveOneOut: boolean) {
  const baseline = rewards.map(() => 0);
  const std = rewards.map(() => 0);
  const groups = new Map<number, number[]>();
  promptIds.forEach((p, i) => {
    const g = groups.get(p);
    if (g) g.push(i);
    else groups.set(p, [i]);
  });
  for (const members of groups.values()) {
    if (members.length <= 1) {
      for (const i of members) baseline[i] = rewards[i]!;
      continue;
    }
    const valid = members.length - (leaveOneOut ? 1 : 0);
    for (const i of members) {
      // One row of the (1 − eye) or ones matrix times the group's rewards (and their squares).
      let sum = 0;
      let sumSq = 0;
      for (const j of members) {
        const w = leaveOneOut && j === i ? 0 : 1;
        sum += w * rewards[j]!;
        sumSq += w * rewards[j]! ** 2;
      }
      const mean = sum / valid;
      baseline[i] = mean;
      // NeMo counts the valid samples with .float(): the Bessel factor n/(n−1) is a float32 even in a float64 run.
      const s = Math.sqrt((sumSq / valid - mean * mean) * Math.fround(valid / (valid - 1)));
      // .nan_to_num(0): NaN → 0, +inf → the largest double.
      std[i] = Number.isNaN(s) ? 0 : s === Infinity ? Number.MAX_VALUE : s;
    }
  }
  return { baseline, std };
}

function grpoAdvantages(leaveOneOut: boolean): AdvantageDef['compute'] {
  return ({ rewards, promptIds }) => {
    const { baseline, std } = baselineAndStd(rewards, promptIds, leaveOneOut);
    const advantages = rewards.map((r, i) => {
      const a = (r - baseline[i]!) / (std[i]! > 0 ? std[i]! + EPSILON : 1);
      return Number.isNaN(a) ? null : a;
    });
    return { advantages, warnings: [] };
  };
}

export const NEMO_RL_ADVANTAGES: readonly AdvantageDef[] = [
  {
    scheme: 'nemo-rl',
    about:
      'NeMo RL default (use_leave_one_out_baseline, normalize_rewards): groups by prompt content; baseline = mean of the other k−1, ' +
      'std = Bessel-corrected std of the other k−1; divides by std + 1e-6 only where std > 0 (so a lone dissenter keeps reward − baseline); a ' +
      'group of one gets 0',
    groupBy: 'prompt-content',
    compute: grpoAdvantages(true),
  },
  {
    scheme: 'nemo-rl-no-loo',
    about:
      'NeMo RL with grpo.use_leave_one_out_baseline: false: groups by prompt content; group mean, Bessel-corrected (n−1) group std; ' +
      'divides by std + 1e-6 only where std > 0; a group of one gets 0',
    groupBy: 'prompt-content',
    compute: grpoAdvantages(false),
  },
];
