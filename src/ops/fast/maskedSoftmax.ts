import { NO_OPTION, type SampleKey } from '../cpu/categoricalSample.ts';
import { checkHead, type HeadShape } from '../cpu/head.ts';
import { philoxKey, unitFloat } from '../../core/rng/philox.ts';
import { expNonPositive } from './exp.ts';
import { philoxWord0 } from './philox.ts';
import { scratch64 } from './tiles.ts';

/**
 * src/ops/cpu/maskedSoftmax.ts in one pass per row without closures: the row's logits read once,
 * the mask tested inline, each exp computed once (expNonPositive, within 2⁻³⁸ of Math.exp, so the
 * float32 results are the reference's bits but for an occasional last-bit rounding) and kept.
 */
export function maskedSoftmax(
  logits: Float32Array,
  mask: Float32Array | null,
  h: HeadShape,
  out?: { logp: Float32Array; probs: Float32Array },
): { logp: Float32Array; probs: Float32Array } {
  checkHead(h, logits.length, mask);
  const logp = out?.logp ?? new Float32Array(h.rows * h.width),
    probs = out?.probs ?? new Float32Array(h.rows * h.width);
  softmaxRows(logits, mask, h, logp, probs, null);
  return out ?? { logp, probs };
}

/** A sampler's part of softmaxRows: each row's uniform comes from Philox at `key`; the action and its log-probability go into `actions` and `logp`. */
export interface RowDraws {
  key: SampleKey;
  actions: Uint32Array;
  logp: Float32Array;
}

/**
 * The masked softmax of every row of a head into `logp` (null: not kept) and `probs` (rows × width,
 * every entry written), and with `draws` the reference sampler's inverse-CDF draw from the row's
 * float32 probabilities as they are written (src/ops/cpu/categoricalSample.ts): the first valid
 * option whose cumulative probability exceeds the row's uniform, else the last valid one.
 */
export function softmaxRows(
  logits: Float32Array,
  mask: Float32Array | null,
  h: HeadShape,
  logp: Float32Array | null,
  probs: Float32Array,
  draws: RowDraws | null,
): void {
  const { rows, stride, offset, width } = h;
  const e = scratch64(2, width);
  const [k0, k1] = draws ? philoxKey(draws.key.seed) : [0, 0];
  const { rowOffset, step, rank, stream } = draws?.key ?? { rowOffset: 0, step: 0, rank: 0, stream: 0 };
  for (let r = 0; r < rows; r++) {
    const at = r * stride + offset,
      out = r * width;
    let max = -Infinity;
    for (let j = 0; j < width; j++) if (mask === null || mask[out + j] !== 0) max = Math.max(max, logits[at + j]!);
    if (max === -Infinity) {
      logp?.fill(0, out, out + width);
      probs.fill(0, out, out + width);
      if (draws) {
        draws.actions[r] = NO_OPTION;
        draws.logp[r] = 0;
      }
      continue;
    }
    let sum = 0;
    for (let j = 0; j < width; j++) {
      if (mask !== null && mask[out + j] === 0) continue;
      const v = expNonPositive(logits[at + j]! - max);
      e[j] = v;
      sum += v;
    }
    const logSum = Math.log(sum);
    let drawing = draws !== null,
      action = NO_OPTION,
      cumulative = 0;
    const u = draws ? unitFloat(philoxWord0(rowOffset + r, step, rank, stream, k0, k1)) : 0;
    for (let j = 0; j < width; j++) {
      if (mask !== null && mask[out + j] === 0) {
        if (logp) logp[out + j] = 0;
        probs[out + j] = 0;
        continue;
      }
      if (logp) logp[out + j] = logits[at + j]! - max - logSum;
      probs[out + j] = e[j]! / sum;
      if (drawing) {
        action = j;
        cumulative += probs[out + j]!;
        if (u < cumulative) drawing = false;
      }
    }
    if (draws) {
      draws.actions[r] = action;
      // The action's log-probability as the softmax writes it (float32).
      draws.logp[r] = logits[at + action]! - max - logSum;
    }
  }
}
