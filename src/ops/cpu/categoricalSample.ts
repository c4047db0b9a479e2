import { checkHead, isValid, type HeadShape } from './head.ts';
import { maskedSoftmax } from './maskedSoftmax.ts';
import { philox4x32, philoxKey, unitFloat } from '../../core/rng/philox.ts';

/**
 * The random draw's key. Row r of the call uses Philox counter (rowOffset + r, step, rank, stream)
 * under key `seed`, so each (seed, rank, step, row, stream) has its own uniform. Pass rank 0 and
 * the global row (gatheredIndex) as rowOffset to get the same samples for any rank count.
 */
export interface SampleKey {
  seed: number;
  rank: number;
  step: number;
  rowOffset: number;
  stream: number;
}

/** Where a sampler writes: actions, logp (rows each), probs and the softmax's log-probabilities (rows × width each). */
export interface SampleOut {
  actions: Uint32Array;
  logp: Float32Array;
  probs: Float32Array;
  softLogp: Float32Array;
}

/** Returned by the sampler for a row that has no valid option. */
export const NO_OPTION = 0xffffffff;

/** The uniform in [0, 1) that row `row` of a call with key `k` draws. */
export function sampleUniform(k: SampleKey, row: number): number {
  return unitFloat(philox4x32([k.rowOffset + row, k.step, k.rank, k.stream], philoxKey(k.seed))[0]);
}

/**
 * Categorical sampling from a head's masked softmax by inverse CDF: the first valid option whose
 * cumulative probability exceeds the row's uniform (the last valid option if rounding leaves none).
 * Returns actions (rows), the log-probability of each action (rows) and the probabilities (rows × width);
 * with `out`, written into its arrays (cleared first) instead of new ones.
 */
export function categoricalSample(
  logits: Float32Array,
  mask: Float32Array | null,
  h: HeadShape,
  k: SampleKey,
  out?: SampleOut,
): { actions: Uint32Array; logp: Float32Array; probs: Float32Array } {
  checkHead(h, logits.length, mask);
  const soft = maskedSoftmax(logits, mask, h, out && { logp: out.softLogp, probs: out.probs });
  const actions = (out?.actions ?? new Uint32Array(h.rows)).fill(NO_OPTION);
  const logp = out ? out.logp.fill(0) : new Float32Array(h.rows);
  for (let r = 0; r < h.rows; r++) {
    const u = sampleUniform(k, r);
    let cumulative = 0;
    for (let j = 0; j < h.width; j++) {
      if (!isValid(mask, r, j, h.width)) continue;
      actions[r] = j;
      cumulative += soft.probs[r * h.width + j]!;
      if (u < cumulative) break;
    }
    if (actions[r] !== NO_OPTION) logp[r] = soft.logp[r * h.width + actions[r]!]!;
  }
  return { actions, logp, probs: soft.probs };
}
