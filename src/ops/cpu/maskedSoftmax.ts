import { checkHead, isValid, type HeadShape } from './head.ts';

/**
 * Softmax and log-softmax of one head over its valid options, per row.
 * logits: rows × stride (head at columns offset…offset+width); mask: rows × width or null.
 * Returns logp, probs: rows × width. Masked options get probability 0 and log-probability 0
 * (they have none; nothing downstream reads them). A row without any valid option is all 0.
 * The max and the sum run over options in index order; exp/log in float64.
 * `out`: arrays to write into instead of new ones (cleared first).
 */
export function maskedSoftmax(
  logits: Float32Array,
  mask: Float32Array | null,
  h: HeadShape,
  out?: { logp: Float32Array; probs: Float32Array },
): { logp: Float32Array; probs: Float32Array } {
  checkHead(h, logits.length, mask);
  const logp = out ? out.logp.fill(0) : new Float32Array(h.rows * h.width);
  const probs = out ? out.probs.fill(0) : new Float32Array(h.rows * h.width);
  for (let r = 0; r < h.rows; r++) {
    const at = (j: number) => logits[r * h.stride + h.offset + j]!;
    let max = -Infinity;
    for (let j = 0; j < h.width; j++) if (isValid(mask, r, j, h.width)) max = Math.max(max, at(j));
    if (max === -Infinity) continue;
    let sum = 0;
    for (let j = 0; j < h.width; j++) if (isValid(mask, r, j, h.width)) sum += Math.exp(at(j) - max);
    const logSum = Math.log(sum);
    for (let j = 0; j < h.width; j++) {
      if (!isValid(mask, r, j, h.width)) continue;
      logp[r * h.width + j] = at(j) - max - logSum;
      probs[r * h.width + j] = Math.exp(at(j) - max) / sum;
    }
  }
  return out ?? { logp, probs };
}
