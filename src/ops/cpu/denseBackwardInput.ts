import type { DenseShape } from './dense.ts';

/** Gradient of a dense layer with respect to its input: dx = dz·Wᵀ. dz: rows × outDim → dx: rows × inDim (into `out` when given). */
export function denseBackwardInput(
  dz: Float32Array,
  w: Float32Array,
  s: Omit<DenseShape, 'activation'>,
  out: Float32Array = new Float32Array(s.rows * s.inDim),
): Float32Array {
  const dx = out;
  for (let r = 0; r < s.rows; r++) {
    for (let i = 0; i < s.inDim; i++) {
      let acc = 0;
      for (let o = 0; o < s.outDim; o++) acc += dz[r * s.outDim + o]! * w[i * s.outDim + o]!;
      dx[r * s.inDim + i] = acc;
    }
  }
  return dx;
}
