// The seed-003 knob-3 options per row: n further blocks (0…15) are valid after insertion position
// p = insertion + 1 when n ≤ 16 − p and 12 ≤ p + n ≤ 16.  CPU twin: src/ops/cpu/knob3Mask.ts
// (rule: knob3Valid in src/core/env/controller.ts).
struct Params { rows: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> insertion: array<u32>;
@group(0) @binding(2) var<storage, read_write> mask: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flatIndex(gid, nwg);
  if (i >= p.rows * 16u) { return; }
  let pos = insertion[i / 16u] + 1u;
  let n = i % 16u;
  mask[i] = select(0.0, 1.0, n <= 16u - pos && pos + n >= 12u && pos + n <= 16u);
}
