// d log π(action) / d logits scaled by the upstream gradient g[r] = gradLogp[r·gradStride + gradColumn]:
// dlogits[r, offset + j] = g[r]·(1[j = action] − p[r, j]) for valid j, 0 for masked j; one invocation
// per (row, option). Other columns of dlogits are left alone.  CPU twin: src/ops/cpu/logProbBackward.ts
struct Params { rows: u32, stride: u32, offset: u32, width: u32, gradStride: u32, gradColumn: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> probs: array<f32>;
@group(0) @binding(2) var<storage, read> actions: array<u32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read> gradLogp: array<f32>;
@group(0) @binding(5) var<storage, read_write> dlogits: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.rows * p.width) { return; }
  let r = i / p.width;
  let j = i % p.width;
  let up = gradLogp[r * p.gradStride + p.gradColumn];
  let hit = select(0.0, 1.0, actions[r] == j);
  dlogits[r * p.stride + p.offset + j] = select(0.0, up * (hit - probs[i]), mask[i] != 0.0);
}
