// How GPU tests get a device: a real adapter (SwiftShader with Dawn in Node, lavapipe or
// SwiftShader in Deno). In CI (CI=true) having none is a failure; locally the tests are skipped
// with a loud message on stderr, never counted as passing.
import process from 'node:process';
import { requestGpuDevice, type GpuDeviceResult } from '../../src/gpu/device.ts';

export interface TestGpu {
  result: GpuDeviceResult;
  /** node:test `skip` option: false when tests must run (a device, or CI wanting the failure). */
  skip: string | false;
}

/** Requests a device for a test file; logs which adapter, or why none. */
export async function testGpu(): Promise<TestGpu> {
  const result = await requestGpuDevice();
  if (result.ok) {
    process.stderr.write(`# WebGPU adapter: ${result.adapterInfo}\n`);
    return { result, skip: false };
  }
  if (process.env.CI === 'true') {
    process.stderr.write(`# WebGPU: no adapter in CI (${result.reason}); the GPU tests will FAIL\n`);
    return { result, skip: false };
  }
  process.stderr.write(`\n# !!! WebGPU tests SKIPPED: ${result.reason}\n# !!! (in CI they fail instead)\n\n`);
  return { result, skip: `no WebGPU adapter: ${result.reason}` };
}

/** The device, or a thrown error naming why there is none (what a CI run reports). */
export function deviceOf(gpu: TestGpu): GPUDevice {
  if (!gpu.result.ok) throw new Error(`no WebGPU adapter: ${gpu.result.reason}`);
  return gpu.result.device;
}
