// Activations over whole arrays, the branch on the activation taken once per call rather than
// once per element (src/ops/cpu/activation.ts chooses by string for every value). tanh and
// identity, the controller's, get their own loops; relu and gelu use the reference's scalar
// functions. The formulas are the reference's, so the results are the same bits; where the
// WebAssembly SIMD kernel runs, tanh's backward is its f32x4 tanhBackward (simd.ts: tanhF32,
// within 2⁻²¹·|tanh z| of Math.tanh) and dense applies the forward tanh in one pass after its matmul.
import type { Activation } from '../codes.ts';
import { activate, activationDerivative } from '../cpu/activation.ts';
import { activeKernel } from './simd.ts';

/** z[i] = sums[i] rounded to float32, y[i] = act(sums[i]) (the unrounded sum, as src/ops/cpu/dense.ts). */
export function activateSums(sums: Float64Array | Float32Array, act: Activation, z: Float32Array, y: Float32Array): void {
  // Plain loops: TypedArray.set between float64 and float32 arrays profiled slower than these.
  const n = sums.length;
  if (act === 'identity')
    for (let i = 0; i < n; i++) {
      z[i] = sums[i]!;
      y[i] = sums[i]!;
    }
  else if (act === 'tanh')
    for (let i = 0; i < n; i++) {
      const s = sums[i]!;
      z[i] = s;
      y[i] = Math.tanh(s);
    }
  else
    for (let i = 0; i < n; i++) {
      const s = sums[i]!;
      z[i] = s;
      y[i] = activate(s, act);
    }
}

/** Back through an activation: dz = dy · act'(z), elementwise (z, dy: same length), into `out` when given. */
export function activationBackward(
  z: Float32Array,
  dy: Float32Array,
  activation: Activation,
  out: Float32Array = new Float32Array(z.length),
): Float32Array {
  const n = z.length;
  const k = activeKernel();
  if (k && activation === 'tanh') return k.tanhBackward(z, dy, out);
  const dz = out;
  if (activation === 'identity') dz.set(dy.subarray(0, n));
  else if (activation === 'tanh')
    for (let i = 0; i < n; i++) {
      const t = Math.tanh(z[i]!);
      dz[i] = dy[i]! * (1 - t * t);
    }
  else for (let i = 0; i < n; i++) dz[i] = dy[i]! * activationDerivative(z[i]!, activation);
  return dz;
}
