// The advantages of a gathered batch by the group rule of src/core/grpo/scheme-groups.ts (every
// scheme of schemes.ts): group g holds members[starts[g] .. starts[g + 1]); a row's advantage is
// (r − group mean) / (std + eps), the std (ddof 0 or 1) the group's or, with batchStd, the whole
// batch's; divide 0: r − mean; loneKeepsReward: a group of one keeps r (÷ loneDivisor when
// dividing). Means are shifted by the first member, so a group of equal rewards has advantage 0
// exactly. One workgroup, a group per invocation.  CPU twin: advantagesOfGroups in scheme-groups.ts
struct Params { rows: u32, groups: u32, ddof: u32, batchStd: u32, eps: f32, divide: u32, loneKeepsReward: u32, loneDivisor: f32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> rewards: array<f32>;
@group(0) @binding(2) var<storage, read> members: array<u32>;
@group(0) @binding(3) var<storage, read> starts: array<u32>;
@group(0) @binding(4) var<storage, read_write> advantages: array<f32>;
//#include workgroupReduce.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  let first = rewards[0];
  var part = 0.0;
  for (var i = lid; i < p.rows; i += WG) { part += rewards[i] - first; }
  let batchMean = first + workgroupSum(lid, part) / f32(p.rows);
  var sq = 0.0;
  for (var i = lid; i < p.rows; i += WG) { sq += (rewards[i] - batchMean) * (rewards[i] - batchMean); }
  let batchStd = sqrt(workgroupSum(lid, sq) / f32(p.rows - p.ddof));
  for (var g = lid; g < p.groups; g += WG) {
    let a = starts[g];
    let b = starts[g + 1u];
    let n = b - a;
    let f = rewards[members[a]];
    var s = 0.0;
    for (var j = a; j < b; j++) { s += rewards[members[j]] - f; }
    let mean = f + s / f32(n);
    var q = 0.0;
    for (var j = a; j < b; j++) { q += (rewards[members[j]] - mean) * (rewards[members[j]] - mean); }
    let groupStd = sqrt(q / f32(n - p.ddof));
    var divisor = 1.0;
    if (p.divide != 0u) { divisor = select(groupStd, batchStd, p.batchStd != 0u) + p.eps; }
    for (var j = a; j < b; j++) {
      let i = members[j];
      var adv = (rewards[i] - mean) / divisor;
      if (n == 1u && p.loneKeepsReward != 0u) { adv = select(rewards[i], rewards[i] / p.loneDivisor, p.divide != 0u); }
      advantages[i] = adv;
    }
  }
}
