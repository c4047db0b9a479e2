// TRL's group-relative advantages for contiguous groups: (r − group mean) / (std + 1e-4), std
// unbiased, per group (scale 0), over the batch (1) or none (2: no division). One workgroup; also
// writes stats = [batch mean reward, batch std].  CPU twin: src/ops/cpu/groupAdvantage.ts
struct Params { rows: u32, groupSize: u32, scale: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> rewards: array<f32>;
@group(0) @binding(2) var<storage, read_write> advantages: array<f32>;
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;
//#include workgroupReduce.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  var part = 0.0;
  for (var i = lid; i < p.rows; i += WG) { part += rewards[i]; }
  let mean = workgroupSum(lid, part) / f32(p.rows);
  var sq = 0.0;
  for (var i = lid; i < p.rows; i += WG) { sq += (rewards[i] - mean) * (rewards[i] - mean); }
  let batchStd = sqrt(workgroupSum(lid, sq) / f32(p.rows - 1u));
  for (var g = lid * p.groupSize; g < p.rows; g += WG * p.groupSize) {
    var s = 0.0;
    for (var i = g; i < g + p.groupSize; i++) { s += rewards[i]; }
    let gm = s / f32(p.groupSize);
    var q = 0.0;
    for (var i = g; i < g + p.groupSize; i++) { q += (rewards[i] - gm) * (rewards[i] - gm); }
    let groupStd = sqrt(q / f32(p.groupSize - 1u));
    var divisor = 1.0;
    if (p.scale == 0u) { divisor = groupStd + 1e-4; } else if (p.scale == 1u) { divisor = batchStd + 1e-4; }
    for (var i = g; i < g + p.groupSize; i++) { advantages[i] = (rewards[i] - gm) / divisor; }
  }
  if (lid == 0u) { stats[0] = mean; stats[1] = batchStd; }
}
