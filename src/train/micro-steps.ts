// Training through the micro-step model of src/core/steps (what `grpo-sandbox steps` shows): a
// step of the run is one optimizer step, made of the micro-steps the framework version cuts the
// generation batches into. Every rank, for each micro-step of the step's accumulation window:
//   samples the generation batch its micro-batch comes from, if that batch is not held yet
//   (generate → score → allGather → advantages, as src/train/step.ts);
//   takes its micro-batch's rows; on a later pass, once the policy has moved since the batch was
//   sampled, runs them again under the current parameters (the ratio leaves 1, clipping bites);
//   computes the loss, rescaled to the framework's normaliser (core/steps/frameworks.ts), and adds
//   its gradient to the window's;
// then one allReduce(mean) of the summed gradients with the metric sums, clip, Adam: step.ts's
// optimizerStep, which runs a plain step as one micro-step.
import { ACTIONS_PER_CONFIG } from '../core/env/controller.ts';
import type { Task } from '../core/env/task.ts';
import type { Layout } from '../core/layout/types.ts';
import { completionOffsets, FRAMEWORKS, type FrameworkSpec, planMicroSteps } from '../core/steps/index.ts';
import type { Plan } from '../core/steps/schedule.ts';
import type { Batching } from '../core/steps/types.ts';
import type { OpsBackend } from '../ops/backend.ts';
import { computeLoss } from '../ops/loss.ts';
import type { Rank } from '../ranks/rank.ts';
import { layoutCovering, lossOpType, stepsPerGenerationOf, type TrainConfig } from './config.ts';
import type { StepMetrics } from './metrics.ts';
import {
  type Generation,
  generateAndGather,
  generationOf,
  grpoSettings,
  type MicroStep,
  optimizerStep,
  rescaleToNormaliser,
  type TrainState,
} from './step.ts';
import { Workspace } from './workspace.ts';

export type { MicroStepMetrics } from './metrics.ts';

/** The layout, its micro-steps and windows under the run's framework version, and where each completion lives. */
export interface MicroPlan {
  layout: Layout;
  plan: Plan;
  spec: FrameworkSpec;
  /** The framework's micro-batch, mini-batch and GA for this layout (its StepSchedule.batching, as `steps` reads them). */
  batching: Batching;
  /** First completion index of each layout step. */
  offsets: number[];
  /** Micro-step indices of each window (optimizer step). */
  windows: number[][];
  /** Completions of each layout step, every rank. */
  generationSize: number[];
}

/** The micro-steps of `layout` for run `c`: the framework version's schedule, micro-batches of --batch samples per rank. */
export function microPlanOf(c: TrainConfig, layout: Layout): MicroPlan {
  const spec = FRAMEWORKS[c.framework]!;
  // TRL's Trainer ends its accumulation windows with its dataloader's epoch. Only a sampler the
  // framework version trains on (spec.accepts: the trl sampler, for TRL's and ms-swift's versions) is
  // that dataloader; the other samplers' batches reach the trainer one after another (train builds
  // their layouts one batch per epoch), so their epochs do not cut the windows.
  const stream = spec.accepts(layout.sampler) ? layout : { ...layout, steps: layout.steps.map((step) => ({ ...step, epoch: 0 })) };
  // The micro-batch, mini-batch and GA as `steps` takes them from the layout (verl's sampler: its ppo_* sizes).
  const batching = spec.schedule.batching(stream, spec.name, undefined);
  const plan = planMicroSteps(stream, spec.schedule, batching.microBatch, undefined, batching.miniBatch);
  const windows: number[][] = plan.windows.map(() => []);
  plan.microSteps.forEach((m, i) => windows[m.window]!.push(i));
  return {
    layout,
    plan,
    spec,
    batching,
    offsets: completionOffsets(layout),
    windows,
    generationSize: layout.steps.map((s) => s.ranks.reduce((n, r) => n + r.length, 0)),
  };
}

/**
 * A plan with at least `steps` optimizer steps: the sampler's layout grown (whole epochs) until it
 * covers them. A layout step gives GA ÷ (micro-batches per generation × passes) windows, about.
 */
export function microPlanCovering(c: TrainConfig, steps: number): MicroPlan {
  const perGeneration = stepsPerGenerationOf(c) * c.numIterations;
  let layoutSteps = Math.max(1, Math.ceil((steps * c.gradientAccumulationSteps) / perGeneration));
  for (;;) {
    const mp = microPlanOf(c, layoutCovering(c, layoutSteps));
    if (mp.windows.length >= steps) return mp;
    layoutSteps *= 2;
  }
}

/** The normaliser rank `rank` applies in micro-step `id` of window `window`, as the framework computes it (core/steps). */
export function normaliserOf(mp: MicroPlan, c: TrainConfig, window: number, id: number, rank: number) {
  const T = ACTIONS_PER_CONFIG;
  const m = mp.plan.microSteps[id]!;
  const ids = mp.windows[window]!;
  const windowSequences = ids.reduce((n, i) => n + mp.plan.microSteps[i]!.perRank.flat().length, 0);
  return mp.spec.normaliser(c.loss, {
    ranks: c.ranks,
    // Every completion of the controller is its four actions.
    rows: m.perRank[rank]!.map(() => T),
    window: mp.plan.windows[window]!.size,
    ga: mp.batching.ga,
    stepsPerGeneration: mp.layout.config.stepsPerGeneration,
    generationTokens: T * m.generationSteps.reduce((n, s) => n + mp.generationSize[s]!, 0),
    windowTokens: T * windowSequences,
    windowSequences,
    maxLength: T,
  });
}

/**
 * One rank's micro-batch loss and d loss / d logp with the framework's normaliser: the loss that
 * computeLoss runs for `c.loss` (src/ops/loss.ts), each token weighed by the loss op's own rule over
 * this micro-batch alone, then rescaled so that each token of row r weighs `perToken(r)` instead,
 * the factor the framework's backward applies before DDP's mean over ranks (step.ts's rescaleToNormaliser).
 */
export async function microBatchLoss(
  ops: OpsBackend,
  c: TrainConfig,
  perToken: (row: number) => number,
  logp: Float32Array,
  oldLogp: Float32Array,
  refLogp: Float32Array | null,
  advantages: Float32Array,
): Promise<{ loss: number; gradLogp: Float32Array }> {
  const T = ACTIONS_PER_CONFIG;
  const rows = advantages.length;
  const out = await computeLoss(ops, {
    shape: { rows, tokens: T },
    logp,
    oldLogp,
    refLogp,
    mask: new Float32Array(rows * T).fill(1),
    advantages,
    rewards: null,
    settings: { ...grpoSettings(c), lossType: lossOpType(c), groupSize: c.k },
  });
  return rescaleToNormaliser(c, perToken, rows, { loss: out.loss, gradLogp: Float32Array.from(out.gradLogp) });
}

/** A generation batch as a rank holds it between its passes. */
interface HeldGeneration extends Generation {
  /** Its last micro-step: then it is dropped. */
  lastUse: number;
}

/** What a rank keeps between optimizer steps: the plan, and the generation batches still to be trained on. */
export interface MicroRun {
  plan: MicroPlan;
  held: Map<number, HeldGeneration>;
}

export function microRun(c: TrainConfig, layout: Layout): MicroRun {
  return { plan: microPlanOf(c, layout), held: new Map() };
}

async function generation(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  run: MicroRun,
  g: number,
  report: boolean,
): Promise<HeldGeneration> {
  const mp = run.plan;
  const ids = mp.layout.steps[g]!.ranks[rank.rank]!;
  // Held across optimizer steps: its arrays are its own workspace's.
  const ws = new Workspace();
  // The draws are keyed by the generation (layout step), as a plain step's are by its step, and the gathered position.
  const { rollout: ro, gathered } = await generateAndGather(rank, ops, task, c, { ...state, step: g }, ids, 0, ws);
  let lastUse = 0;
  mp.plan.microSteps.forEach((m, i) => {
    if (m.generation === g) lastUse = i;
  });
  const held = { ...generationOf(rank, c, state, ro, gathered, rank.rank * ro.rows, ws, report), lastUse };
  run.held.set(g, held);
  return held;
}

/**
 * The optimizer step `state.step` of the plan on this rank; returns the step's metrics (every rank
 * computes the same; `report` false: the gathered batch's are NaN, as a plain step's). `ws`: the
 * rank's workspace for the step's scratch arrays.
 */
export async function microTrainStep(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  run: MicroRun,
  ws = new Workspace(),
  report = true,
): Promise<StepMetrics> {
  if (state.step >= run.plan.windows.length) run.plan = microPlanCovering(c, 2 * state.step + 1);
  const mp = run.plan;
  const window = state.step;
  let generations = 0;
  const normaliser: string[] = [];
  const passes: number[] = [];
  const microSteps: MicroStep[] = [];
  const ids = mp.windows[window]!;
  for (const id of ids) {
    const m = mp.plan.microSteps[id]!;
    let gen = run.held.get(m.generation);
    if (!gen) {
      gen = await generation(rank, ops, task, c, state, run, m.generation, report);
      generations++;
    }
    passes.push(m.pass);
    const first = mp.offsets[m.generation]! + gen.rowOffset;
    const norm = normaliserOf(mp, c, window, id, rank.rank);
    if (normaliser.at(-1) !== norm.text) normaliser.push(norm.text);
    microSteps.push({
      generation: gen,
      rows: m.perRank[rank.rank]!.map((completion) => completion - first),
      rowsAllRanks: m.perRank.flat().length,
      perToken: (r) => norm.perToken(r),
    });
  }
  const micro = { framework: mp.spec.name, loss: c.loss, normaliser, microSteps: ids.length, generations, passes };
  const metrics = await optimizerStep(rank, ops, task, c, state, microSteps, ws, report, micro);
  for (const id of ids) {
    const g = mp.plan.microSteps[id]!.generation;
    if (run.held.get(g)?.lastUse === id) run.held.delete(g);
  }
  return metrics;
}
