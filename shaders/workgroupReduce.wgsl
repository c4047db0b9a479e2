// Included by the single-workgroup kernels: sum and max across the WG invocations of a workgroup
// by a fixed binary tree (so a result never depends on scheduling). WG must be a power of two,
// and every invocation must call these from uniform control flow.
var<workgroup> scratch: array<f32, WG>;

fn workgroupSum(lid: u32, v: f32) -> f32 {
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { scratch[lid] = scratch[lid] + scratch[lid + s]; }
    workgroupBarrier();
  }
  let total = scratch[0];
  workgroupBarrier();
  return total;
}

fn workgroupMax(lid: u32, v: f32) -> f32 {
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { scratch[lid] = max(scratch[lid], scratch[lid + s]); }
    workgroupBarrier();
  }
  let total = scratch[0];
  workgroupBarrier();
  return total;
}
