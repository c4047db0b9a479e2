import type { DenseShape } from '../cpu/dense.ts';
import { activateSums } from './activation.ts';
import { dotRows, scratch, scratch64, transpose } from './tiles.ts';

/**
 * One dense layer over a batch, z = x·W + b, y = act(z), as src/ops/cpu/dense.ts defines it:
 * W is transposed once (outDim × inDim) so that every output is a unit-stride dot product.
 */
export function dense(x: Float32Array, w: Float32Array, b: Float32Array, s: DenseShape): { z: Float32Array; y: Float32Array } {
  const wT = transpose(w, s.inDim, s.outDim, scratch(0, s.inDim * s.outDim));
  const sums = dotRows(x, wT, s.rows, s.outDim, s.inDim, scratch64(0, s.rows * s.outDim), b);
  const z = new Float32Array(sums.length),
    y = new Float32Array(sums.length);
  activateSums(sums, s.activation, z, y);
  return { z, y };
}
