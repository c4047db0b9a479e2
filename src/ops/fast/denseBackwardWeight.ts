import type { DenseShape } from '../cpu/dense.ts';
import { dotRowsF32 } from './simd.ts';
import { scratch, transpose } from './tiles.ts';

/**
 * dw = xᵀ·dz, db = Σ_rows dz (src/ops/cpu/denseBackwardWeight.ts). x and dz are transposed
 * (inDim × rows, outDim × rows) so each dw entry is a unit-stride dot product over the rows, in
 * row order as the reference sums them.
 */
export function denseBackwardWeight(
  x: Float32Array,
  dz: Float32Array,
  s: Omit<DenseShape, 'activation'>,
): { dw: Float32Array; db: Float32Array } {
  const xT = transpose(x, s.rows, s.inDim, scratch(1, s.rows * s.inDim));
  const dzT = transpose(dz, s.rows, s.outDim, scratch(2, s.rows * s.outDim));
  const dw = dotRowsF32(xT, dzT, s.inDim, s.outDim, s.rows, new Float32Array(s.inDim * s.outDim));
  const db = new Float32Array(s.outDim);
  for (let o = 0; o < s.outDim; o++) {
    let acc = 0;
    for (let r = 0; r < s.rows; r++) acc += dzT[o * s.rows + r]!;
    db[o] = acc;
  }
  return { dw, db };
}
