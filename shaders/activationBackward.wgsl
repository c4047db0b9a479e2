// dz = dy · act'(z), element-wise over n values.  CPU twin: src/ops/cpu/activationBackward.ts
struct Params { n: u32 }
override WG: u32 = 64;
override ACTIVATION: u32 = 0;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> z: array<f32>;
@group(0) @binding(2) var<storage, read> dy: array<f32>;
@group(0) @binding(3) var<storage, read_write> dz: array<f32>;
//#include index.wgsl
//#include activation.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.n) { return; }
  dz[i] = dy[i] * activateDerivative(z[i]);
}
