// The seed-003 pairwise ranking loss over contiguous groups: mean over pairs with reward_i > reward_j
// of −log σ(log π_i − log π_j), log π = Σ_t mask·logp, and its gradient per token. One workgroup:
// first the pair count and loss (fixed tree), then each row's gradient. lossOut = [loss, pairs].
// CPU twin: src/ops/cpu/pairwiseLoss.ts
struct Params { rows: u32, tokens: u32, groupSize: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logp: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read> rewards: array<f32>;
@group(0) @binding(4) var<storage, read_write> gradLogp: array<f32>;
@group(0) @binding(5) var<storage, read_write> lossOut: array<f32>;
//#include workgroupReduce.wgsl

// Kahan-compensated: a row may hold 10^6 tokens, where a plain float32 sum drifts in the 4th digit.
fn seqLogp(b: u32) -> f32 {
  var s = 0.0;
  var comp = 0.0;
  for (var t = 0u; t < p.tokens; t++) {
    let y = mask[b * p.tokens + t] * logp[b * p.tokens + t] - comp;
    let sum = s + y;
    comp = (sum - s) - y;
    s = sum;
  }
  return s;
}

// −log σ(x) = softplus(−x), without overflow.
fn negLogSigmoid(x: f32) -> f32 {
  return select(-x + log(1.0 + exp(x)), log(1.0 + exp(-x)), x >= 0.0);
}

fn sigmoid(x: f32) -> f32 {
  return select(exp(x) / (1.0 + exp(x)), 1.0 / (1.0 + exp(-x)), x >= 0.0);
}

fn groupStart(b: u32) -> u32 { return b - b % p.groupSize; }

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  var lossPart = 0.0;
  var pairPart = 0.0;
  for (var b = lid; b < p.rows; b += WG) {
    let lb = seqLogp(b);
    for (var j = groupStart(b); j < min(groupStart(b) + p.groupSize, p.rows); j++) {
      if (rewards[b] > rewards[j]) {
        lossPart += negLogSigmoid(lb - seqLogp(j));
        pairPart += 1.0;
      }
    }
  }
  let pairs = workgroupSum(lid, pairPart);
  let loss = workgroupSum(lid, lossPart);
  let scale = select(0.0, 1.0 / pairs, pairs > 0.0);
  for (var b = lid; b < p.rows; b += WG) {
    let lb = seqLogp(b);
    var g = 0.0;
    for (var j = groupStart(b); j < min(groupStart(b) + p.groupSize, p.rows); j++) {
      if (rewards[b] > rewards[j]) { g -= 1.0 - sigmoid(lb - seqLogp(j)); }
      else if (rewards[j] > rewards[b]) { g += 1.0 - sigmoid(seqLogp(j) - lb); }
    }
    for (var t = 0u; t < p.tokens; t++) { gradLogp[b * p.tokens + t] = scale * g * mask[b * p.tokens + t]; }
  }
  if (lid == 0u) { lossOut[0] = loss * scale; lossOut[1] = pairs; }
}
