// Categorical sampling from a head's masked softmax by inverse CDF, one invocation per row, with
// the uniform from Philox4x32-10 at counter (rowOffset + r, step, rank, stream) under key (seedLo, seedHi).
// Writes the action (0xffffffff for a row without valid options), its log-probability at
// logpOut[r·logpStride + logpColumn] and the probabilities (rows × width).  CPU twin: src/ops/cpu/categoricalSample.ts
struct Params {
  rows: u32, stride: u32, offset: u32, width: u32,
  seedLo: u32, seedHi: u32, rank: u32, step: u32, rowOffset: u32, stream: u32,
  logpStride: u32, logpColumn: u32,
}
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read_write> actions: array<u32>;
@group(0) @binding(4) var<storage, read_write> logpOut: array<f32>;
@group(0) @binding(5) var<storage, read_write> probs: array<f32>;
//#include index.wgsl
//#include headSoftmax.wgsl
//#include philox.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = flatIndex(gid, nwg);
  if (r >= p.rows) { return; }
  let s = headStats(r);
  let u = unitFloat(philox4x32(vec4u(p.rowOffset + r, p.step, p.rank, p.stream), vec2u(p.seedLo, p.seedHi)).x);
  var action = 0xffffffffu;
  var cumulative = 0.0;
  var done = false;
  for (var j = 0u; j < p.width; j++) {
    let prob = select(0.0, exp(logitAt(r, j) - s.max) / s.sum, s.any && isValid(r, j));
    probs[r * p.width + j] = prob;
    if (!done && isValid(r, j)) {
      action = j;
      cumulative += prob;
      done = u < cumulative;
    }
  }
  actions[r] = action;
  var lp = 0.0;
  if (action != 0xffffffffu) { lp = logitAt(r, action) - s.max - log(s.sum); }
  logpOut[r * p.logpStride + p.logpColumn] = lp;
}
