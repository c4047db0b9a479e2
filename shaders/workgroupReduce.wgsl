// Included by the single-workgroup kernels: sum and max across the WG invocations of a workgroup
// by a fixed binary tree (so a result never depends on scheduling). WG must be a power of two,
// and every invocation must call these from uniform control flow.
var<workgroup> scratch: array<f32, WG>;

fn workgroupSum(lid: u32, v: f32) -> f32 {
  return segmentSum(lid, WG, v);
}

// Sums v over each aligned segment of `width` invocations (a power of two ≤ WG; a "team" that
// shares one row) by a fixed binary tree; every invocation gets its own segment's total.
fn segmentSum(lid: u32, width: u32, v: f32) -> f32 {
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = width / 2u; s > 0u; s = s / 2u) {
    if (lid % width < s) { scratch[lid] = scratch[lid] + scratch[lid + s]; }
    workgroupBarrier();
  }
  let total = scratch[lid - lid % width];
  workgroupBarrier();
  return total;
}

// The team width for rows of p.tokens tokens: the smallest power of two ≥ tokens, at most WG, so
// a long row is split across the whole workgroup and short rows run WG / width at a time. Every
// invocation loops only ~tokens / width times per row: Mesa's llvmpipe (lavapipe) stops a shader's
// loops after 65535 iterations in total per invocation, which silently truncated the sums when one
// invocation walked a whole 10^6-token row.
fn teamWidth(tokens: u32) -> u32 {
  var width = 1u;
  while (width < tokens && width < WG) { width *= 2u; }
  return width;
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
