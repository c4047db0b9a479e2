import type { DenseShape } from './dense.ts';

/**
 * Gradient of a dense layer with respect to its parameters, summed over rows in order:
 * dw = xᵀ·dz (inDim × outDim), db = Σ_rows dz (outDim). x: rows × inDim, dz: rows × outDim.
 */
export function denseBackwardWeight(
  x: Float32Array,
  dz: Float32Array,
  s: Omit<DenseShape, 'activation'>,
  out: { dw: Float32Array; db: Float32Array } = { dw: new Float32Array(s.inDim * s.outDim), db: new Float32Array(s.outDim) },
): { dw: Float32Array; db: Float32Array } {
  const { dw, db } = out;
  for (let i = 0; i < s.inDim; i++) {
    for (let o = 0; o < s.outDim; o++) {
      let acc = 0;
      for (let r = 0; r < s.rows; r++) acc += x[r * s.inDim + i]! * dz[r * s.outDim + o]!;
      dw[i * s.outDim + o] = acc;
    }
  }
  for (let o = 0; o < s.outDim; o++) {
    let acc = 0;
    for (let r = 0; r < s.rows; r++) acc += dz[r * s.outDim + o]!;
    db[o] = acc;
  }
  return out;
}
