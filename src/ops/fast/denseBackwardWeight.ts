import type { DenseShape } from '../cpu/dense.ts';
import { activeKernel } from './simd.ts';
import { dotRows, scratch, scratch64, transpose } from './tiles.ts';

/**
 * dw = xᵀ·dz, db = Σ_rows dz (src/ops/cpu/denseBackwardWeight.ts), each sum over the rows in row
 * order as the reference's. The SIMD kernel reads x through strides (xᵀ without a transpose) and
 * dz's rows as they are, and sums dz's columns for db in float64 beside it; the JS kernel transposes x and dz (inDim × rows, outDim × rows) so each
 * dw entry is a unit-stride dot product over the rows.
 */
export function denseBackwardWeight(
  x: Float32Array,
  dz: Float32Array,
  s: Omit<DenseShape, 'activation'>,
  out: { dw: Float32Array; db: Float32Array } = { dw: new Float32Array(s.inDim * s.outDim), db: new Float32Array(s.outDim) },
): { dw: Float32Array; db: Float32Array } {
  const k = activeKernel();
  if (k) {
    // db as b's (dz's) column sums, in float64 in row order in the module: the reference's bits.
    k.matmul({ data: x.subarray(0, s.rows * s.inDim), rowStride: 1, kStride: s.inDim }, dz, s.inDim, s.outDim, s.rows, null, false, {
      c: out.dw,
      bColumnSums: out.db,
    });
    return out;
  }
  dotRows(
    transpose(x, s.rows, s.inDim, scratch(1, s.rows * s.inDim)),
    transpose(dz, s.rows, s.outDim, scratch(2, s.rows * s.outDim)),
    s.inDim,
    s.outDim,
    s.rows,
    out.dw,
  );
  // db in float64 over the rows in order (the reference's sums), dz read row by row.
  const acc = scratch64(1, s.outDim).fill(0);
  for (let r = 0; r < s.rows; r++) {
    const row = r * s.outDim;
    for (let o = 0; o < s.outDim; o++) acc[o]! += dz[row + o]!;
  }
  for (let o = 0; o < s.outDim; o++) out.db[o] = acc[o]!;
  return out;
}
