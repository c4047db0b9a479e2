import type { HeadShape } from './head.ts';

/** Writes onehot(actions[r]) into columns offset…offset+width of row r of `into` (rows × stride); returns `into`. */
export function oneHot(actions: Uint32Array, h: HeadShape, into: Float32Array): Float32Array {
  for (let r = 0; r < h.rows; r++) for (let j = 0; j < h.width; j++) into[r * h.stride + h.offset + j] = actions[r] === j ? 1 : 0;
  return into;
}
