// Group-relative advantages as TRL computes them from rewards laid out in contiguous groups
// (rewards.view(-1, G)): (r − group mean) / (std + 1e-4), std unbiased (Bessel-corrected),
// taken per group, over the whole batch, or not at all (Dr. GRPO's scale_rewards = "none").
// src/core/grpo/advantages.ts covers every framework's variant; this is the one the fused step runs.

/** TRL's scale_rewards. */
export type RewardScale = 'group' | 'batch' | 'none';
export const REWARD_SCALE_CODE: Record<RewardScale, number> = { group: 0, batch: 1, none: 2 };

function meanStd(values: Float32Array, start: number, end: number): { mean: number; std: number } {
  let sum = 0;
  for (let i = start; i < end; i++) sum += values[i]!;
  const mean = sum / (end - start);
  let sq = 0;
  for (let i = start; i < end; i++) sq += (values[i]! - mean) ** 2;
  return { mean, std: Math.sqrt(sq / (end - start - 1)) };
}

/** rewards: B (B a multiple of groupSize ≥ 2) → advantages: B, and the batch's mean reward. */
export function groupAdvantage(
  rewards: Float32Array,
  groupSize: number,
  scale: RewardScale,
): { advantages: Float32Array; meanReward: number } {
  const rows = rewards.length;
  const batch = meanStd(rewards, 0, rows);
  const advantages = new Float32Array(rows);
  for (let g = 0; g < rows; g += groupSize) {
    const group = meanStd(rewards, g, g + groupSize);
    const divisor = scale === 'none' ? 1 : (scale === 'batch' ? batch.std : group.std) + 1e-4;
    for (let i = g; i < g + groupSize; i++) advantages[i] = (rewards[i]! - group.mean) / divisor;
  }
  return { advantages, meanReward: batch.mean };
}
