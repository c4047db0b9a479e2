// TRL's GRPO loss and d loss / d logp for a batch of rows × tokens, in one workgroup (the batch
// fits easily; a fixed reduction tree keeps the result deterministic). lossType: 0 grpo, 1 bnpo,
// 2 dr_grpo, 3 dapo.  CPU twin and the formulas: src/ops/cpu/grpoLoss.ts
struct Params { rows: u32, tokens: u32, lossType: u32, epsilonLow: f32, epsilonHigh: f32, beta: f32, maxCompletionLength: f32 }
override WG: u32 = 64;
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

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  let n = p.rows * p.tokens;
  var count = 0.0;
  for (var i = lid; i < n; i += WG) { count += mask[i]; }
  let batchTokens = workgroupSum(lid, count);

  // Kahan-compensated: one invocation may sum a whole 10^6-token row, where a plain float32 sum
  // drifts in the 4th digit; the compensation keeps it within ~1e-7 of the CPU reference.
  var lossPart = 0.0;
  var lossComp = 0.0;
  for (var b = lid; b < p.rows; b += WG) {
    var rowTokens = 0.0;
    for (var t = 0u; t < p.tokens; t++) { rowTokens += mask[b * p.tokens + t]; }
    let weight = tokenWeight(rowTokens, batchTokens);
    let a = advantages[b];
    for (var t = 0u; t < p.tokens; t++) {
      let i = b * p.tokens + t;
      if (mask[i] == 0.0) { gradLogp[i] = 0.0; continue; }
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
      let y = weight * mask[i] * loss - lossComp;
      let sum = lossPart + y;
      lossComp = (sum - lossPart) - y;
      lossPart = sum;
      gradLogp[i] = weight * mask[i] * grad;
    }
  }
  let total = workgroupSum(lid, lossPart);
  if (lid == 0u) { lossOut[0] = total; }
}
