// The fused seed-003 controller training step (src/gpu/controllerStep.ts: one encoder, one
// submit per step) against the CPU reference step (src/train/controllerStep.ts) and the same step
// written with TensorFlow.js on its WebGPU backend, on the same GPUDevice. Reports ms per step,
// steps per second, and the dispatches and submits each step issues (counted by wrapping the
// WebGPU entry points during the timed steps).
import process from 'node:process';
import { makePrompts } from '../src/core/env/controller.ts';
import { GpuControllerTrainer } from '../src/gpu/controllerStep.ts';
import { requestGpuDevice } from '../src/gpu/device.ts';
import { Kernels } from '../src/gpu/kernels.ts';
import { CpuControllerTrainer, DEFAULT_TRAIN_CONFIG, type ControllerTrainConfig } from '../src/train/controllerStep.ts';
import { tfjsControllerStep, useTfjsOnDevice } from './tfjs-controller-step.ts';
import { printTable } from './timing.ts';

interface Measured {
  msPerStep: number;
  dispatches: number;
  submits: number;
}

/** Times `steps` calls of `step`, then `settle` (waits for the GPU); counts dispatches and submits meanwhile. */
async function measure(device: GPUDevice | null, steps: number, step: () => unknown, settle: () => Promise<unknown>): Promise<Measured> {
  const counts = { dispatches: 0, submits: 0 };
  const restore: (() => void)[] = [];
  if (device) {
    const proto = (globalThis as unknown as { GPUComputePassEncoder: { prototype: GPUComputePassEncoder } }).GPUComputePassEncoder
      .prototype;
    const dispatch = proto.dispatchWorkgroups;
    proto.dispatchWorkgroups = function (this: GPUComputePassEncoder, ...args: Parameters<GPUComputePassEncoder['dispatchWorkgroups']>) {
      counts.dispatches++;
      return dispatch.apply(this, args);
    };
    const submit = device.queue.submit;
    device.queue.submit = function (this: GPUQueue, buffers: Iterable<GPUCommandBuffer>) {
      counts.submits++;
      return submit.call(this, buffers);
    };
    restore.push(() => {
      proto.dispatchWorkgroups = dispatch;
      device.queue.submit = submit;
    });
  }
  const t0 = performance.now();
  try {
    for (let i = 0; i < steps; i++) await step();
    await settle();
  } finally {
    for (const r of restore) r();
  }
  return { msPerStep: (performance.now() - t0) / steps, dispatches: counts.dispatches / steps, submits: counts.submits / steps };
}

export default async function trainStepBench(): Promise<void> {
  const sizes = process.env.BENCH_QUICK
    ? [{ prompts: 256, k: 8 }]
    : [
        { prompts: 256, k: 8 },
        { prompts: 1024, k: 8 },
      ];
  const gpu = await requestGpuDevice();
  console.log(gpu.ok ? `WebGPU adapter: ${gpu.adapterInfo}` : `WebGPU unavailable (${gpu.reason}): measuring the CPU reference only`);
  const kernels = gpu.ok ? await Kernels.load(gpu.device) : null;
  let tfjsBackend = '';
  if (gpu.ok) {
    try {
      tfjsBackend = await useTfjsOnDevice(gpu.device);
    } catch (err) {
      console.log(`tfjs cannot use this device: ${(err as Error).message}`);
    }
  }
  const rows: (string | number)[][] = [];
  for (const size of sizes) {
    const config: ControllerTrainConfig = { ...DEFAULT_TRAIN_CONFIG, prompts: size.prompts, groupSize: size.k };
    const prompts = makePrompts(config.dims, config.prompts, config.seed);
    const label = `${size.prompts}×${size.k} (dModel ${config.dims.dModel}, hidden ${config.dims.hidden})`;
    const results: [string, Measured][] = [];

    const cpu = new CpuControllerTrainer(config, prompts);
    cpu.step();
    results.push([
      'CPU reference',
      await measure(
        null,
        3,
        () => cpu.step(),
        async () => {},
      ),
    ]);

    if (gpu.ok && kernels) {
      const device = gpu.device;
      // Any validation error would mean skipped GPU work and flattering figures: say so.
      device.pushErrorScope('validation');
      const ours = await GpuControllerTrainer.create(device, config, { kernels, prompts, metricsEvery: 10 });
      for (let i = 0; i < 3; i++) await ours.step();
      await ours.takeMetrics();
      await device.queue.onSubmittedWorkDone();
      results.push([
        'WebGPU fused (ours)',
        await measure(
          device,
          20,
          () => ours.step(),
          async () => {
            await ours.takeMetrics();
            await device.queue.onSubmittedWorkDone();
          },
        ),
      ]);
      ours.destroy();
      if (tfjsBackend) {
        const theirs = tfjsControllerStep(config, prompts);
        for (let i = 0; i < 2; i++) theirs.step();
        await theirs.readLoss();
        results.push([
          `tfjs ${tfjsBackend}`,
          await measure(
            device,
            5,
            () => theirs.step(),
            () => theirs.readLoss(),
          ),
        ]);
        theirs.dispose();
      }
      const error = await device.popErrorScope();
      if (error) console.log(`WARNING: a validation error occurred, figures below are not valid: ${error.message}`);
    }
    const tfjs = results.find(([name]) => name.startsWith('tfjs'))?.[1];
    for (const [name, m] of results) {
      rows.push([
        label,
        name,
        m.msPerStep.toFixed(1),
        (1000 / m.msPerStep).toFixed(1),
        name === 'CPU reference' ? '–' : m.dispatches.toFixed(0),
        name === 'CPU reference' ? '–' : m.submits.toFixed(1),
        tfjs ? `${(tfjs.msPerStep / m.msPerStep).toFixed(2)}×` : 'n/a',
      ]);
    }
  }
  printTable(['batch (prompts × k)', 'backend', 'ms/step', 'steps/s', 'dispatches/step', 'submits/step', 'speed vs tfjs'], rows);
  kernels?.destroy();
  if (gpu.ok) gpu.device.destroy();
}
