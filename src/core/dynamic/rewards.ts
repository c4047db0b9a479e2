// Where a completion's reward comes from: a binary task with success probability p (the
// sparse task), or a script that fixes how many groups of each rank and draw are mixed, so
// a scenario's numbers come out exactly (seed-002: 48 → 56 → 60 → 62).
import type { Sample } from './types.ts';

export type RewardModel =
  | { kind: 'bernoulli'; p: number; seed: number }
  /** valid[draw][rank] = how many of that rank's first groups get mixed rewards; the rest tie. */
  | { kind: 'script'; valid: number[][] };

/** A uniform in [0, 1) from integer keys: a murmur3-style mix (not a stream; any key order). */
export function keyedUniform(...keys: number[]): number {
  let h = 0x9e3779b9;
  for (const key of keys) {
    h = Math.imul(h ^ (key | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 2 ** 32;
}

/** Accuracies (0/1) of the k completions of one prompt. */
export function groupAccuracies(model: RewardModel, draw: number, rank: number, prompt: number, k: number): number[] {
  if (model.kind === 'bernoulli') {
    return Array.from({ length: k }, (_, c) => (keyedUniform(model.seed, draw, rank, prompt, c) < model.p ? 1 : 0));
  }
  const mixed = prompt < (model.valid[draw]?.[rank] ?? 0);
  // Mixed: 1, 0, 1, 0, … (std > 0 when k ≥ 2). Flat: all 0 on even prompts, all 1 on odd ones (both kinds of tie).
  return Array.from({ length: k }, (_, c) => (mixed ? (c % 2 === 0 ? 1 : 0) : prompt % 2));
}

/** This rank's `prompts` × k completions of one draw, in prompt-major order (a group's k copies together). */
export function generateSamples(model: RewardModel, draw: number, rank: number, prompts: number, k: number): Sample[] {
  const out: Sample[] = [];
  for (let p = 0; p < prompts; p++) {
    const acc = groupAccuracies(model, draw, rank, p, k);
    for (let c = 0; c < k; c++) {
      out.push({
        id: `d${draw}r${rank}p${p}c${c}`,
        group: `d${draw}r${rank}p${p}`,
        origin: rank,
        draw,
        reward: acc[c]!,
        accuracy: acc[c]!,
      });
    }
  }
  return out;
}

/** Probability that a group of k binary rewards with success probability p ties: p^k + (1 − p)^k. */
export function tieProbability(p: number, k: number): number {
  return p ** k + (1 - p) ** k;
}
