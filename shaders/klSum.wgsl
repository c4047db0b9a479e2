// Σ over n tokens of the k3 estimator e^d − d − 1, d = refLogp − logp (the per-token KL to the
// reference policy that TRL logs), written to out[at]: the kl metric's sum. One workgroup, fixed
// reduction tree.  CPU twin: the klSum of optimiseOn in src/train/step.ts
struct Params { n: u32, at: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logp: array<f32>;
@group(0) @binding(2) var<storage, read> refLogp: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
//#include workgroupReduce.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  var part = 0.0;
  for (var i = lid; i < p.n; i += WG) {
    let d = refLogp[i] - logp[i];
    part += exp(d) - d - 1.0;
  }
  let total = workgroupSum(lid, part);
  if (lid == 0u) { out[p.at] = total; }
}
