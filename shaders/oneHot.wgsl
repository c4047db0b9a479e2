// into[r·stride + offset + j] = 1 if actions[r] = j else 0, one invocation per (row, option).
// CPU twin: src/ops/cpu/oneHot.ts
struct Params { rows: u32, stride: u32, offset: u32, width: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> actions: array<u32>;
@group(0) @binding(2) var<storage, read_write> into: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.rows * p.width) { return; }
  let r = i / p.width;
  let j = i % p.width;
  into[r * p.stride + p.offset + j] = select(0.0, 1.0, actions[r] == j);
}
