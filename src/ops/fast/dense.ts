import type { DenseOut, DenseShape } from '../cpu/dense.ts';
import { activateSums } from './activation.ts';
import { activeKernel } from './simd.ts';
import { dotRows, scratch, scratch64, transpose } from './tiles.ts';

/**
 * One dense layer over a batch, z = x·W + b, y = act(z), as src/ops/cpu/dense.ts defines it. With
 * the SIMD kernel (simd.ts) x and W go into the module as they are (W is already K × n row-major)
 * and the sums are float32, then tanh in one pass over z (tanhF32); with the JS kernel W is
 * transposed so that every output is a unit-stride dot product, the sums are the reference's
 * float64 ones, and the bits are the reference's.
 */
export function dense(
  x: Float32Array,
  w: Float32Array,
  b: Float32Array,
  s: DenseShape,
  out: DenseOut = { z: new Float32Array(s.rows * s.outDim), y: new Float32Array(s.rows * s.outDim) },
): DenseOut {
  const k = activeKernel();
  if (k) {
    const tanh = s.activation === 'tanh';
    const { c: z, y } = k.matmul(
      { data: x.subarray(0, s.rows * s.inDim), rowStride: s.inDim, kStride: 1 },
      w,
      s.rows,
      s.outDim,
      s.inDim,
      b,
      tanh,
      { c: out.z, y: out.y },
    );
    // c and y were written into out.z and out.y.
    if (!y) {
      if (s.activation === 'identity') out.y.set(z);
      else activateSums(z, s.activation, z, out.y);
    }
    return out;
  }
  const wT = transpose(w, s.inDim, s.outDim, scratch(0, s.inDim * s.outDim));
  const { z, y } = out;
  activateSums(dotRows(x, wT, s.rows, s.outDim, s.inDim, scratch64(0, s.rows * s.outDim), b), s.activation, z, y);
  return out;
}
