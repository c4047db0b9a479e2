import { checkHead, type HeadShape } from '../cpu/head.ts';

/**
 * src/ops/cpu/maskedSoftmax.ts without per-element closures: the row's logits are read once, the
 * mask tested inline, and each exp computed once and kept (the reference computes it twice; the
 * same expression gives the same value, so the results are the reference's bits).
 */
export function maskedSoftmax(
  logits: Float32Array,
  mask: Float32Array | null,
  h: HeadShape,
  out?: { logp: Float32Array; probs: Float32Array },
): { logp: Float32Array; probs: Float32Array } {
  checkHead(h, logits.length, mask);
  if (out) {
    softmaxInto(logits, mask, h, out.logp, out.probs);
    return out;
  }
  return softmaxInto(logits, mask, h, new Float32Array(h.rows * h.width), new Float32Array(h.rows * h.width));
}

/** maskedSoftmax into the given arrays (rows × width each; every entry written). */
export function softmaxInto(
  logits: Float32Array,
  mask: Float32Array | null,
  h: HeadShape,
  logp: Float32Array,
  probs: Float32Array,
): { logp: Float32Array; probs: Float32Array } {
  const { rows, stride, offset, width } = h;
  const e = new Float64Array(width);
  for (let r = 0; r < rows; r++) {
    const at = r * stride + offset,
      out = r * width;
    let max = -Infinity;
    for (let j = 0; j < width; j++) if (mask === null || mask[out + j] !== 0) max = Math.max(max, logits[at + j]!);
    if (max === -Infinity) {
      logp.fill(0, out, out + width);
      probs.fill(0, out, out + width);
      continue;
    }
    let sum = 0;
    for (let j = 0; j < width; j++) {
      if (mask !== null && mask[out + j] === 0) continue;
      e[j] = Math.exp(logits[at + j]! - max);
      sum += e[j]!;
    }
    const logSum = Math.log(sum);
    for (let j = 0; j < width; j++) {
      if (mask !== null && mask[out + j] === 0) {
        logp[out + j] = 0;
        probs[out + j] = 0;
        continue;
      }
      logp[out + j] = logits[at + j]! - max - logSum;
      probs[out + j] = e[j]! / sum;
    }
  }
  return { logp, probs };
}
