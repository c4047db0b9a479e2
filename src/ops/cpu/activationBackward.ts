import type { Activation } from '../codes.ts';
import { activationDerivative } from './activation.ts';

/** Back through an activation: dz = dy · act'(z), elementwise (z, dy: same length), into `out` when given. */
export function activationBackward(
  z: Float32Array,
  dy: Float32Array,
  activation: Activation,
  out: Float32Array = new Float32Array(z.length),
): Float32Array {
  const dz = out;
  for (let i = 0; i < z.length; i++) dz[i] = dy[i]! * activationDerivative(z[i]!, activation);
  return dz;
}
