// AReaL's GRPO advantages, areal/trainer/ppo/actor.py PPOActor._compute_advantages @ 4aef98d with
// areal/utils/data.py Normalization. Stage 1 (float32): (reward + reward_bias) × reward_scaling, clipped to
// ±reward_clip; then actor.reward_norm. Stage 2: with kl_ctl 0, discount 1, gae_lambda 1 and no critic, GAE gives
// every response token the sample's stage-1 value; then actor.adv_norm over the tokens of the whole batch (it
// all-reduces over the data-parallel group). Normalization groups by position: rows i·g … i·g+g−1 of the batch with
// g = group_size (the examples set ${gconfig.n_samples}); a trajectory dict keeps its n samples together, so a
// position block is one prompt's group. Statistics in float64, results rounded to float32.
import type { AdvantageDef } from '../types.ts';

export type Level = 'batch' | 'group' | null;

/** NormConfig: defaults mean/std level 'batch', std_unbiased true, eps 1e-5, no leave-one-out, group_size 1. */
export interface NormConfig {
  meanLevel: Level;
  meanLeave1out?: boolean;
  stdLevel: Level;
  stdUnbiased?: boolean;
  eps?: number;
}

const f32 = Math.fround;

/** _compute_mean over `xs` (each value counted `weight` times: its masked tokens): per element, as broadcast. */
function meanOf(xs: readonly number[], weight: number, leaveOneOut: boolean): number[] {
  const factor = xs.length * weight;
  const sum = xs.reduce((s, x) => s + x * weight, 0);
  if (leaveOneOut) {
    if (factor <= 1) return xs.map(() => 0);
    // (total − own masked value) / max(factor − mask, 1), mask 1 on every token counted here.
    return xs.map((x) => (sum - x) / (factor - 1));
  }
  if (factor === 0) return xs.map(() => 0);
  return xs.map(() => sum / factor);
}

/** _compute_std given the per-element mean. */
function stdOf(xs: readonly number[], means: readonly number[], weight: number, unbiased: boolean): number {
  const factor = xs.length * weight;
  const sq = xs.reduce((s, x, i) => s + (x - means[i]!) ** 2 * weight, 0);
  if (unbiased) return factor <= 1 ? 1 : Math.sqrt(sq / (factor - 1));
  return factor === 0 ? 1 : Math.sqrt(sq / factor);
}

/**
 * Normalization.__call__ on per-sample values `xs` whose samples each carry `tokens` equal masked tokens (1 for the
 * reward stage, which has no mask). Rows past the last whole group keep mean 0 and std 0 (AReaL's zeros_like).
 */
export function normalize(xs: readonly number[], cfg: NormConfig, groupSize: number, tokens = 1): number[] {
  const n = xs.length;
  const unbiased = cfg.stdUnbiased ?? true;
  let eps = cfg.eps ?? 1e-5;
  const groups = Math.floor(n / groupSize);
  const blocks = (fn: (lo: number, hi: number) => void) => {
    for (let g = 0; g < groups; g++) fn(g * groupSize, (g + 1) * groupSize);
  };
  let mean = new Array<number>(n).fill(0);
  if (cfg.meanLevel === 'batch') mean = meanOf(xs, tokens, cfg.meanLeave1out ?? false);
  else if (cfg.meanLevel === 'group') {
    blocks((lo, hi) => {
      const m = groupSize === 1 && cfg.meanLeave1out ? [0] : meanOf(xs.slice(lo, hi), tokens, cfg.meanLeave1out ?? false);
      for (let i = lo; i < hi; i++) mean[i] = m.length === 1 ? m[0]! : m[i - lo]!;
    });
  }
  let std = new Array<number>(n).fill(0);
  if (cfg.stdLevel === 'batch') std.fill(stdOf(xs, mean, tokens, unbiased));
  else if (cfg.stdLevel === 'group') {
    blocks((lo, hi) => {
      const s = groupSize === 1 && unbiased ? 1 : stdOf(xs.slice(lo, hi), mean.slice(lo, hi), tokens, unbiased);
      for (let i = lo; i < hi; i++) std[i] = s;
    });
  } else {
    std = std.fill(1);
    eps = 0;
  }
  return xs.map((x, i) => f32((x - mean[i]!) / (std[i]! + eps)));
}

export interface ArealAdvantageOptions {
  rewardNorm: NormConfig | null;
  advNorm: NormConfig | null;
  rewardBias: number;
  rewardScaling: number;
  rewardClip: number;
  /** Response tokens of every sample (equal for all): adv_norm weighs each sample by its tokens. */
  responseLength?: number;
}

/** _compute_advantages' value on each of a sample's response tokens, samples in batch order, groups of `k` by position. */
export function arealAdvantages(rewards: readonly number[], k: number, o: ArealAdvantageOptions): number[] {
  const clip = f32(o.rewardClip);
  const scored = rewards.map((r) => Math.min(Math.max(f32(f32(f32(r) + f32(o.rewardBias)) * f32(o.rewardScaling)), -clip), clip));
  const stage1 = o.rewardNorm ? normalize(scored, o.rewardNorm, k) : scored;
  return o.advNorm ? normalize(stage1, o.advNorm, 1, o.responseLength ?? 1) : stage1;
}

/** The shipped examples' reward settings (examples/math/gsm8k_*.yaml): bias −0.5, scaling 10, clip 20 (default). */
const EXAMPLE = { rewardBias: -0.5, rewardScaling: 10, rewardClip: 20 } as const;
const BATCH: NormConfig = { meanLevel: 'batch', stdLevel: 'batch' };

export const AREAL_SCHEMES: readonly (ArealAdvantageOptions & { scheme: string; about: string; example: string })[] = [
  {
    scheme: 'areal',
    example: 'examples/math/gsm8k_grpo.yaml',
    about:
      'AReaL GRPO (gsm8k_grpo.yaml): (r − 0.5) × 10 clipped ±20; group mean/std by position (unbiased, eps 1e-5); ' +
      'then batch mean/std over all response tokens (unbiased, eps 1e-5); a flat group gets 0 then the batch shift',
    rewardNorm: { meanLevel: 'group', stdLevel: 'group' },
    advNorm: BATCH,
    ...EXAMPLE,
  },
  {
    scheme: 'areal-drgrpo',
    example: 'examples/math/gsm8k_drgrpo.yaml',
    about: 'AReaL Dr. GRPO (gsm8k_drgrpo.yaml): (r − 0.5) × 10; group mean only (no std); then batch mean/std over tokens',
    rewardNorm: { meanLevel: 'group', stdLevel: null },
    advNorm: BATCH,
    ...EXAMPLE,
  },
  {
    scheme: 'areal-rloo',
    example: 'examples/math/gsm8k_rloo.yaml',
    about: 'AReaL RLOO (gsm8k_rloo.yaml): (r − 0.5) × 10; minus the leave-one-out group mean, no std; then batch mean/std over tokens',
    rewardNorm: { meanLevel: 'group', meanLeave1out: true, stdLevel: null },
    advNorm: BATCH,
    ...EXAMPLE,
  },
  {
    scheme: 'areal-liteppo',
    example: 'examples/math/gsm8k_liteppo.yaml',
    about: 'AReaL LitePPO (gsm8k_liteppo.yaml): (r − 0.5) × 10; group mean, batch std; then batch mean/std over tokens',
    rewardNorm: { meanLevel: 'group', stdLevel: 'batch' },
    advNorm: BATCH,
    ...EXAMPLE,
  },
];

export const AREAL_ADVANTAGES: readonly AdvantageDef[] = AREAL_SCHEMES.map((s) => ({
  scheme: s.scheme,
  about: `${s.about} (each sample counted as one response token)`,
  groupBy: 'position',
  compute({ rewards, promptIds, k }) {
    const warnings: string[] = [];
    if (rewards.length % k !== 0) {
      warnings.push(
        `${rewards.length} samples are not a whole number of groups of ${k}: AReaL leaves the last ` +
          `${rewards.length % k} with group mean 0 and std 0 (divided by eps)`,
      );
    }
    for (let i = 0; i + k <= promptIds.length; i += k) {
      if (promptIds.slice(i, i + k).some((p) => p !== promptIds[i])) {
        warnings.push(`AReaL groups by position (rows i·${k} … i·${k}+${k - 1}), not by prompt id: rows ${i}–${i + k - 1} mix prompts`);
        break;
      }
    }
    return { advantages: arealAdvantages(rewards, k, s), warnings };
  },
}));
