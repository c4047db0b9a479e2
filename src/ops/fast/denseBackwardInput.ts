import type { DenseShape } from '../cpu/dense.ts';
import { activeKernel } from './simd.ts';
import { dotRows, scratch, transpose } from './tiles.ts';

/**
 * dx = dz·Wᵀ (src/ops/cpu/denseBackwardInput.ts), into `out` when given. The SIMD kernel reads dz's rows as they are
 * and Wᵀ (outDim × inDim, small: transposed into scratch); the JS kernel takes dz's rows and W's rows, both
 * contiguous over outDim already.
 */
export function denseBackwardInput(
  dz: Float32Array,
  w: Float32Array,
  s: Omit<DenseShape, 'activation'>,
  out: Float32Array = new Float32Array(s.rows * s.inDim),
): Float32Array {
  const k = activeKernel();
  if (!k) return dotRows(dz, w, s.rows, s.inDim, s.outDim, out);
  const wT = transpose(w, s.inDim, s.outDim, scratch(0, s.inDim * s.outDim));
  return k.matmul(
    { data: dz.subarray(0, s.rows * s.outDim), rowStride: s.outDim, kStride: 1 },
    wT,
    s.rows,
    s.inDim,
    s.outDim,
    null,
    false,
    {
      c: out,
    },
  ).c;
}
