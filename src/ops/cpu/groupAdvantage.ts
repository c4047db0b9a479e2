// The CPU twin of shaders/groupAdvantage.wgsl: TRL's group-relative advantages for rewards laid
// out in contiguous groups of k. The definition is trlAdvantages in src/core/grpo/advantages.ts
// (every framework's variant lives there); this op only adds the batch's mean reward, which the
// kernel also writes, and returns float32 as the kernel does.
import { trlAdvantages, type ScaleRewards } from '../../core/grpo/advantages.ts';

/** rewards: B (B a multiple of k ≥ 2) → advantages: B, and the batch's mean reward. */
export function groupAdvantage(rewards: Float32Array, k: number, scale: ScaleRewards): { advantages: Float32Array; meanReward: number } {
  let sum = 0;
  for (const r of rewards) sum += r;
  return { advantages: Float32Array.from(trlAdvantages(rewards, k, scale)), meanReward: sum / rewards.length };
}
