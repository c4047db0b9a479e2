// Rewards for demonstrations when no real reward model runs: deterministic in (seed, sample),
// so a shared link shows the same numbers. Two sources: uniform noise, and a toy pass/fail
// "reward model" where each prompt has a difficulty — it produces tied (zero-std) groups as
// real binary rewards do.

/** Where demonstration rewards come from. */
export type RewardSource = 'random' | 'model';

/** A 32-bit integer hash of several keys (murmur3's finaliser per key), as a float in [0, 1). */
export function hashUnit(...keys: number[]): number {
  let h = 0x9e3779b9;
  for (const key of keys) {
    let k = Math.imul(key | 0, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** The toy reward model's chance that a completion of `promptId` passes, in [0.05, 0.95]. */
export function promptPassRate(seed: number, promptId: number): number {
  return 0.05 + 0.9 * hashUnit(seed, promptId, 0x51ed);
}

/**
 * One reward per gathered sample of gather `gatherIndex`: uniform in [0, 1) for 'random';
 * 1 or 0 for 'model' (pass with the prompt's pass rate). promptIds in gathered order.
 */
export function toyRewards(source: RewardSource, seed: number, gatherIndex: number, promptIds: readonly number[]): number[] {
  return promptIds.map((promptId, i) => {
    const u = hashUnit(seed, gatherIndex, i);
    return source === 'random' ? u : u < promptPassRate(seed, promptId) ? 1 : 0;
  });
}
