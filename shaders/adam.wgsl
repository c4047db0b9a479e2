// One Adam(W) step in place, element-wise. The gradient is first scaled by clip[1] (gradNorm's
// factor, read on the GPU so no readback is needed). bc1 = 1 − β1^step, bc2 = 1 − β2^step.
// CPU twin: src/ops/cpu/adam.ts
struct Params { n: u32, lr: f32, beta1: f32, beta2: f32, eps: f32, weightDecay: f32, bc1: f32, bc2: f32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> params: array<f32>;
@group(0) @binding(2) var<storage, read> grads: array<f32>;
@group(0) @binding(3) var<storage, read_write> m: array<f32>;
@group(0) @binding(4) var<storage, read_write> v: array<f32>;
@group(0) @binding(5) var<storage, read> clip: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.n) { return; }
  let g = grads[i] * clip[1];
  var w = params[i];
  if (p.weightDecay != 0.0) { w -= p.lr * p.weightDecay * w; }
  let mi = p.beta1 * m[i] + (1.0 - p.beta1) * g;
  let vi = p.beta2 * v[i] + (1.0 - p.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  params[i] = w - (p.lr * (mi / p.bc1)) / (sqrt(vi / p.bc2) + p.eps);
}
