// The simulated seed-003 reward of each sampled configuration; row r belongs to input r / groupSize.
// Formula and constants: configReward in src/core/env/controller.ts.  CPU twin: src/ops/cpu/controllerReward.ts
struct Params { rows: u32, groupSize: u32 }
override WG: u32 = 64;
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> tier: array<u32>;
@group(0) @binding(2) var<storage, read> insertion: array<u32>;
@group(0) @binding(3) var<storage, read> topK: array<u32>;
@group(0) @binding(4) var<storage, read> knob3: array<u32>;
@group(0) @binding(5) var<storage, read> difficulty: array<f32>;
@group(0) @binding(6) var<storage, read> budgetMs: array<f32>;
@group(0) @binding(7) var<storage, read_write> rewards: array<f32>;
//#include index.wgsl

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = flatIndex(gid, nwg);
  if (r >= p.rows) { return; }
  let input = r / p.groupSize;
  let crops = f32(select(select(12u, 6u, tier[r] == 1u), 3u, tier[r] == 0u));
  let pos = f32(insertion[r] + 1u);
  let k = f32(topK[r] + 4u);
  let blocks = pos + f32(knob3[r]);
  let quality = 0.12 * crops + 0.15 * (k - 4.0) + 0.2 * (blocks - 12.0) + 0.05 * (pos - 1.0);
  let accuracy = 1.0 - difficulty[input] * exp(-quality);
  let latencyMs = pos + 1.5 * crops + (blocks - pos) * (1.0 + 0.15 * k);
  rewards[r] = accuracy - 0.05 * max(0.0, latencyMs - budgetMs[input]);
}
