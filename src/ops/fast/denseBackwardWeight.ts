import type { DenseShape } from '../cpu/dense.ts';
import { activeKernel } from './simd.ts';
import { dotRows, scratch, transpose } from './tiles.ts';

/**
 * dw = xᵀ·dz, db = Σ_rows dz (src/ops/cpu/denseBackwardWeight.ts), each sum over the rows in row
 * order as the reference's. The SIMD kernel reads x through strides (xᵀ without a transpose) and
 * dz's rows as they are; the JS kernel transposes x and dz (inDim × rows, outDim × rows) so each
 * dw entry is a unit-stride dot product over the rows.
 */
export function denseBackwardWeight(
  x: Float32Array,
  dz: Float32Array,
  s: Omit<DenseShape, 'activation'>,
): { dw: Float32Array; db: Float32Array } {
  const k = activeKernel();
  const dw = k
    ? k.matmul({ data: x.subarray(0, s.rows * s.inDim), rowStride: 1, kStride: s.inDim }, dz, s.inDim, s.outDim, s.rows, null, false).c
    : dotRows(
        transpose(x, s.rows, s.inDim, scratch(1, s.rows * s.inDim)),
        transpose(dz, s.rows, s.outDim, scratch(2, s.rows * s.outDim)),
        s.inDim,
        s.outDim,
        s.rows,
        new Float32Array(s.inDim * s.outDim),
      );
  // db in float64 over the rows in order (the reference's sums), dz read row by row.
  const acc = new Float64Array(s.outDim);
  for (let r = 0; r < s.rows; r++) {
    const row = r * s.outDim;
    for (let o = 0; o < s.outDim; o++) acc[o]! += dz[row + o]!;
  }
  return { dw, db: Float32Array.from(acc) };
}
