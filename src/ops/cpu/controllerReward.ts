import { configReward } from '../../core/env/controller.ts';

/**
 * Rewards of a batch of configurations. Row r is configuration r of input r / k (the
 * group's k copies are contiguous). actions: 4 arrays of rows; difficulty, budgetMs: per input.
 */
export function controllerReward(
  tier: Uint32Array,
  insertion: Uint32Array,
  topK: Uint32Array,
  knob3: Uint32Array,
  difficulty: Float32Array,
  budgetMs: Float32Array,
  k: number,
): Float32Array {
  const rewards = new Float32Array(tier.length);
  for (let r = 0; r < tier.length; r++) {
    const input = Math.floor(r / k);
    rewards[r] = configReward(
      { tier: tier[r]!, insertion: insertion[r]!, topK: topK[r]!, knob3: knob3[r]! },
      difficulty[input]!,
      budgetMs[input]!,
    ).reward;
  }
  return rewards;
}
