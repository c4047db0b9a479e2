import type { Activation } from '../codes.ts';
import { activate } from './activation.ts';

/** Shape of a dense layer applied to a batch of rows. */
export interface DenseShape {
  rows: number;
  inDim: number;
  outDim: number;
  activation: Activation;
}

/** Where a dense layer writes z and y (each rows × outDim), for a caller that reuses its arrays. */
export interface DenseOut {
  z: Float32Array;
  y: Float32Array;
}

/**
 * One dense layer over a batch: z = x·W + b, y = act(z).
 * x: rows × inDim, w: inDim × outDim (row-major), b: outDim → z, y: rows × outDim.
 * The sum runs over the input index in order (as the WGSL does), accumulated in float64.
 * `out`: arrays to write into (every entry is written) instead of new ones.
 */
export function dense(
  x: Float32Array,
  w: Float32Array,
  b: Float32Array,
  s: DenseShape,
  out: DenseOut = { z: new Float32Array(s.rows * s.outDim), y: new Float32Array(s.rows * s.outDim) },
): DenseOut {
  const { z, y } = out;
  for (let r = 0; r < s.rows; r++) {
    for (let o = 0; o < s.outDim; o++) {
      let acc = b[o]!;
      for (let i = 0; i < s.inDim; i++) acc += x[r * s.inDim + i]! * w[i * s.outDim + o]!;
      z[r * s.outDim + o] = acc;
      y[r * s.outDim + o] = activate(acc, s.activation);
    }
  }
  return out;
}
