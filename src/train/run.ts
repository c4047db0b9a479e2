// The main-thread side of a training run: start a world of ranks on the chosen backend, build
// the sampler's layout for the bank, and drive the rank program (program.ts) one step at a time,
// reporting each step's metrics. Runtime-neutral (Node, Deno, a page): files and the terminal
// belong to the CLI (src/cli/train.ts).
import { ConfigError } from '../core/errors.ts';
import type { Layout } from '../core/layout/types.ts';
import { buildLayout } from '../core/samplers/index.ts';
import { World } from '../ranks/world.ts';
import { layoutConfigOf, type TrainConfig } from './config.ts';
import type { InitArgs, ReplicaState } from './program.ts';
import type { StepMetrics } from './step.ts';

const program = (name: string) => ({ module: 'builtin:train', name });

/** A step's metrics as the run reports them: the ranks' metrics plus wall time. */
export type StepRecord = StepMetrics & { stepMs: number; checksum?: number };

export interface TrainOptions {
  config: TrainConfig;
  /** Continue from this state (its step count says where). */
  resume?: ReplicaState;
  onStep?(record: StepRecord): void;
  /** Asked before each step: true stops the run at this step boundary. */
  shouldStop?(): boolean;
  /** Called once the ranks are up, with the device they train on ('cpu' or the GPU adapter). */
  onStart?(device: string): void;
  /** One-line notices (the auto backend's fallback). */
  onNotice?(line: string): void;
  /** Testing the replica check only. */
  divergeRank?: number;
  /** CPU ops: the fast backend (default) or the reference (to check they agree). */
  cpuOps?: 'fast' | 'reference';
}

export interface TrainResult {
  metrics: StepRecord[];
  final: ReplicaState;
  /** 'cpu' or the GPU adapter's description. */
  device: string;
  stopped: boolean;
}

/** The sampler's layout with enough epochs for `steps` steps (one training step per layout step). */
export function trainingLayout(c: TrainConfig): Layout {
  const perEpoch = buildLayout(layoutConfigOf(c, 1)).steps.length;
  const epochs = Math.ceil(c.steps / perEpoch);
  try {
    return buildLayout(layoutConfigOf(c, epochs));
  } catch (err) {
    if (err instanceof ConfigError) throw new ConfigError(`--steps ${c.steps} needs ${epochs} epochs of the layout: ${err.message}`);
    throw err;
  }
}

/** Starts the world the backend choice asks for; auto falls back to the CPU with a notice. */
async function startWorld(c: TrainConfig, onNotice: (line: string) => void): Promise<{ world: World; device: 'cpu' | 'webgpu' }> {
  if (c.backend === 'cpu') return { world: await World.start({ size: c.ranks }), device: 'cpu' };
  try {
    return { world: await World.start({ size: c.ranks, gpu: true }), device: 'webgpu' };
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0];
    if (c.backend === 'webgpu') throw new ConfigError(`--backend webgpu: ${reason}; use --backend cpu (or auto to fall back)`);
    onNotice(`WebGPU unavailable (${reason}); training on the CPU instead`);
    return { world: await World.start({ size: c.ranks }), device: 'cpu' };
  }
}

/** Runs (or resumes) training until `config.steps` steps are done or shouldStop() says stop. */
export async function train(o: TrainOptions): Promise<TrainResult> {
  const c = o.config;
  const layout = trainingLayout(c);
  const { world, device } = await startWorld(c, o.onNotice ?? (() => {}));
  const metrics: StepRecord[] = [];
  let stopped = false;
  try {
    const init: InitArgs = { config: c, resume: o.resume, device, divergeRank: o.divergeRank, cpuOps: o.cpuOps };
    const devices = await world.run<{ device: string }>(program('trainInit'), init);
    o.onStart?.(devices[0]!.device);
    for (let step = o.resume?.step ?? 0; step < c.steps; step++) {
      if (o.shouldStop?.()) {
        stopped = true;
        break;
      }
      const t0 = performance.now();
      const [m] = await world.run<StepMetrics | null>(program('trainSteps'), { ids: layout.steps[step]!.ranks });
      const record = { ...m!, stepMs: performance.now() - t0 };
      metrics.push(record);
      o.onStep?.(record);
    }
    const [final] = await world.run<ReplicaState | null>(program('trainCheckpoint'));
    await world.run(program('trainEnd'));
    return { metrics, final: final!, device: devices[0]!.device, stopped };
  } finally {
    await world.stop();
  }
}
