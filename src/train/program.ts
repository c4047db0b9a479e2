// The training run as a rank program (src/ranks): every rank's worker keeps its replica of the
// parameters and Adam state between calls; the main thread (src/train/run.ts) asks for a few
// steps per call (the ranks run them back to back, with no round trip to the main thread between
// them), so progress, Ctrl-C and checkpoints happen between calls. Built into the rank worker
// as `builtin:train`, so the same code runs in Node, Deno and browser workers.
import { makeTask, type Task } from '../core/env/task.ts';
import { cpuBackend, fastBackend, type OpsBackend } from '../ops/backend.ts';
import type { Rank } from '../ranks/rank.ts';
import type { Layout } from '../core/layout/types.ts';
import { type AsyncPlan, stepLag } from './async-plan.ts';
import { asyncTrainStep, Snapshots } from './async-step.ts';
import { layoutCovering, type TrainConfig, usesMicroSteps } from './config.ts';
import { dynamicTrainStep, type DynamicStepMetrics } from './dynamic.ts';
import { type MicroRun, microPlanCovering, microRun, microTrainStep } from './micro-steps.ts';
import { joinReplica, ownState } from './replicas.ts';
import { checkReplicas, initialState, trainStep, type StepMetrics, type TrainState } from './step.ts';
import { WebGpuTrainer, type TransferCounts } from './webgpu-step.ts';
import { Workspace } from './workspace.ts';

/** Parameters and Adam state as a checkpoint carries them. */
export interface ReplicaState {
  params: Float32Array;
  m: Float32Array;
  v: Float32Array;
  step: number;
  /** The sampler's next layout step; ahead of `step` once dynamic sampling resampled (absent: = step). */
  layoutStep?: number;
}

export interface InitArgs {
  config: TrainConfig;
  /**
   * The task (makeTask of the config's dims, seed and bank size), built once by the caller: every
   * rank building its own cost each worker about 0.7 s of cold code at start (the optimum over 375
   * configurations per prompt), 8 × that for the demo's world. Absent: the rank builds it.
   */
  task?: Task;
  /** The sampler's layout covering the run's steps, built once by the caller likewise (absent: each rank builds it). */
  layout?: Layout;
  /**
   * The initial parameters (initControllerParams of the config's dims and seed), built once by the
   * caller likewise: each rank drawing its own ran the Philox draws cold in every worker (the
   * largest part of trainInit). Absent: the rank draws them.
   */
  initialParams?: Float32Array;
  /** Resume from this state instead of the initial parameters. */
  resume?: ReplicaState;
  /** 'webgpu': run on this rank's own GPUDevice. */
  device: 'cpu' | 'webgpu';
  /** On WebGPU: the fused step (webgpu-step.ts; the default), or false for settings it does not run: every op as its own submission (gpu/ops.ts). */
  fused?: boolean;
  /** On the CPU: the fast backend (default) or the reference it matches (within float32 tolerance with SIMD, bit for bit without). */
  cpuOps?: 'fast' | 'reference';
  /** Testing the replica check: this rank nudges one parameter after its first step. */
  divergeRank?: number;
  /** Testing seed-004 inside training: false leaves resampled rows on their origin devices. */
  deviceFix?: boolean;
  /** `train --async`: the version that generated each row of each step (async-plan.ts), built once by the caller. */
  asyncPlan?: AsyncPlan;
}

interface Run {
  config: TrainConfig;
  task: Task;
  state: TrainState;
  /** The CPU path's ops. */
  ops: OpsBackend;
  /** The fused step on the rank's GPU (--backend webgpu), or null on the CPU. */
  fused: WebGpuTrainer | null;
  close(): void;
  divergeRank?: number;
  deviceFix: boolean;
  /** Dynamic sampling's view of the sampler (built on the rank, grown when resamples run past it). */
  layout: Layout | null;
  /** With accumulation or several passes per generation: the micro-steps and the generation batches held between updates. */
  micro: MicroRun | null;
  /** The CPU step's arrays (plain, micro-steps), reused from step to step. */
  ws: Workspace;
  /** `train --async`: the plan and the parameters of the versions it still needs. */
  async: { plan: AsyncPlan; snapshots: Snapshots } | null;
}

// Each rank's run, by rank: a worker thread may host several ranks (logical ranks), each with its own replica.
const runs = new WeakMap<Rank, Run>();

function current(rank: Rank): Run {
  const run = runs.get(rank);
  if (!run) throw new Error('train program used before trainInit');
  return run;
}

/** Builds this rank's task, replica and ops backend. */
export async function trainInit(rank: Rank, args: InitArgs): Promise<{ device: string }> {
  runs.get(rank)?.close();
  const { config } = args;
  // The CPU path runs the fast backend (src/ops/fast): the reference's results within float32
  // tolerance (WebAssembly SIMD kernels; bit for bit where SIMD is missing), the hot loops rewritten.
  let ops: OpsBackend = args.cpuOps === 'reference' ? cpuBackend : fastBackend;
  let state = initialState(config, args.initialParams);
  if (args.resume) {
    state.params.set(args.resume.params);
    state.m.set(args.resume.m);
    state.v.set(args.resume.v);
    state.step = args.resume.step;
  }
  // On the CPU, the ranks of this thread that start with the same bits hold one replica (replicas.ts).
  if (args.device === 'cpu') state = joinReplica(rank.local, rank.rank, `${args.cpuOps ?? 'fast'}`, state);
  const task = args.task ?? makeTask(config.dims, config.seed, config.bankSize);
  let fused: WebGpuTrainer | null = null;
  let close = () => {};
  if (args.device === 'webgpu') {
    if (!rank.gpu) throw new Error(`rank ${rank.rank} has no GPU device (start the world with gpu: true)`);
    if (args.fused ?? true) {
      const f = await WebGpuTrainer.create(rank.gpu, task, config, state);
      fused = f;
      close = () => f.destroy();
    } else {
      const { createGpuBackend } = await import('../gpu/ops.ts');
      const gpu = await createGpuBackend(rank.gpu);
      ops = gpu;
      close = () => gpu.destroy();
    }
  }
  runs.set(rank, {
    config,
    task,
    state,
    ops,
    fused,
    close,
    divergeRank: args.divergeRank,
    deviceFix: args.deviceFix ?? true,
    layout: args.layout ?? null,
    micro: usesMicroSteps(config) ? microRun(config, args.layout ?? microPlanCovering(config, config.steps).layout) : null,
    ws: new Workspace(),
    async: args.asyncPlan ? { plan: args.asyncPlan, snapshots: new Snapshots(args.asyncPlan.maxLag) } : null,
  });
  return { device: args.device === 'webgpu' ? (rank.gpuInfo ?? 'webgpu') : 'cpu' };
}

/** Rank `rank`'s prompt ids at layout step `at`; every rank builds the same layout (a pure function). */
function idsAt(r: Run, at: number, rank: number): readonly number[] {
  if (!r.layout || at >= r.layout.steps.length) {
    const steps = r.layout ? Math.max(2 * at + 1, r.config.steps) : Math.max(at + 1, r.config.steps);
    r.layout = layoutCovering(r.config, steps);
  }
  return r.layout.steps[at]!.ranks[rank]!;
}

/**
 * A step's metrics as rank 0 returns them; `transfers`: the fused WebGPU step's submissions and readbacks so far (rank 0's);
 * `async` (train --async): the mean and largest lag of the step's rows, in versions (the step − the version that generated each).
 */
export type StepResult = StepMetrics & {
  checksum?: number;
  dynamic?: DynamicStepMetrics;
  transfers?: TransferCounts;
  async?: { meanLag: number; maxLag: number };
};

/**
 * `count` training steps in a row, without the main thread between them. `layoutStep` is the
 * sampler's shared counter at the first: a step reads the layout's step layoutStep (rank r its
 * ids at rank r); dynamic sampling's draw n of a step reads layoutStep + n, and the counter
 * moves by the step's draws. Rank 0 returns each step's metrics (every rank computed the same),
 * the others null.
 */
export async function trainSteps(rank: Rank, args: { layoutStep: number; count: number }): Promise<StepResult[] | null> {
  const r = current(rank);
  if (r.fused) return fusedSteps(rank, r, r.fused, args);
  const out: StepResult[] = [];
  let at = args.layoutStep;
  // Only rank 0's metrics leave the worker: the others skip the gathered batch's statistics.
  for (let i = 0; i < args.count; i++) {
    let metrics: StepResult;
    if (r.async) {
      const step = r.state.step;
      const rows = r.async.plan.steps[step]!;
      metrics = await asyncTrainStep(rank, r.ops, r.task, r.config, r.state, rows, r.async.snapshots, r.ws, rank.rank === 0);
      const lag = stepLag(rows, step);
      metrics.async = { meanLag: lag.mean, maxLag: lag.max };
    } else if (r.micro) {
      metrics = await microTrainStep(rank, r.ops, r.task, r.config, r.state, r.micro, r.ws, rank.rank === 0);
    } else if (r.config.dynamicSampling) {
      const first = at;
      metrics = await dynamicTrainStep(rank, r.ops, r.task, r.config, r.state, (draw) => idsAt(r, first + draw, rank.rank), r.deviceFix);
    } else {
      metrics = await trainStep(rank, r.ops, r.task, r.config, r.state, idsAt(r, at, rank.rank), r.ws, rank.rank === 0);
    }
    at += metrics.dynamic?.draws ?? metrics.micro?.generations ?? 1;
    if (r.divergeRank === rank.rank && r.state.step === 1) {
      // This rank's replica alone changes: it stops sharing one first.
      r.state = ownState(r.state, rank.rank);
      r.state.params[0]! += 1e-3;
    }
    if (r.state.step % r.config.checksumEvery === 0) metrics.checksum = await checkReplicas(rank, r.state);
    out.push(metrics);
  }
  return rank.rank === 0 ? out : null;
}

/**
 * trainSteps on the fused WebGPU step: the steps are submitted back to back and their metrics read
 * from the device every checksumEvery steps (with the parameters, for the replica check) and at
 * the end of the call (webgpu-step.ts). `transfers`: the counts when the step's metrics came back.
 */
async function fusedSteps(rank: Rank, r: Run, fused: WebGpuTrainer, args: { layoutStep: number; count: number }) {
  const out: StepResult[] = [];
  for (let i = 0; i < args.count; i++) {
    const check = (r.state.step + 1) % r.config.checksumEvery === 0;
    await fused.step(rank, r.state, idsAt(r, args.layoutStep + i, rank.rank), { readState: check });
    if (r.divergeRank === rank.rank && r.state.step === 1) {
      await fused.syncState(r.state);
      r.state.params[0]! += 1e-3;
      fused.writeState(r.state);
    }
    if (!check && i < args.count - 1) continue;
    const metrics: StepResult[] = await fused.results(r.state);
    if (check) metrics.at(-1)!.checksum = await checkReplicas(rank, r.state);
    for (const m of metrics) m.transfers = fused.counts;
    out.push(...metrics);
  }
  return rank.rank === 0 ? out : null;
}

/** This replica's state after checking that all replicas agree (rank 0 returns it, the others null). */
export async function trainCheckpoint(rank: Rank): Promise<ReplicaState | null> {
  const r = current(rank);
  await r.fused?.syncState(r.state);
  await checkReplicas(rank, r.state);
  if (rank.rank !== 0) return null;
  return { params: r.state.params.slice(), m: r.state.m.slice(), v: r.state.v.slice(), step: r.state.step };
}

/** Frees the rank's backend. */
export async function trainEnd(rank: Rank): Promise<void> {
  runs.get(rank)?.close();
  runs.delete(rank);
}
