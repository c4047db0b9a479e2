// Global gradient norm and clip_grad_norm_'s factor: out = [norm, min(1, maxNorm / (norm + 1e-6))]
// (factor 1 when maxNorm ≤ 0). One workgroup, fixed reduction tree.  CPU twin: src/ops/cpu/gradNorm.ts
struct Params { n: u32, maxNorm: f32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> grads: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
//#include workgroupReduce.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  var part = 0.0;
  for (var i = lid; i < p.n; i += WG) { part += grads[i] * grads[i]; }
  let norm = sqrt(workgroupSum(lid, part));
  if (lid == 0u) {
    out[0] = norm;
    out[1] = select(1.0, min(1.0, p.maxNorm / (norm + 1e-6)), p.maxNorm > 0.0);
  }
}
