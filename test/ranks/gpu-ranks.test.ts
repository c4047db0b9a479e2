import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World } from '../../src/ranks/world.ts';
import { liveRankWorkers } from '../../src/ranks/spawn.ts';
import { testGpu } from '../helpers/gpu.ts';

// Opt-in per-rank WebGPU devices (Dawn + SwiftShader in Node worker threads, wgpu in Deno).
// Where this machine has no adapter the test is a declared skip locally and fails in CI, where
// one must exist; where it has one, every rank must get a device too.
// Known: Dawn segfaults the process if the GPU object from webgpu's create() is garbage-collected
// while its device lives; src/gpu/device.ts must keep that object referenced (reported to its owner).
const gpu = await testGpu();
if (gpu.result.ok) gpu.result.device.destroy();

test('each rank may own a GPUDevice: upload, read back, then allReduce with Atomics.waitAsync', { skip: gpu.skip }, async () => {
  const world = await World.start({ size: 2, gpu: true, timeoutMs: 30_000 });
  try {
    assert.ok(
      world.devices.every((d) => typeof d.gpu === 'string' && d.gpu.length > 0),
      JSON.stringify(world.devices),
    );
    const results = await world.run<{ info: string; mode: string; sum: number[] }>({
      module: new URL('./programs.ts', import.meta.url),
      name: 'gpuRoundTrip',
    });
    for (const r of results) assert.deepEqual([r.mode, r.sum], ['async', [3, 6]]);
  } finally {
    await world.stop();
  }
  assert.equal(liveRankWorkers(), 0);
});
