// The activations the dense kernel can fuse, and their derivatives, as scalar functions.
// shaders/dense.wgsl and shaders/activationBackward.wgsl implement the same formulas.

import type { Activation } from '../codes.ts';

const GELU_C = Math.sqrt(2 / Math.PI);

/** act(z). GELU is the tanh approximation (PyTorch's gelu(approximate='tanh')): WGSL has no erf. */
export function activate(z: number, act: Activation): number {
  switch (act) {
    case 'identity':
      return z;
    case 'tanh':
      return Math.tanh(z);
    case 'relu':
      return Math.max(z, 0);
    case 'gelu':
      return 0.5 * z * (1 + Math.tanh(GELU_C * (z + 0.044715 * z * z * z)));
  }
}

/** d act(z) / dz (ReLU's derivative at 0 is taken as 0, as PyTorch does). */
export function activationDerivative(z: number, act: Activation): number {
  switch (act) {
    case 'identity':
      return 1;
    case 'tanh': {
      const t = Math.tanh(z);
      return 1 - t * t;
    }
    case 'relu':
      return z > 0 ? 1 : 0;
    case 'gelu': {
      const inner = GELU_C * (z + 0.044715 * z * z * z);
      const t = Math.tanh(inner);
      return 0.5 * (1 + t) + 0.5 * z * (1 - t * t) * GELU_C * (1 + 3 * 0.044715 * z * z);
    }
  }
}
