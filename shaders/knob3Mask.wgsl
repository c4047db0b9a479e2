// The seed-003 knob-3 options per row: n further blocks (0 … BLOCKS − 1) are valid after insertion
// position p = insertion + 1 when n ≤ BLOCKS − p and MIN_ACTIVE ≤ p + n ≤ BLOCKS.  CPU twin:
// src/ops/cpu/knob3Mask.ts (rule: knob3Valid in src/core/env/controller.ts). The sizes are
// overrides that src/gpu/kernels.ts sets from that file's table (KNOB3_WIDTH = TOTAL_BLOCKS, MIN_ACTIVE_BLOCKS).
struct Params { rows: u32 }
override WG: u32 = 64;
override BLOCKS: u32;
override MIN_ACTIVE: u32;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> insertion: array<u32>;
@group(0) @binding(2) var<storage, read_write> mask: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.rows * BLOCKS) { return; }
  let pos = insertion[i / BLOCKS] + 1u;
  let n = i % BLOCKS;
  mask[i] = select(0.0, 1.0, n <= BLOCKS - pos && pos + n >= MIN_ACTIVE && pos + n <= BLOCKS);
}
