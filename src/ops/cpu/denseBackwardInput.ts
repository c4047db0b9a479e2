import type { DenseShape } from './dense.ts';

/** Gradient of a dense layer with respect to its input: dx = dz·Wᵀ. dz: rows × outDim → dx: rows × inDim. */
export function denseBackwardInput(dz: Float32Array, w: Float32Array, s: Omit<DenseShape, 'activation'>): Float32Array {
  const dx = new Float32Array(s.rows * s.inDim);
  for (let r = 0; r < s.rows; r++) {
    for (let i = 0; i < s.inDim; i++) {
      let acc = 0;
      for (let o = 0; o < s.outDim; o++) acc += dz[r * s.outDim + o]! * w[i * s.outDim + o]!;
      dx[r * s.inDim + i] = acc;
    }
  }
  return dx;
}
