// Σ −q·log q over n probabilities q (a term with q = 0, a masked option, counts 0), written to
// out[at]: the entropy of a head summed over its rows. One workgroup, fixed reduction tree.
// CPU twin: src/ops/cpu/entropySum.ts
struct Params { n: u32, at: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> probs: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
//#include workgroupReduce.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  var part = 0.0;
  for (var i = lid; i < p.n; i += WG) {
    let q = probs[i];
    if (q > 0.0) { part -= q * log(q); }
  }
  let total = workgroupSum(lid, part);
  if (lid == 0u) { out[p.at] = total; }
}
