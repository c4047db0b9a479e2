import type { AdamSettings } from '../../core/env/train-config.ts';

/**
 * One Adam step in place, `step` counting from 1 (for bias correction). Each gradient is first
 * multiplied by `gradScale` (the clipping factor from gradNorm). params, grads, m, v: same length.
 */
export function adam(
  params: Float32Array,
  grads: Float32Array,
  m: Float32Array,
  v: Float32Array,
  gradScale: number,
  step: number,
  s: AdamSettings,
): void {
  const bc1 = 1 - s.beta1 ** step;
  const bc2 = 1 - s.beta2 ** step;
  for (let i = 0; i < params.length; i++) {
    const g = grads[i]! * gradScale;
    let p = params[i]!;
    if (s.weightDecay !== 0) p -= s.lr * s.weightDecay * p;
    m[i] = s.beta1 * m[i]! + (1 - s.beta1) * g;
    v[i] = s.beta2 * v[i]! + (1 - s.beta2) * g * g;
    params[i] = p - (s.lr * (m[i]! / bc1)) / (Math.sqrt(v[i]! / bc2) + s.eps);
  }
}
