import type { SampleKey, SampleOut } from '../cpu/categoricalSample.ts';
import { checkHead, type HeadShape } from '../cpu/head.ts';
import { softmaxRows } from './maskedSoftmax.ts';

/**
 * src/ops/cpu/categoricalSample.ts (inverse CDF over the masked softmax, Philox-keyed uniform per
 * row) fused into the fast softmax's pass over each row (softmaxRows), with an allocation-free
 * Philox: the reference's actions, and its log-probs and probs within the softmax's tolerance. The
 * softmax's full log-probabilities are written only into a given `out.softLogp` (only the actions'
 * are returned).
 */
export function categoricalSample(
  logits: Float32Array,
  mask: Float32Array | null,
  h: HeadShape,
  k: SampleKey,
  out?: SampleOut,
): { actions: Uint32Array; logp: Float32Array; probs: Float32Array } {
  checkHead(h, logits.length, mask);
  const { rows, width } = h;
  const probs = out?.probs ?? new Float32Array(rows * width);
  const actions = out?.actions ?? new Uint32Array(rows);
  const logp = out?.logp ?? new Float32Array(rows);
  softmaxRows(logits, mask, h, out?.softLogp ?? null, probs, { key: k, actions, logp });
  return { actions, logp, probs };
}
