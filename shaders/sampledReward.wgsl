// Each sampled configuration's reward and expected reward, looked up in the bank's table of
// src/core/env/reward-table.ts (four words per prompt and valid configuration: expected, reward
// if the correctness draw succeeds, reward if it fails, the draw's threshold). The draw is
// scoreSample's: Philox at (rowOffset + r, step, 0, stream); it succeeds when its 24 bits are below
// the threshold (0 for dense rewards). Writes scored = [rewards (rows), expected rewards (rows)].
// CPU twin: scoreSample in src/core/env/task.ts.
struct Params { rows: u32, configs: u32, seedLo: u32, seedHi: u32, step: u32, rowOffset: u32, stream: u32 }
override WG: u32 = 64;
override INSERTIONS: u32 = 5u;
override TOP_KS: u32 = 5u;
override KNOB3_OPTIONS: u32 = 5u;
override MIN_ACTIVE: u32 = 12u;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> tier: array<u32>;
@group(0) @binding(2) var<storage, read> insertion: array<u32>;
@group(0) @binding(3) var<storage, read> topK: array<u32>;
@group(0) @binding(4) var<storage, read> knob3: array<u32>;
@group(0) @binding(5) var<storage, read> prompt: array<u32>;
@group(0) @binding(6) var<storage, read> table: array<u32>;
@group(0) @binding(7) var<storage, read_write> scored: array<f32>;
//#include index.wgsl
//#include philox.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = flatIndex(gid, nwg);
  if (r >= p.rows) { return; }
  let ins = insertion[r];
  // validConfigIndex of reward-table.ts: knob 3's valid options start at MIN_ACTIVE − (ins + 1).
  let config = ((tier[r] * INSERTIONS + ins) * TOP_KS + topK[r]) * KNOB3_OPTIONS + (knob3[r] + ins + 1u - MIN_ACTIVE);
  let at = 4u * (prompt[r] * p.configs + config);
  let bits = philox4x32(vec4u(p.rowOffset + r, p.step, 0u, p.stream), vec2u(p.seedLo, p.seedHi)).x >> 8u;
  scored[r] = bitcast<f32>(select(table[at + 2u], table[at + 1u], bits < table[at + 3u]));
  scored[p.rows + r] = bitcast<f32>(table[at]);
}
