import type { DenseOut, DenseShape } from '../cpu/dense.ts';
import { activateSums } from './activation.ts';
import { dotRowsF32, fastKernelKind } from './simd.ts';
import { dotRows, scratch, scratch64, transpose } from './tiles.ts';

/**
 * One dense layer over a batch, z = x·W + b, y = act(z), as src/ops/cpu/dense.ts defines it:
 * W is transposed once (outDim × inDim) so that every output is a unit-stride dot product. With
 * the SIMD kernel (simd.ts) the sums are float32 and y = act(z); with the JS kernel they are the
 * reference's float64 sums, and the bits are the reference's.
 */
export function dense(
  x: Float32Array,
  w: Float32Array,
  b: Float32Array,
  s: DenseShape,
  out: DenseOut = { z: new Float32Array(s.rows * s.outDim), y: new Float32Array(s.rows * s.outDim) },
): DenseOut {
  const wT = transpose(w, s.inDim, s.outDim, scratch(0, s.inDim * s.outDim));
  const { z, y } = out;
  if (fastKernelKind() !== 'js') activateSums(dotRowsF32(x, wT, s.rows, s.outDim, s.inDim, z, b), s.activation, z, y);
  else activateSums(dotRows(x, wT, s.rows, s.outDim, s.inDim, scratch64(0, s.rows * s.outDim), b), s.activation, z, y);
  return out;
}
