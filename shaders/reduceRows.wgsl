// Sum, mean or max of each row of x (rows × cols): one workgroup per row; invocation l takes columns
// l, l + WG, … in order, then the workgroup combines by a fixed tree.  CPU twin: src/ops/cpu/reduceRows.ts
struct Params { rows: u32, cols: u32 }
override WG: u32 = 64;
override OP: u32 = 0; // 0 sum, 1 mean, 2 max
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
//#include workgroupReduce.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = wid.x + wid.y * nwg.x;
  if (r >= p.rows) { return; }
  var acc = select(0.0, -3.4028234e38, OP == 2u);
  for (var c = lid; c < p.cols; c += WG) {
    let v = x[r * p.cols + c];
    acc = select(acc + v, max(acc, v), OP == 2u);
  }
  var total: f32;
  if (OP == 2u) { total = workgroupMax(lid, acc); } else { total = workgroupSum(lid, acc); }
  if (lid == 0u) { out[r] = select(total, total / f32(p.cols), OP == 1u); }
}
