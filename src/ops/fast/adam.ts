import type { AdamSettings } from '../cpu/adam.ts';

/**
 * src/ops/cpu/adam.ts with its settings read once per call instead of once per element, and the
 * moments kept in registers: m and v are rounded to float32 (Math.fround) where the reference
 * stores and re-reads them, so every value is the reference's bits. Every rank runs it on its
 * replica each step: a fixed cost per rank that logical ranks pay once per rank.
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
  const { lr, beta1, beta2, eps, weightDecay } = s;
  const bc1 = 1 - beta1 ** step;
  const bc2 = 1 - beta2 ** step;
  const keep1 = 1 - beta1;
  const keep2 = 1 - beta2;
  const decay = lr * weightDecay;
  const n = params.length;
  for (let i = 0; i < n; i++) {
    const g = grads[i]! * gradScale;
    let p = params[i]!;
    if (weightDecay !== 0) p -= decay * p;
    const mi = Math.fround(beta1 * m[i]! + keep1 * g);
    const vi = Math.fround(beta2 * v[i]! + keep2 * g * g);
    m[i] = mi;
    v[i] = vi;
    params[i] = p - (lr * (mi / bc1)) / (Math.sqrt(vi / bc2) + eps);
  }
}
