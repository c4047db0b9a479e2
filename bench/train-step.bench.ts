// `npm run bench -- train`: the seed-003 controller's training step, side by side in one run:
//   - the CPU reference step (src/train/controllerStep.ts on src/ops/cpu), one process;
//   - the same step on the fast CPU backend (src/ops/fast), one process;
//   - data parallel on the fast backend: W simulated ranks (bench/train-rank.ts), each 1/W of the
//     global batch, gradients all-reduced (mean), the same Adam step: steps/s of the global batch;
//   - the fused WebGPU step (src/gpu/controllerStep.ts: one encoder, one submit, metrics read back
//     every N steps), and the same step in TensorFlow.js on that device;
//   - PyTorch eager on the CPU (bench/torch/controller_step.py), when `python3 -c "import torch"`
//     works (or GRPO_PYTHON names a Python that has torch).
// "vs PyTorch" = PyTorch's ms per step / this row's (above 1: faster than PyTorch). Sizes: the
// default 256 prompts × 8 (dModel 32, hidden 32), 1024 × 8, and 256 × 8 at the seed's dModel 2048
// (hidden 256). BENCH_QUICK=1: the default size only.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { DEFAULT_DIMS, SEED_DIMS, makePrompts, type ControllerDims } from '../src/core/env/controller.ts';
import { GpuControllerTrainer } from '../src/gpu/controllerStep.ts';
import { requestGpuDevice } from '../src/gpu/device.ts';
import { Kernels } from '../src/gpu/kernels.ts';
import { CPU_OPS } from '../src/ops/backend.ts';
import { World } from '../src/ranks/world.ts';
import { CpuControllerTrainer, DEFAULT_TRAIN_CONFIG, type ControllerTrainConfig } from '../src/train/controllerStep.ts';
import type { ShardArgs } from './train-rank.ts';
import { tfjsControllerStep, useTfjsOnDevice } from './tfjs-controller-step.ts';
import { findTorch } from './find-torch.ts';
import { printTable } from './timing.ts';

interface Measured {
  msPerStep: number;
  /** Per step, counted by wrapping the WebGPU entry points (GPU rows only). */
  dispatches?: number;
  submits?: number;
  readbacks?: number;
}

interface Size {
  prompts: number;
  k: number;
  dims: ControllerDims;
  /** Timed steps per row: the slow rows get few at the seed's size. */
  reps: { reference: number; fast: number; ranks: number; gpu: number; tfjs: number; torch: number };
}

/** GPU readbacks per metrics ring slot: the fused step maps one buffer every METRICS_EVERY steps. */
const METRICS_EVERY = 10;
const RANK_COUNTS = [2, 8];

/** Untimed steps before the timed ones, so V8 has optimised the hot loops (in every worker, too). */
const warmupFor = (reps: number) => Math.min(3, reps);

/** Times `steps` calls of `step`, then `settle` (waits for the GPU); counts dispatches, submits and readbacks meanwhile. */
async function measure(device: GPUDevice | null, steps: number, step: () => unknown, settle: () => Promise<unknown>): Promise<Measured> {
  const counts = { dispatches: 0, submits: 0, readbacks: 0 };
  const restore: (() => void)[] = [];
  if (device) {
    const g = globalThis as unknown as { GPUComputePassEncoder: { prototype: GPUComputePassEncoder }; GPUBuffer: { prototype: GPUBuffer } };
    const pass = g.GPUComputePassEncoder.prototype;
    const dispatch = pass.dispatchWorkgroups;
    pass.dispatchWorkgroups = function (this: GPUComputePassEncoder, ...args: Parameters<GPUComputePassEncoder['dispatchWorkgroups']>) {
      counts.dispatches++;
      return dispatch.apply(this, args);
    };
    const buffer = g.GPUBuffer.prototype;
    const mapAsync = buffer.mapAsync;
    buffer.mapAsync = function (this: GPUBuffer, ...args: Parameters<GPUBuffer['mapAsync']>) {
      counts.readbacks++;
      return mapAsync.apply(this, args);
    };
    const submit = device.queue.submit;
    device.queue.submit = function (this: GPUQueue, buffers: Iterable<GPUCommandBuffer>) {
      counts.submits++;
      return submit.call(this, buffers);
    };
    restore.push(() => {
      pass.dispatchWorkgroups = dispatch;
      buffer.mapAsync = mapAsync;
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
  const per = (n: number) => (device ? n / steps : undefined);
  return {
    msPerStep: (performance.now() - t0) / steps,
    dispatches: per(counts.dispatches),
    submits: per(counts.submits),
    readbacks: per(counts.readbacks),
  };
}

/** A one-process CPU trainer on `ops`, one warm-up step, then `reps` timed steps. */
async function cpuRow(config: ControllerTrainConfig, ops: 'cpu' | 'fast', reps: number): Promise<Measured> {
  const trainer = new CpuControllerTrainer(config, makePrompts(config.dims, config.prompts, config.seed), CPU_OPS[ops]);
  for (let i = 0; i < warmupFor(reps); i++) trainer.step();
  return measure(
    null,
    reps,
    () => trainer.step(),
    async () => {},
  );
}

/** W ranks in worker threads, each training on 1/W of the global batch with the fast ops. */
async function ranksRow(config: ControllerTrainConfig, size: number, reps: number): Promise<Measured> {
  const gradBytes = 4 * new CpuControllerTrainer({ ...config, prompts: 1 }).params.length;
  // Room for every rank's gradients and the result; generous timeout: at dModel 2048 the ranks
  // share 2 cores and a step's compute between collectives takes seconds.
  const world = await World.start({ size, arenaBytes: (size + 1) * gradBytes, timeoutMs: 300_000 });
  try {
    const args: ShardArgs = { config, ops: 'fast', warmup: warmupFor(reps), steps: reps };
    const out = await world.run<{ msPerStep: number }>(
      { module: new URL('./train-rank.ts', import.meta.url).href, name: 'trainShard' },
      args,
    );
    return { msPerStep: Math.max(...out.map((o) => o.msPerStep)) };
  } finally {
    await world.stop();
  }
}

/** PyTorch's step at this size; `threads` 0 = PyTorch's default (one per core). */
function torchRow(python: string, size: Size, threads: number): Measured & { threads: number; torch: string } {
  const script = fileURLToPath(new URL('./torch/controller_step.py', import.meta.url));
  const shape = { prompts: size.prompts, k: size.k, 'd-model': size.dims.dModel, hidden: size.dims.hidden };
  const args = Object.entries({ ...shape, steps: size.reps.torch, threads }).flatMap(([flag, v]) => [`--${flag}`, String(v)]);
  const run = spawnSync(python, [script, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`bench/torch/controller_step.py failed: ${run.stderr.trim()}`);
  const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { msPerStep: number; threads: number; torch: string };
  return result;
}

export default async function trainStepBench(): Promise<void> {
  const sizes: Size[] = [
    { prompts: 256, k: 8, dims: DEFAULT_DIMS, reps: { reference: 5, fast: 20, ranks: 20, gpu: 20, tfjs: 2, torch: 30 } },
    { prompts: 1024, k: 8, dims: DEFAULT_DIMS, reps: { reference: 2, fast: 10, ranks: 10, gpu: 10, tfjs: 0, torch: 20 } },
    { prompts: 256, k: 8, dims: SEED_DIMS, reps: { reference: 1, fast: 2, ranks: 2, gpu: 2, tfjs: 0, torch: 5 } },
  ];
  if (process.env.BENCH_QUICK) sizes.length = 1;
  const torch = findTorch();
  console.log(
    'python' in torch
      ? `PyTorch: ${torch.python}`
      : `PyTorch not measured: ${torch.reason}. To include it: pip install torch --index-url https://download.pytorch.org/whl/cpu (or set GRPO_PYTHON)`,
  );
  const gpu = await requestGpuDevice();
  console.log(gpu.ok ? `WebGPU adapter: ${gpu.adapterInfo}` : `WebGPU unavailable (${gpu.reason}): CPU rows only`);
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
    const config: ControllerTrainConfig = { ...DEFAULT_TRAIN_CONFIG, dims: size.dims, prompts: size.prompts, groupSize: size.k };
    const label = `${size.prompts}×${size.k} dModel ${size.dims.dModel}`;
    // Other jobs on the machine skew every row: say how busy it was (1-minute load average).
    console.log(`  ${label}: load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    const results: [string, Measured][] = [];
    const note = (name: string, m: Measured) => {
      results.push([name, m]);
      console.log(`  ${label}: ${name} ${m.msPerStep.toFixed(1)} ms/step`);
    };
    note('CPU reference, 1 process', await cpuRow(config, 'cpu', size.reps.reference));
    note('CPU fast, 1 process', await cpuRow(config, 'fast', size.reps.fast));
    for (const w of RANK_COUNTS) note(`CPU fast, ${w} ranks (workers)`, await ranksRow(config, w, size.reps.ranks));

    if (gpu.ok && kernels) {
      const device = gpu.device;
      // Any validation error would mean skipped GPU work and flattering figures: say so.
      device.pushErrorScope('validation');
      const prompts = makePrompts(config.dims, config.prompts, config.seed);
      const ours = await GpuControllerTrainer.create(device, config, { kernels, prompts, metricsEvery: METRICS_EVERY });
      for (let i = 0; i < 2; i++) await ours.step();
      await ours.takeMetrics();
      await device.queue.onSubmittedWorkDone();
      note(
        'WebGPU fused',
        await measure(
          device,
          size.reps.gpu,
          () => ours.step(),
          async () => {
            await ours.takeMetrics();
            await device.queue.onSubmittedWorkDone();
          },
        ),
      );
      ours.destroy();
      if (tfjsBackend && size.reps.tfjs > 0) {
        const theirs = tfjsControllerStep(config, prompts);
        for (let i = 0; i < 2; i++) theirs.step();
        await theirs.readLoss();
        note(
          `tfjs ${tfjsBackend}`,
          await measure(
            device,
            size.reps.tfjs,
            () => theirs.step(),
            () => theirs.readLoss(),
          ),
        );
        theirs.dispose();
      }
      const error = await device.popErrorScope();
      if (error) console.log(`WARNING: a validation error occurred, the GPU figures are not valid: ${error.message}`);
    }
    let torchMs: number | null = null;
    if ('python' in torch) {
      // PyTorch's default (a thread per core) is the comparison; one thread shows the per-core speed.
      const t = torchRow(torch.python, size, 0);
      torchMs = t.msPerStep;
      note(`PyTorch ${t.torch} eager CPU, ${t.threads} threads`, t);
      const one = torchRow(torch.python, size, 1);
      note(`PyTorch ${one.torch} eager CPU, 1 thread`, one);
    }
    const oneProcess = results.find(([name]) => name === 'CPU fast, 1 process')![1].msPerStep;
    for (const [name, m] of results) {
      const gpuRow = m.dispatches !== undefined;
      rows.push([
        label,
        name,
        m.msPerStep.toFixed(1),
        (1000 / m.msPerStep).toFixed(1),
        torchMs === null ? 'n/a' : `${(torchMs / m.msPerStep).toFixed(2)}×`,
        name.includes('ranks') ? `${(oneProcess / m.msPerStep).toFixed(2)}×` : '',
        gpuRow ? `${m.dispatches!.toFixed(0)} / ${m.submits!.toFixed(1)} / ${m.readbacks!.toFixed(2)}` : '',
      ]);
    }
  }
  console.log('');
  printTable(['batch', 'step', 'ms/step', 'steps/s', 'vs PyTorch', 'vs 1 process', 'GPU dispatches / submits / readbacks per step'], rows);
  kernels?.destroy();
  if (gpu.ok) gpu.device.destroy();
}
