// The training run as a rank program (src/ranks): every rank's worker keeps its replica of the
// parameters and Adam state between calls; the main thread (src/train/run.ts) drives it one step
// at a time, so progress, Ctrl-C and checkpoints happen between steps. Built into the rank worker
// as `builtin:train`, so the same code runs in Node, Deno and browser workers.
import { makeTask, type Task } from '../core/env/task.ts';
import { cpuBackend, fastBackend, type OpsBackend } from '../ops/backend.ts';
import type { Rank } from '../ranks/rank.ts';
import type { TrainConfig } from './config.ts';
import { checkReplicas, initialState, trainStep, type StepMetrics, type TrainState } from './step.ts';

/** Parameters and Adam state as a checkpoint carries them. */
export interface ReplicaState {
  params: Float32Array;
  m: Float32Array;
  v: Float32Array;
  step: number;
}

export interface InitArgs {
  config: TrainConfig;
  /** Resume from this state instead of the initial parameters. */
  resume?: ReplicaState;
  /** 'webgpu': run the ops on this rank's own GPUDevice. */
  device: 'cpu' | 'webgpu';
  /** On the CPU: the fast backend (default) or the reference it must equal bit for bit. */
  cpuOps?: 'fast' | 'reference';
  /** Testing the replica check: this rank nudges one parameter after its first step. */
  divergeRank?: number;
}

interface Run {
  config: TrainConfig;
  task: Task;
  state: TrainState;
  ops: OpsBackend;
  close(): void;
  divergeRank?: number;
}

let run: Run | null = null;

function current(): Run {
  if (!run) throw new Error('train program used before trainInit');
  return run;
}

/** Builds this rank's task, replica and ops backend. */
export async function trainInit(rank: Rank, args: InitArgs): Promise<{ device: string }> {
  run?.close();
  const { config } = args;
  // The CPU path runs the fast backend (src/ops/fast): the reference's results, bit for bit (the
  // op suite checks it), with the hot loops rewritten.
  let ops: OpsBackend = args.cpuOps === 'reference' ? cpuBackend : fastBackend;
  let close = () => {};
  if (args.device === 'webgpu') {
    if (!rank.gpu) throw new Error(`rank ${rank.rank} has no GPU device (start the world with gpu: true)`);
    const { createGpuBackend } = await import('../gpu/ops.ts');
    const gpu = await createGpuBackend(rank.gpu);
    ops = gpu;
    close = () => gpu.destroy();
  }
  const state = initialState(config);
  if (args.resume) {
    state.params.set(args.resume.params);
    state.m.set(args.resume.m);
    state.v.set(args.resume.v);
    state.step = args.resume.step;
  }
  run = { config, task: makeTask(config.dims, config.seed, config.bankSize), state, ops, close, divergeRank: args.divergeRank };
  return { device: args.device === 'webgpu' ? (rank.gpuInfo ?? 'webgpu') : 'cpu' };
}

/**
 * One training step. `ids[r]` are rank r's prompt ids (the sampler's layout step); each rank
 * takes its own. Rank 0 returns the metrics (every rank computed the same), the others null.
 */
export async function trainSteps(rank: Rank, args: { ids: number[][] }): Promise<(StepMetrics & { checksum?: number }) | null> {
  const r = current();
  const metrics: StepMetrics & { checksum?: number } = await trainStep(rank, r.ops, r.task, r.config, r.state, args.ids[rank.rank]!);
  if (r.divergeRank === rank.rank && r.state.step === 1) r.state.params[0]! += 1e-3;
  if (r.state.step % r.config.checksumEvery === 0) metrics.checksum = await checkReplicas(rank, r.state);
  return rank.rank === 0 ? metrics : null;
}

/** This replica's state after checking that all replicas agree (rank 0 returns it, the others null). */
export async function trainCheckpoint(rank: Rank): Promise<ReplicaState | null> {
  const r = current();
  await checkReplicas(rank, r.state);
  if (rank.rank !== 0) return null;
  return { params: r.state.params.slice(), m: r.state.m.slice(), v: r.state.v.slice(), step: r.state.step };
}

/** Frees the rank's backend. */
export async function trainEnd(_rank: Rank): Promise<void> {
  run?.close();
  run = null;
}
