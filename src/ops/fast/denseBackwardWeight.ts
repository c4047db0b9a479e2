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
  out: { dw: Float32Array; db: Float32Array } = { dw: new Float32Array(s.inDim * s.outDim), db: new Float32Array(s.outDim) },
): { dw: Float32Array; db: Float32Array } {
  const xT = transpose(x, s.rows, s.inDim, scratch(1, s.rows * s.inDim));
  const dzT = transpose(dz, s.rows, s.outDim, scratch(2, s.rows * s.outDim));
  dotRowsF32(xT, dzT, s.inDim, s.outDim, s.rows, out.dw);
  const db = out.db;
  for (let o = 0; o < s.outDim; o++) {
    let acc = 0;
    for (let r = 0; r < s.rows; r++) acc += dzT[o * s.rows + r]!;
    db[o] = acc;
  }
  return out;
}
