// Training with every rank's ops on its own WebGPU device (SwiftShader here) against the CPU
// reference, and the auto backend's fallback. Fails in CI without an adapter; skips loudly locally.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testGpu } from '../helpers/gpu.ts';
import { runTrain } from './helpers.ts';

const gpu = await testGpu();
if (gpu.result.ok) gpu.result.device.destroy();

const tiny = { ranks: 2, batch: 8, k: 4, sampler: 'trl', steps: 3 } as const;

// Tolerance: the kernels sum in float32 where the CPU reference sums in float64 (see the op
// suite, test/ops/cases.ts), so float metrics agree to 1e-4 relative; the sampled actions, and
// so the rewards, are the same (Philox is bit-identical on both; no probability is that close
// to a draw in these 3 steps).
test('--backend webgpu: each rank trains on its own GPU device and matches the CPU run', { skip: gpu.skip }, async () => {
  const cpu = await runTrain({ ...tiny, backend: 'cpu' });
  const web = await runTrain({ ...tiny, backend: 'webgpu' });
  assert.match(web.device, /swiftshader|lavapipe|llvmpipe|vulkan|gpu/i);
  web.plain.forEach((m, i) => {
    const c = cpu.plain[i]!;
    assert.equal(m.rewardMean, c.rewardMean, `step ${m.step} rewardMean`);
    assert.equal(m.optimumFraction, c.optimumFraction);
    for (const key of ['gradNorm', 'rewardStd'] as const)
      assert.ok(Math.abs(m[key] - c[key]) <= 1e-4 * Math.abs(c[key]), `step ${m.step} ${key}: ${m[key]} vs ${c[key]}`);
    assert.ok(Math.abs(m.loss - c.loss) <= 1e-6, `step ${m.step} loss: ${m.loss} vs ${c.loss}`);
  });
  web.final.params.forEach((p, i) => assert.ok(Math.abs(p - cpu.final.params[i]!) <= 1e-4, `param ${i}: ${p} vs ${cpu.final.params[i]}`));
});

test('--backend auto uses WebGPU when every rank gets a device', { skip: gpu.skip }, async () => {
  const notices: string[] = [];
  const r = await runTrain({ ...tiny, steps: 1, backend: 'auto' }, { onNotice: (l) => notices.push(l) });
  assert.notEqual(r.device, 'cpu');
  assert.deepEqual(notices, []);
});
