// Included by dense.wgsl and activationBackward.wgsl; src/ops/cpu/activation.ts is the definition.
// ACTIVATION: 0 identity, 1 tanh, 2 relu, 3 gelu (tanh approximation).
const GELU_C: f32 = 0.7978845608028654;

// tanh of a clamped argument: some drivers build tanh from exp and return NaN for |v| ≫ 1;
// at |v| = 15 tanh is already 1 to float32 precision.
fn safeTanh(v: f32) -> f32 {
  return tanh(clamp(v, -15.0, 15.0));
}

fn activate(v: f32) -> f32 {
  switch ACTIVATION {
    case 1u: { return safeTanh(v); }
    case 2u: { return max(v, 0.0); }
    case 3u: { return 0.5 * v * (1.0 + safeTanh(GELU_C * (v + 0.044715 * v * v * v))); }
    default: { return v; }
  }
}

fn activateDerivative(v: f32) -> f32 {
  switch ACTIVATION {
    case 1u: { let t = safeTanh(v); return 1.0 - t * t; }
    case 2u: { return select(0.0, 1.0, v > 0.0); }
    case 3u: {
      let t = safeTanh(GELU_C * (v + 0.044715 * v * v * v));
      return 0.5 * (1.0 + t) + 0.5 * v * (1.0 - t * t) * GELU_C * (1.0 + 3.0 * 0.044715 * v * v);
    }
    default: { return 1.0; }
  }
}
