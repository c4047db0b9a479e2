import type { Activation } from '../codes.ts';
import { activationDerivative } from './activation.ts';

/** Back through an activation: dz = dy · act'(z), elementwise (z, dy: same length). */
export function activationBackward(z: Float32Array, dy: Float32Array, activation: Activation): Float32Array {
  const dz = new Float32Array(z.length);
  for (let i = 0; i < z.length; i++) dz[i] = dy[i]! * activationDerivative(z[i]!, activation);
  return dz;
}
