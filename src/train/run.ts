// The main-thread side of a training run: start a world of ranks on the chosen backend, build
// the sampler's layout for the bank, and drive the rank program (program.ts) one step at a time,
// reporting each step's metrics. Runtime-neutral (Node, Deno, a page): files and the terminal
// belong to the CLI (src/cli/train.ts).
import { ConfigError } from '../core/errors.ts';
import { configError, type Fact, fact } from '../core/messages/index.ts';
import type { Layout } from '../core/layout/types.ts';
import { HEADS, initControllerParams } from '../core/env/controller.ts';
import { makeTask } from '../core/env/task.ts';
import { DEFAULT_MAX_HELPERS, helpersRunHere, TEAM_MIN_MADDS } from '../ops/fast/kernel-team.ts';
import { coreCount } from '../ranks/spawn.ts';
import { World } from '../ranks/world.ts';
import { type AsyncPlan, asyncPlanOf, asyncRunOf } from './async-plan.ts';
import { fusedStepGap, layoutCovering, type TrainConfig, usesMicroSteps } from './config.ts';
import { microPlanCovering } from './micro-steps.ts';
import type { InitArgs, ReplicaState, StepResult } from './program.ts';
import { TRAIN_WORKER } from './worker.ts';
import type { TransferCounts } from './webgpu-step.ts';

const program = (name: string) => ({ module: 'builtin:train', name });

/** A step's metrics as the run reports them: the ranks' metrics plus wall time (the mean over its call's steps). */
export type StepRecord = StepResult & { stepMs: number; layoutStep: number };

/** A call to the ranks should take about this long, so progress and Ctrl-C answer a few times a second. */
const CALL_MS = 100;
const MAX_STEPS_PER_CALL = 64;

/** What a run tells while it starts, as a fact. */
export type RunNotice = Fact<'run.webgpu-unavailable' | 'run.fused-unsupported'>;

export interface TrainOptions {
  config: TrainConfig;
  /** Continue from this state (its step count says where). */
  resume?: ReplicaState;
  onStep?(record: StepRecord): void;
  /** Asked before each call to the ranks: true stops the run at this step boundary. */
  shouldStop?(): boolean;
  /** Steps the ranks run per call (default: grown from 1 while a call takes under 100 ms; the fused WebGPU step's calls run on to a replica check). */
  stepsPerCall?: number;
  /** Called once the ranks are up, with the device they train on ('cpu' or the GPU adapter) and each rank thread's helper threads. */
  onStart?(device: string, helpers: number): void;
  /** Notices as facts (the auto backend's fallback, a setting the fused WebGPU step does not run): the CLI prints `say(notice)`. */
  onNotice?(notice: RunNotice): void;
  /**
   * Worker threads for the ranks (default: one where a rank's products are too small to share, else min(ranks,
   * cores)); the ranks of one thread take turns on it.
   * The results are the same for any count (src/ranks/world.ts).
   */
  threads?: number;
  /**
   * Helper threads per rank thread for the fast backend's large matrix products (default: the cores the
   * ranks' threads leave idle, shared among them, at most DEFAULT_MAX_HELPERS; 0 with the reference ops,
   * a GPU, products too small to share, or a runtime without Atomics.waitAsync). A product's rows are
   * shared among the threads, and every output has the bits it has on one thread (src/ops/fast/kernel-team.ts).
   */
  helpers?: number;
  /** Testing the replica check only. */
  divergeRank?: number;
  /** CPU ops: the fast backend (default) or the reference (to check they agree). */
  cpuOps?: 'fast' | 'reference';
  /** Testing seed-004 inside training: false leaves resampled rows on their origin devices. */
  deviceFix?: boolean;
}

export interface TrainResult {
  metrics: StepRecord[];
  final: ReplicaState;
  /** 'cpu' or the GPU adapter's description. */
  device: string;
  stopped: boolean;
  /** On WebGPU: rank 0's command submissions and buffer readbacks over the run's steps (the fused step's), and per step. */
  transfers?: TransferCounts & { steps: number; submissionsPerStep: number; readbacksPerStep: number };
  /** Helper threads each rank thread had for the fast matmul's large products (0: none). */
  helpers: number;
  /** `train --async`: the staleness rule simulated and what the steps trained (their lag: step − generating version). */
  async?: AsyncSummary;
}

export interface AsyncSummary {
  framework: string;
  settings: Record<string, number | boolean | string>;
  /** The framework's own definition of lag (the simulation's `lag`); the run's lag below is step − generating version. */
  lagDefinition: string;
  meanLag: number;
  maxLag: number;
  /** Groups the rule dropped over the simulated steps. */
  dropped: number;
}

/** The sampler's layout with enough epochs for `steps` steps (one training step per layout step, or the micro-steps' windows). */
export function trainingLayout(c: TrainConfig): Layout {
  return usesMicroSteps(c) ? microPlanCovering(c, c.steps).layout : layoutCovering(c, c.steps);
}

/**
 * Whether a rank's largest products are large enough for a team to share (kernel-team.ts): a trunk's
 * dense layer over the rank's rows, at most batch × (2·dModel + 5) × hidden multiply-adds.
 */
function sharesProducts(c: TrainConfig): boolean {
  return c.batch * (2 * c.dims.dModel + HEADS.insertion.width) * c.dims.hidden >= TEAM_MIN_MADDS;
}

/** Starts the world the backend choice asks for; auto falls back to the CPU with a notice. */
async function startWorld(
  c: TrainConfig,
  o: TrainOptions,
  onNotice: (notice: RunNotice) => void,
): Promise<{ world: World; device: 'cpu' | 'webgpu'; helpers: number }> {
  const { threads } = o;
  // Logical ranks on the CPU unless asked (each GPU rank keeps its own thread): one thread where a rank's products
  // are too small to share (the wake-ups across threads at each collective cost more than a second core gives:
  // bench/README.md's train section), else min(ranks, cores), with the cores they leave idle as helper threads.
  const cores = await coreCount();
  const cpuThreads = threads ?? (sharesProducts(c) ? Math.min(c.ranks, cores) : 1);
  const helpers =
    o.helpers ??
    (o.cpuOps === 'reference' || !sharesProducts(c) || !helpersRunHere()
      ? 0
      : Math.min(DEFAULT_MAX_HELPERS, Math.floor(Math.max(0, cores - cpuThreads) / cpuThreads)));
  const cpu = { size: c.ranks, worker: TRAIN_WORKER, threads: cpuThreads, helpers };
  if (c.backend === 'cpu') return { world: await World.start(cpu), device: 'cpu', helpers };
  try {
    return {
      world: await World.start({ size: c.ranks, worker: TRAIN_WORKER, gpu: true, ...(threads !== undefined && { threads }) }),
      device: 'webgpu',
      helpers: 0,
    };
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0];
    if (c.backend === 'webgpu') throw configError([fact('run.webgpu-failed', { reason })]);
    onNotice(fact('run.webgpu-unavailable', { reason }));
    return { world: await World.start(cpu), device: 'cpu', helpers };
  }
}

/** Runs (or resumes) training until `config.steps` steps are done or shouldStop() says stop. */
export async function train(o: TrainOptions): Promise<TrainResult> {
  const c = o.config;
  // Built here once for every rank (a layout the validator refuses is a ConfigError before any worker starts).
  const layout = trainingLayout(c);
  // train --async: the simulation says which version generated each row of each step, before any worker starts.
  if (c.async !== null && o.resume)
    throw new ConfigError('--async runs from step 0: a checkpoint does not keep the older versions its steps sample with');
  const sim = c.async === null ? null : asyncRunOf(c);
  const asyncPlan = sim ? asyncPlanOf(c, sim) : undefined;
  const { world, device, helpers } = await startWorld(c, o, o.onNotice ?? (() => {}));
  // WebGPU runs the fused step; the few settings it does not run take each op through its own submission.
  const unsupported = device === 'webgpu' ? fusedStepGap(c, layout) : null;
  if (unsupported) o.onNotice?.(fact('run.fused-unsupported', { gap: unsupported }));
  const metrics: StepRecord[] = [];
  let stopped = false;
  try {
    const task = makeTask(c.dims, c.seed, c.bankSize);
    const init: InitArgs = {
      config: c,
      task,
      layout,
      initialParams: initControllerParams(c.dims, c.seed),
      resume: o.resume,
      device,
      fused: device === 'webgpu' && !unsupported,
      divergeRank: o.divergeRank,
      cpuOps: o.cpuOps,
      deviceFix: o.deviceFix,
      asyncPlan,
    };
    const devices = await world.run<{ device: string }>(program('trainInit'), init);
    o.onStart?.(devices[0]!.device, helpers);
    // The sampler's shared counter: one layout step per training step, more when dynamic
    // sampling resamples (each resample reads the next batch of the layout).
    let layoutStep = o.resume?.layoutStep ?? o.resume?.step ?? 0;
    let step = o.resume?.step ?? 0;
    // Steps per world.run: a call costs a round trip to every worker, so the ranks run several
    // steps back to back. The count starts at 1, doubles while a call takes under CALL_MS and halves
    // past twice that, so
    // progress and Ctrl-C still come a few times a second; stepsPerCall fixes it.
    let count = 1;
    while (step < c.steps) {
      if (o.shouldStop?.()) {
        stopped = true;
        break;
      }
      const asked = o.stepsPerCall ?? (init.fused ? toReplicaCheck(step, count, c.checksumEvery) : count);
      const n = Math.min(asked, c.steps - step);
      const t0 = performance.now();
      const [ms] = await world.run<StepResult[] | null>(program('trainSteps'), { layoutStep, count: n });
      const callMs = performance.now() - t0;
      for (const m of ms!) {
        const record: StepRecord = { ...m, stepMs: callMs / n, layoutStep };
        layoutStep += m.dynamic?.draws ?? m.micro?.generations ?? 1;
        step++;
        metrics.push(record);
        o.onStep?.(record);
      }
      if (callMs < CALL_MS && count < MAX_STEPS_PER_CALL) count *= 2;
      else if (callMs > 2 * CALL_MS && count > 1) count /= 2;
    }
    const [final] = await world.run<ReplicaState | null>(program('trainCheckpoint'));
    await world.run(program('trainEnd'));
    const async = sim && asyncPlan ? asyncSummary(sim.dropped.length, asyncPlan, metrics) : undefined;
    return {
      metrics,
      final: { ...final!, layoutStep },
      device: devices[0]!.device,
      stopped,
      helpers,
      ...transfersOf(metrics),
      ...(async && { async }),
    };
  } finally {
    await world.stop();
  }
}

/**
 * The fused WebGPU step reads its metrics back once per call (webgpu-step.ts), and with the
 * parameters at each replica check: a call that ends on a check (every checksumEvery steps) makes
 * that one readback. So its calls run on to the next check, unless that is more than
 * MAX_STEPS_PER_CALL steps away (then progress and Ctrl-C come first).
 */
function toReplicaCheck(step: number, count: number, checksumEvery: number): number {
  if (checksumEvery > MAX_STEPS_PER_CALL) return count;
  return Math.ceil((step + count) / checksumEvery) * checksumEvery - step;
}

/** What the async run's steps trained: the plan's rule, the lag over the steps that ran. */
function asyncSummary(dropped: number, plan: AsyncPlan, metrics: StepRecord[]): AsyncSummary {
  const lags = metrics.map((m) => m.async?.meanLag ?? 0);
  return {
    framework: plan.framework,
    settings: plan.settings,
    lagDefinition: plan.lagDefinition,
    meanLag: lags.length ? lags.reduce((a, b) => a + b, 0) / lags.length : 0,
    maxLag: metrics.reduce((m, r) => Math.max(m, r.async?.maxLag ?? 0), 0),
    dropped,
  };
}

/** The fused step's counts over the run (from the last step's cumulative counts), or nothing on the CPU. */
function transfersOf(metrics: StepRecord[]): Pick<TrainResult, 'transfers'> {
  const t = metrics.at(-1)?.transfers;
  if (!t) return {};
  const steps = metrics.length;
  return { transfers: { ...t, steps, submissionsPerStep: t.submissions / steps, readbacksPerStep: t.readbacks / steps } };
}
