// dx = dz·Wᵀ: dz rows × outDim, w inDim × outDim → dx rows × inDim.  CPU twin: src/ops/cpu/denseBackwardInput.ts
struct Params { rows: u32, inDim: u32, outDim: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> dz: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read_write> dx: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.rows * p.inDim) { return; }
  let r = i / p.inDim;
  let k = i % p.inDim;
  var acc = 0.0;
  for (var o = 0u; o < p.outDim; o++) {
    acc += dz[r * p.outDim + o] * w[k * p.outDim + o];
  }
  dx[i] = acc;
}
