import type { DenseShape } from '../cpu/dense.ts';
import { dotRowsF32 } from './simd.ts';

/** dx = dz·Wᵀ (src/ops/cpu/denseBackwardInput.ts): dz's rows and W's rows are both contiguous over outDim already. */
export function denseBackwardInput(
  dz: Float32Array,
  w: Float32Array,
  s: Omit<DenseShape, 'activation'>,
  out: Float32Array = new Float32Array(s.rows * s.inDim),
): Float32Array {
  return dotRowsF32(dz, w, s.rows, s.inDim, s.outDim, out);
}
