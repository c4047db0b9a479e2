/** Adam settings (torch.optim.Adam's names); weightDecay > 0 makes it AdamW (decoupled decay). */
export interface AdamSettings {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

/** torch.optim.Adam's defaults. */
export const ADAM_DEFAULTS: AdamSettings = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 };

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
