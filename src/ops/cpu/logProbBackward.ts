import { checkHead, isValid, type HeadShape } from './head.ts';

/** Where each row's upstream gradient sits in a rows × tokens matrix (column `column`, rows `stride` apart). */
export interface TokenColumn {
  stride: number;
  column: number;
}

/**
 * Gradient of log π(action) with respect to a head's logits, scaled by the upstream gradient:
 * dlogits[r, j] = g[r] · (1[j = action_r] − p[r, j]) for valid j, 0 for masked j.
 * probs: rows × width, actions: rows, g: read at gradLogp[r·stride + column].
 * Writes the head's columns of `into` (rows × h.stride; other columns untouched) and returns it.
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
  for (let r = 0; r < h.rows; r++) {
    const up = gradLogp[r * g.stride + g.column]!;
    for (let j = 0; j < h.width; j++) {
      const valid = isValid(mask, r, j, h.width);
      into[r * h.stride + h.offset + j] = valid ? up * ((j === actions[r] ? 1 : 0) - probs[r * h.width + j]!) : 0;
    }
  }
  return into;
}
