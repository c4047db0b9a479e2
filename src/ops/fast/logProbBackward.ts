import type { TokenColumn } from '../cpu/logProbBackward.ts';
import { checkHead, type HeadShape } from '../cpu/head.ts';

/**
 * src/ops/cpu/logProbBackward.ts without a call per element: the row's offsets, upstream gradient
 * and action read once, the mask tested inline. The same expression per element, so the same bits.
 */
export function logProbBackward(
  probs: Float32Array,
  actions: Uint32Array,
  mask: Float32Array | null,
  gradLogp: Float32Array,
  h: HeadShape,
  g: TokenColumn,
  into: Float32Array = new Float32Array(h.rows * h.stride),
): Float32Array {
  checkHead(h, into.length, mask);
  const { rows, stride, offset, width } = h;
  for (let r = 0; r < rows; r++) {
    const up = gradLogp[r * g.stride + g.column]!,
      action = actions[r]!,
      row = r * width,
      at = r * stride + offset;
    for (let j = 0; j < width; j++)
      into[at + j] = mask === null || mask[row + j] !== 0 ? up * ((j === action ? 1 : 0) - probs[row + j]!) : 0;
  }
  return into;
}
