// The kernels that keep one rank's step on the device, against their CPU definitions: sampledReward
// against scoreSample (bit for bit, dense and sparse), schemeAdvantage against schemeAdvantages for
// every scheme (float32 tolerance), ties, prompts drawn twice and verl's lone samples included.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DEFAULT_DIMS } from '../../src/core/env/controller.ts';
import { rewardTable } from '../../src/core/env/reward-table.ts';
import { CORRECTNESS_STREAM, makeTask, scoreSample, VALID_CONFIGS } from '../../src/core/env/task.ts';
import { packedGroups, schemeGroups } from '../../src/core/grpo/scheme-groups.ts';
import { schemeAdvantageParams } from '../../src/gpu/fused-step.ts';
import { ADVANTAGE_SCHEMES, schemeAdvantages } from '../../src/core/grpo/schemes.ts';
import { philoxKey } from '../../src/core/rng/philox.ts';
import { readBuffers, storageBuffer, uploadBuffer } from '../../src/gpu/buffers.ts';
import { Kernels } from '../../src/gpu/kernels.ts';
import { deviceOf, testGpu } from '../helpers/gpu.ts';

const gpu = await testGpu();
after(() => {
  if (gpu.result.ok) gpu.result.device.destroy();
});

async function run(
  k: Kernels,
  name: 'sampledReward' | 'schemeAdvantage',
  spec: Parameters<Kernels['prepare']>[1],
  out: GPUBuffer,
  n: number,
) {
  const d = k.prepare(name, spec);
  const encoder = k.device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  k.encode(pass, d);
  pass.end();
  const [bytes] = await readBuffers(k.device, [{ buffer: out, bytes: n * 4 }], encoder);
  d.release();
  return new Float32Array(bytes!);
}

test('sampledReward looks up scoreSample’s rewards bit for bit (dense and sparse)', { skip: gpu.skip }, async () => {
  const device = deviceOf(gpu);
  const k = await Kernels.load(device);
  const task = makeTask(DEFAULT_DIMS, 11, 48);
  const rows = 200;
  const configs = Array.from({ length: rows }, (_, r) => VALID_CONFIGS[(r * 37) % VALID_CONFIGS.length]!);
  const prompts = Uint32Array.from({ length: rows }, (_, r) => (r * 5) % task.prompts.count);
  const column = (f: (c: (typeof configs)[number]) => number) => uploadBuffer(device, Uint32Array.from(configs, f));
  const actions = [column((c) => c.tier), column((c) => c.insertion), column((c) => c.topK), column((c) => c.knob3)];
  const [seedLo, seedHi] = philoxKey(11);
  for (const mode of ['dense', 'sparse'] as const) {
    const out = storageBuffer(device, 2 * rows);
    const params = { rows, configs: VALID_CONFIGS.length, seedLo, seedHi, step: 3, rowOffset: 40, stream: CORRECTNESS_STREAM };
    const buffers = [...actions, uploadBuffer(device, prompts), uploadBuffer(device, rewardTable(task, mode)), out];
    const got = await run(k, 'sampledReward', { params, buffers, invocations: rows }, out, 2 * rows);
    configs.forEach((c, r) => {
      const want = scoreSample(task, prompts[r]!, c, mode, { seed: 11, step: 3, gatheredIndex: 40 + r });
      assert.equal(got[r], Math.fround(want.reward), `${mode} row ${r} reward`);
      assert.equal(got[rows + r], Math.fround(want.expected), `${mode} row ${r} expected`);
    });
  }
  k.destroy();
});

test('schemeAdvantage gives schemeAdvantages for every scheme within float32 rounding', { skip: gpu.skip }, async () => {
  const device = deviceOf(gpu);
  const k = await Kernels.load(device);
  const n = 96;
  const rewards = Float32Array.from({ length: n }, (_, i) => (i % 7 === 3 ? 0.5 : Math.sin(i * 2.3) * 0.9));
  // Groups of 4 (k) by prompt, one prompt drawn twice, one lone sample, a tied group (all 0.5).
  const promptIds = Int32Array.from({ length: n }, (_, i) => (i === n - 1 ? 999 : Math.floor(i / 4) % 20));
  rewards.fill(0.5, 8, 12);
  for (const scheme of ADVANTAGE_SCHEMES) {
    const input = { rewards, promptIds, k: 4, ranks: 2 };
    const want = schemeAdvantages(scheme, input);
    const s = schemeGroups(scheme, input);
    const { members, starts } = packedGroups(s.groups);
    const out = storageBuffer(device, n);
    const params = { rows: n, ...schemeAdvantageParams(s) };
    const buffers = [uploadBuffer(device, rewards), uploadBuffer(device, members), uploadBuffer(device, starts), out];
    const got = await run(k, 'schemeAdvantage', { params, buffers, workgroups: 1 }, out, n);
    want.forEach((w, i) => assert.ok(Math.abs(got[i]! - w) <= 1e-5 * (1 + Math.abs(w)), `${scheme} row ${i}: ${got[i]} vs ${w}`));
    // A tied group's advantages are exactly 0 wherever the scheme subtracts the group's mean.
    if (s.groups.some((g) => g.includes(8) && g.length === 4)) for (let i = 8; i < 12; i++) assert.equal(got[i], 0, `${scheme} tie`);
  }
  k.destroy();
});
