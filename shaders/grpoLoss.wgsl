// TRL's GRPO loss and d loss / d logp for a batch of rows × tokens, in one workgroup: each row goes
// to a team of invocations (teamWidth in workgroupReduce.wgsl) that splits its tokens in strided
// chunks, and fixed reduction trees keep the result deterministic. lossType: 0 grpo, 1 bnpo,
// 2 dr_grpo, 3 dapo.  CPU twin and the formulas: src/ops/cpu/grpoLoss.ts
struct Params { rows: u32, tokens: u32, lossType: u32, epsilonLow: f32, epsilonHigh: f32, beta: f32, maxCompletionLength: f32 }
override WG: u32 = 64;
// Tokens per lane in one block of the two-level sums: about the square root of a lane's share of
// a 10^6-token row, which keeps both levels' float32 rounding small.
const BLOCK = 64u;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logp: array<f32>;
@group(0) @binding(2) var<storage, read> oldLogp: array<f32>;
@group(0) @binding(3) var<storage, read> refLogp: array<f32>;
@group(0) @binding(4) var<storage, read> mask: array<f32>;
@group(0) @binding(5) var<storage, read> advantages: array<f32>;
@group(0) @binding(6) var<storage, read_write> gradLogp: array<f32>;
@group(0) @binding(7) var<storage, read_write> lossOut: array<f32>;
//#include workgroupReduce.wgsl

fn tokenWeight(rowTokens: f32, batchTokens: f32) -> f32 {
  switch p.lossType {
    case 0u: { return 1.0 / (f32(p.rows) * max(rowTokens, 1.0)); }
    case 2u: { return 1.0 / (f32(p.rows) * p.maxCompletionLength); }
    default: { return 1.0 / max(batchTokens, 1.0); }
  }
}

// One token's (loss, d loss / d logp) at flat index i of a row with advantage a.
fn tokenLoss(i: u32, a: f32) -> vec2<f32> {
  let ratio = exp(logp[i] - oldLogp[i]);
  let clipped = clamp(ratio, 1.0 - p.epsilonLow, 1.0 + p.epsilonHigh);
  var loss: f32;
  var grad: f32;
  if (ratio * a <= clipped * a) {
    loss = -ratio * a;
    grad = -ratio * a;
  } else {
    loss = -clipped * a;
    grad = select(0.0, -ratio * a, ratio > 1.0 - p.epsilonLow && ratio < 1.0 + p.epsilonHigh);
  }
  if (p.beta != 0.0) {
    let d = refLogp[i] - logp[i];
    loss += p.beta * (exp(d) - d - 1.0);
    grad += p.beta * (1.0 - exp(d));
  }
  return vec2(loss, grad);
}

// Row b's share of the loss from the lane `lane` of its team of `width`, writing those tokens'
// gradients. Two-level sum: a lane may still see ~10^4 tokens, where one float32 running sum
// drifts in the 6th digit, so it sums blocks of BLOCK tokens and then the block sums. (Kahan
// compensation is no option: lavapipe's compiler folds its (s + y) − s − y to 0.)
fn rowLoss(b: u32, lane: u32, width: u32, weight: f32) -> f32 {
  var part = 0.0;
  for (var blockStart = lane; blockStart < p.tokens; blockStart += width * BLOCK) {
    var blockPart = 0.0;
    for (var t = blockStart; t < min(blockStart + width * BLOCK, p.tokens); t += width) {
      let i = b * p.tokens + t;
      if (mask[i] == 0.0) { gradLogp[i] = 0.0; continue; }
      let lg = weight * mask[i] * tokenLoss(i, advantages[b]);
      blockPart += lg.x;
      gradLogp[i] = lg.y;
    }
    part += blockPart;
  }
  return part;
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  let n = p.rows * p.tokens;
  var count = 0.0;
  for (var i = lid; i < n; i += WG) { count += mask[i]; }
  let batchTokens = workgroupSum(lid, count);

  let width = teamWidth(p.tokens);
  let lane = lid % width;
  var lossPart = 0.0;
  // Uniform loop (every invocation runs every step, as segmentSum's barriers require); the team
  // of invocation lid takes row b, or idles where the last step has fewer rows than teams.
  for (var first = 0u; first < p.rows; first += WG / width) {
    let b = first + lid / width;
    let live = b < p.rows;
    var tokensPart = 0.0;
    if (live) {
      for (var t = lane; t < p.tokens; t += width) { tokensPart += mask[b * p.tokens + t]; }
    }
    let rowTokens = segmentSum(lid, width, tokensPart);
    if (live) { lossPart += rowLoss(b, lane, width, tokenWeight(rowTokens, batchTokens)); }
  }
  let total = workgroupSum(lid, lossPart);
  if (lid == 0u) { lossOut[0] = total; }
}
