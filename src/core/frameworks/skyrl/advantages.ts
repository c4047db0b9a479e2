// SkyRL's outcome advantages: skyrl/backends/skyrl_train/utils/ppo_utils.py @ a956457.
// A group is a uid, and SkyRL's uid is str(dataset index) (PromptDataset.__getitem__), so a group is a prompt's
// samples in the step. compute_grpo_outcome_advantage is verl's function line for line (mean, unbiased std,
// (r − mean) / (std + 1e-6), a lone sample gets mean 0 and std 1), so the sandbox's verl definition is reused.
// compute_rloo_outcome_advantage: (r − mean) · n / (n − 1); a lone sample gets 0 and a logged warning.
// Computed in float64 here; SkyRL computes in float32 (agreement to float32 precision), except one known case: for a
// group of one repeated reward that float32 cannot sum exactly (0.1, 0.7, −0.3 … with 7, 8, 16 copies) torch's mean
// misses the reward by an ulp and the tiny std + 1e-6 turns that into |A| of a few hundredths; here such a group gets 0.
import { verlAdvantages } from '../../grpo/advantages.ts';
import type { AdvantageDef } from '../types.ts';

function checkLengths(rewards: readonly number[], promptIds: readonly number[]): void {
  if (rewards.length !== promptIds.length) throw new RangeError(`SkyRL: ${rewards.length} rewards but ${promptIds.length} prompt ids`);
}

function grpo(normByStd: boolean): AdvantageDef['compute'] {
  return ({ rewards, promptIds }) => {
    checkLengths(rewards, promptIds);
    return { advantages: verlAdvantages(rewards, promptIds.map(String), normByStd), warnings: [] };
  };
}

const rloo: AdvantageDef['compute'] = ({ rewards, promptIds }) => {
  checkLengths(rewards, promptIds);
  const groups = new Map<string, number[]>();
  promptIds.forEach((p, i) => {
    const uid = String(p);
    const g = groups.get(uid);
    if (g) g.push(i);
    else groups.set(uid, [i]);
  });
  const advantages = new Array<number>(rewards.length).fill(0);
  const warnings: string[] = [];
  for (const members of groups.values()) {
    const n = members.length;
    if (n === 1) continue;
    const first = rewards[members[0]!]!;
    let s = 0;
    for (const i of members) s += rewards[i]! - first;
    const mean = first + s / n;
    for (const i of members) advantages[i] = (rewards[i]! - mean) * (n / (n - 1));
  }
  // The warning is logged per sample, in sample order.
  promptIds.forEach((p) => {
    if (groups.get(String(p))!.length === 1) warnings.push(`Only one response for prompt index ${p}, setting advantage to 0`);
  });
  return { advantages, warnings };
};

export const SKYRL_ADVANTAGES: readonly AdvantageDef[] = [
  {
    scheme: 'skyrl',
    about:
      'SkyRL grpo (default, grpo_norm_by_std true): groups by uid = dataset index; (r − mean) / (unbiased std + 1e-6); a lone sample ' +
      "gets r / (1 + 1e-6); a group of equal rewards gets 0 (SkyRL's float32 mean can leave |A| of a few hundredths there)",
    groupBy: 'uid',
    compute: grpo(true),
  },
  {
    scheme: 'skyrl-no-std',
    about: 'SkyRL grpo with trainer.algorithm.grpo_norm_by_std false (Dr. GRPO): r − group mean, no division; a lone sample keeps r',
    groupBy: 'uid',
    compute: grpo(false),
  },
  {
    scheme: 'skyrl-rloo',
    about:
      'SkyRL rloo (trainer.algorithm.advantage_estimator rloo): (r − group mean) · n / (n − 1), the leave-one-out baseline; ' +
      'a lone sample gets 0 with a warning',
    groupBy: 'uid',
    compute: rloo,
  },
];
