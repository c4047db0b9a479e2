// prime-rl's GRPO credit (src/prime_rl/orchestrator/algo/grpo.py @ 559b447, GRPOAlgorithm.score_group):
// over one finished group (the group object the dispatcher made for one task draw), float32 rewards
// minus their float32 mean; no std division. With algo.length_penalty set, each reward is first shaped
// by reward_mean × (w_out·out/max(out) + w_in·in/max(in) + w_turns·turns/max(turns)), maxima clamped to ≥ 1.
import { ConfigError } from '../../errors.ts';
import type { AdvantageDef } from '../types.ts';
import { PRIME_RL_VERSION } from './version.ts';

const f32 = Math.fround;

/** torch float32 mean, accumulated in float64 then rounded (torch's own summation order may differ in the last bit). */
function mean32(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return f32(s / values.length);
}

/** LengthPenaltyConfig's weights. */
export interface LengthPenalty {
  numOutputTokensWeight: number;
  numInputTokensWeight: number;
  numTurnsWeight: number;
}

/** One trace's counts the length penalty reads. */
export interface TraceCounts {
  outputTokens: number;
  totalTokens: number;
  turns: number;
}

/** score_group for one group: each trace's advantage, as float32 values. */
export function scoreGroup(
  rewards: readonly number[],
  penalty: LengthPenalty | null = null,
  counts: readonly TraceCounts[] = [],
): number[] {
  const r = rewards.map(f32);
  if (penalty === null) {
    const m = mean32(r);
    return r.map((x) => f32(x - m));
  }
  if (counts.length !== r.length) throw new ConfigError("scoreGroup: the length penalty needs every trace's token and turn counts");
  const output = counts.map((c) => f32(c.outputTokens));
  const input = counts.map((c) => f32(c.totalTokens - c.outputTokens));
  const turns = counts.map((c) => f32(c.turns));
  const maxOf = (xs: number[]) => Math.max(1, ...xs);
  const [mo, mi, mt] = [maxOf(output), maxOf(input), maxOf(turns)];
  const m = mean32(r);
  const shaped = r.map((x, i) => {
    const frac = f32(
      f32(f32(f32(penalty.numOutputTokensWeight) * f32(output[i]! / mo)) + f32(f32(penalty.numInputTokensWeight) * f32(input[i]! / mi))) +
        f32(f32(penalty.numTurnsWeight) * f32(turns[i]! / mt)),
    );
    return f32(x - f32(m * frac));
  });
  const ms = mean32(shaped);
  return shaped.map((x) => f32(x - ms));
}

export const advantages: readonly AdvantageDef[] = [
  {
    scheme: 'prime-rl',
    about:
      'per dispatched group of group_size rollouts: reward − group mean in float32, no std, nothing added for a degenerate group (its advantages ' +
      'are 0, and filter_zero_advantages then drops those tokens)',
    groupBy: 'group-object',
    compute({ rewards, k }) {
      if (!Number.isInteger(k) || k < 1 || rewards.length % k !== 0) {
        throw new ConfigError(
          `prime-rl scores each dispatched group of group_size=${k} rollouts; ${rewards.length} rewards are not whole groups ${PRIME_RL_VERSION}`,
        );
      }
      const out: number[] = [];
      for (let start = 0; start < rewards.length; start += k) out.push(...scoreGroup(rewards.slice(start, start + k)));
      return { advantages: out, warnings: [] };
    },
  },
];
