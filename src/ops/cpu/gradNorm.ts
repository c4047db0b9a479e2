/**
 * Global gradient norm and the clipping factor torch.nn.utils.clip_grad_norm_ would apply:
 * norm = sqrt(Σ g²) (summed in index order), scale = min(1, maxNorm / (norm + 1e-6)); maxNorm ≤ 0 disables clipping.
 */
export function gradNorm(grads: Float32Array, maxNorm: number): { norm: number; scale: number } {
  let sq = 0;
  for (let i = 0; i < grads.length; i++) sq += grads[i]! * grads[i]!;
  const norm = Math.sqrt(sq);
  return { norm, scale: maxNorm > 0 ? Math.min(1, maxNorm / (norm + 1e-6)) : 1 };
}
