// Each row takes one of its `choices` candidate vectors: into[r·stride + offset + j] =
// candidates[(r·choices + index[r])·width + j] (index[r] < choices). The fused training step builds
// stage 2's input this way: the sampled insertion picks that row's latency token among its five.
// One invocation per (row, column).  CPU twin: src/ops/cpu/selectCandidates.ts
struct Params { rows: u32, choices: u32, width: u32, stride: u32, offset: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> candidates: array<f32>;
@group(0) @binding(2) var<storage, read> index: array<u32>;
@group(0) @binding(3) var<storage, read_write> into: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.rows * p.width) { return; }
  let r = i / p.width;
  let j = i % p.width;
  into[r * p.stride + p.offset + j] = candidates[(r * p.choices + index[r]) * p.width + j];
}
