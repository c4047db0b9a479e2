// Softmax and log-softmax of a head over its valid options; one invocation per row.
// logits: rows × stride (head at offset … offset + width), mask: rows × width (0 = invalid)
// → logp, probs: rows × width (0 for invalid options).  CPU twin: src/ops/cpu/maskedSoftmax.ts
struct Params { rows: u32, stride: u32, offset: u32, width: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read_write> logp: array<f32>;
@group(0) @binding(4) var<storage, read_write> probs: array<f32>;
//#include index.wgsl
//#include headSoftmax.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = flatIndex(gid, nwg);
  if (r >= p.rows) { return; }
  let s = headStats(r);
  let logSum = log(s.sum);
  for (var j = 0u; j < p.width; j++) {
    let valid = s.any && isValid(r, j);
    logp[r * p.width + j] = select(0.0, logitAt(r, j) - s.max - logSum, valid);
    probs[r * p.width + j] = select(0.0, exp(logitAt(r, j) - s.max) / s.sum, valid);
  }
}
