// The seed-003 pairwise ranking loss over contiguous groups: mean over pairs with reward_i > reward_j
// of −log σ(log π_i − log π_j), log π = Σ_t mask·logp, and its gradient per token. One workgroup:
// first the pair count (rewards only), then each row in turn to a team of invocations (teamWidth in
// workgroupReduce.wgsl) that sums the group's log π in strided chunks and writes the row's
// gradient; fixed reduction trees keep the result deterministic. lossOut = [loss, pairs].
// CPU twin: src/ops/cpu/pairwiseLoss.ts
struct Params { rows: u32, tokens: u32, groupSize: u32 }
override WG: u32 = 64;
// Tokens per lane in one block of the two-level sums: about the square root of a lane's share of
// a 10^6-token row, which keeps both levels' float32 rounding small.
const BLOCK = 64u;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logp: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read> rewards: array<f32>;
@group(0) @binding(4) var<storage, read_write> gradLogp: array<f32>;
@group(0) @binding(5) var<storage, read_write> lossOut: array<f32>;
//#include workgroupReduce.wgsl

// log π of row b, by the team of invocation lid (`width` lanes, each summing every width-th token),
// or 0 where live is false. Every invocation must call it (segmentSum has barriers). Two-level
// sum: a lane may still see ~10^4 tokens, where one float32 running sum drifts in the 6th digit,
// so it sums blocks of BLOCK tokens and then the block sums. (Kahan compensation is no option:
// lavapipe's compiler folds its (s + y) − s − y to 0.)
fn rowLogp(lid: u32, width: u32, b: u32, live: bool) -> f32 {
  var s = 0.0;
  if (live) {
    for (var blockStart = lid % width; blockStart < p.tokens; blockStart += width * BLOCK) {
      var blockPart = 0.0;
      for (var t = blockStart; t < min(blockStart + width * BLOCK, p.tokens); t += width) {
        blockPart += mask[b * p.tokens + t] * logp[b * p.tokens + t];
      }
      s += blockPart;
    }
  }
  return segmentSum(lid, width, s);
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
  var pairPart = 0.0;
  for (var b = lid; b < p.rows; b += WG) {
    for (var j = groupStart(b); j < min(groupStart(b) + p.groupSize, p.rows); j++) {
      if (rewards[b] > rewards[j]) { pairPart += 1.0; }
    }
  }
  let pairs = workgroupSum(lid, pairPart);
  let scale = select(0.0, 1.0 / pairs, pairs > 0.0);

  let width = teamWidth(p.tokens);
  let lane = lid % width;
  var lossPart = 0.0;
  // Uniform loops (every invocation runs every step); the team of invocation lid takes row b, or
  // idles where the last step has fewer rows than teams. Each member j's log π is summed again
  // per row (no per-row storage in one workgroup): cost (groupSize + 1) row sums per row.
  for (var first = 0u; first < p.rows; first += WG / width) {
    let b = first + lid / width;
    let live = b < p.rows;
    let start = select(0u, groupStart(b), live);
    let lb = rowLogp(lid, width, b, live);
    var g = 0.0;
    for (var m = 0u; m < p.groupSize; m++) {
      let j = start + m;
      let member = live && j < p.rows;
      let lj = rowLogp(lid, width, j, member);
      if (member) {
        if (rewards[b] > rewards[j]) {
          // Lane 0 alone counts the pair's loss: every lane of the team holds the same sums.
          if (lane == 0u) { lossPart += negLogSigmoid(lb - lj); }
          g -= 1.0 - sigmoid(lb - lj);
        } else if (rewards[j] > rewards[b]) {
          g += 1.0 - sigmoid(lj - lb);
        }
      }
    }
    if (live) {
      for (var t = lane; t < p.tokens; t += width) { gradLogp[b * p.tokens + t] = scale * g * mask[b * p.tokens + t]; }
    }
  }
  let loss = workgroupSum(lid, lossPart);
  if (lid == 0u) { lossOut[0] = loss * scale; lossOut[1] = pairs; }
}
