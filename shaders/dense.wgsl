// z = x·W + b, y = act(z) for a batch of rows; one invocation per output element.
// x: rows × inDim, w: inDim × outDim, b: outDim, z and y: rows × outDim.  CPU twin: src/ops/cpu/dense.ts
struct Params { rows: u32, inDim: u32, outDim: u32 }
override WG: u32 = 64;
override ACTIVATION: u32 = 0;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read> b: array<f32>;
@group(0) @binding(4) var<storage, read_write> z: array<f32>;
@group(0) @binding(5) var<storage, read_write> y: array<f32>;
//#include index.wgsl
//#include activation.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.rows * p.outDim) { return; }
  let r = i / p.outDim;
  let o = i % p.outDim;
  var acc = b[o];
  for (var k = 0u; k < p.inDim; k++) {
    acc += x[r * p.inDim + k] * w[k * p.outDim + o];
  }
  z[i] = acc;
  y[i] = activate(acc);
}
