import { after, test } from 'node:test';
import { createGpuBackend, type GpuBackend } from '../../src/gpu/ops.ts';
import { deviceOf, testGpu } from '../helpers/gpu.ts';
import { opsCases } from './cases.ts';

// The op suite of test/ops/cases.ts on a real WebGPU adapter (Dawn in Node, wgpu in Deno),
// each op compared with the CPU reference. Fails in CI without an adapter; skips loudly locally.
const gpu = await testGpu();
let backend: GpuBackend | undefined;
const get = async () => (backend ??= await createGpuBackend(deviceOf(gpu)));

for (const c of opsCases) test(`webgpu: ${c.name}`, { skip: gpu.skip }, async () => c.run(await get()));

after(() => {
  backend?.destroy();
  if (gpu.result.ok) gpu.result.device.destroy();
});
