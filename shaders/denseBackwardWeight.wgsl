// dw = xᵀ·dz (inDim × outDim) and db = Σ_rows dz (outDim), each summed over rows in order.
// Invocations 0 … inDim·outDim − 1 write dw, the next outDim write db.  CPU twin: src/ops/cpu/denseBackwardWeight.ts
struct Params { rows: u32, inDim: u32, outDim: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> dz: array<f32>;
@group(0) @binding(3) var<storage, read_write> dw: array<f32>;
@group(0) @binding(4) var<storage, read_write> db: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  let weights = p.inDim * p.outDim;
  if (i < weights) {
    let k = i / p.outDim;
    let o = i % p.outDim;
    var acc = 0.0;
    for (var r = 0u; r < p.rows; r++) {
      acc += x[r * p.inDim + k] * dz[r * p.outDim + o];
    }
    dw[i] = acc;
  } else if (i < weights + p.outDim) {
    let o = i - weights;
    var acc = 0.0;
    for (var r = 0u; r < p.rows; r++) {
      acc += dz[r * p.outDim + o];
    }
    db[o] = acc;
  }
}
