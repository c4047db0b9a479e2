// Training through the micro-step model of src/core/steps (what `grpo-sandbox steps` shows): a
// step of the run is one optimizer step, made of the micro-steps the framework version cuts the
// generation batches into. Every rank, for each micro-step of the step's accumulation window:
//   samples the generation batch its micro-batch comes from, if that batch is not held yet
//   (generate → score → allGather → advantages, as src/train/step.ts);
//   takes its micro-batch's rows; on a later pass, once the policy has moved since the batch was
//   sampled, runs them again under the current parameters (the ratio leaves 1, clipping bites);
//   computes the loss, rescaled to the framework's normaliser (core/steps/frameworks.ts), and adds
//   its gradient to the window's;
// then one allReduce(mean) of the summed gradients with the metric sums, clip, Adam, as a plain step.
import { ACTIONS_PER_CONFIG, HEAD_LIST, type HeadName } from '../core/env/controller.ts';
import type { Task } from '../core/env/task.ts';
import type { GrpoLossSettings } from '../core/grpo/loss.ts';
import { schemeAdvantages } from '../core/grpo/schemes.ts';
import type { Layout } from '../core/layout/types.ts';
import { completionOffsets, FRAMEWORKS, type FrameworkSpec, planMicroSteps } from '../core/steps/index.ts';
import type { Plan } from '../core/steps/schedule.ts';
import type { OpsBackend } from '../ops/backend.ts';
import { tokenWeight } from '../ops/cpu/grpoLoss.ts';
import type { Rank } from '../ranks/rank.ts';
import { layoutCovering, stepsPerGenerationOf, type TrainConfig } from './config.ts';
import { forwardActions, headEntropySums, policyBackward, selectRows, type Rollout } from './policy.ts';
import { ADAM, generateAndGather, type Gathered, logpUnder, rewardStats, type StepMetrics, std, type TrainState } from './step.ts';

/** What an optimizer step made of micro-steps reports (the same on every rank). */
export interface MicroStepMetrics {
  /** The framework version whose micro-batching and normaliser were applied. */
  framework: string;
  /** Loss type whose normaliser was applied. */
  loss: string;
  /** The normaliser of each micro-step of rank 0, in words with its numbers, as `grpo-sandbox steps` prints it (distinct texts, in order). */
  normaliser: string[];
  /** Micro-steps accumulated into this update (the last window of an epoch may be short). */
  microSteps: number;
  /** Generation batches sampled during this step (0 when every micro-step reuses a held one). */
  generations: number;
  /** Passes (from 0) of the micro-steps, in order: pass > 0 trains on samples an older policy generated when updates came between. */
  passes: number[];
  /** Trained tokens whose sampling policy is older than the current one (ratio computed against the older policy). */
  offPolicyFraction: number;
  /** Mean |ratio − 1| over the trained tokens: 0 on-policy. */
  ratioDeviation: number;
}

/** The layout, its micro-steps and windows under the run's framework version, and where each completion lives. */
export interface MicroPlan {
  layout: Layout;
  plan: Plan;
  spec: FrameworkSpec;
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
  // TRL's Trainer ends its accumulation windows with its dataloader's epoch. Only the trl sampler is
  // that dataloader; the other samplers' batches reach the trainer one after another (train builds
  // their layouts one batch per epoch), so their epochs do not cut the windows.
  const stream = layout.sampler === 'trl' ? layout : { ...layout, steps: layout.steps.map((step) => ({ ...step, epoch: 0 })) };
  const plan = planMicroSteps(stream, spec.schedule, c.batch);
  const windows: number[][] = plan.windows.map(() => []);
  plan.microSteps.forEach((m, i) => windows[m.window]!.push(i));
  return {
    layout,
    plan,
    spec,
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
    ga: c.gradientAccumulationSteps,
    stepsPerGeneration: mp.layout.config.stepsPerGeneration,
    generationTokens: T * m.generationSteps.reduce((n, s) => n + mp.generationSize[s]!, 0),
    windowTokens: T * windowSequences,
    windowSequences,
    maxLength: T,
  });
}

/** The loss settings of a run (the loss op's). */
export function lossSettings(c: TrainConfig): GrpoLossSettings {
  return {
    lossType: c.loss as GrpoLossSettings['lossType'],
    epsilonLow: c.epsilonLow,
    epsilonHigh: c.epsilonHigh,
    beta: c.beta,
    maxCompletionLength: ACTIONS_PER_CONFIG,
  };
}

/**
 * One rank's micro-batch loss and d loss / d logp with the framework's normaliser: the loss op
 * weighs each token by its own rule (tokenWeight, over this micro-batch alone); the result is
 * rescaled so that each token of row r weighs `perToken(r)` instead, the factor the framework's
 * backward applies before DDP's mean over ranks.
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
  const s = lossSettings(c);
  const mask = new Float32Array(rows * T).fill(1);
  const out = await ops.grpoLoss(logp, oldLogp, refLogp, mask, advantages, { rows, tokens: T }, s);
  const gradLogp = Float32Array.from(out.gradLogp);
  // Every row has T tokens, so the op's weight and the framework's are each the same for every row of the micro-batch.
  const factor = perToken(0) / tokenWeight(s, rows, T, rows * T);
  for (let r = 1; r < rows; r++) {
    const f = perToken(r) / tokenWeight(s, rows, T, rows * T);
    if (Math.abs(f - factor) > 1e-12 * factor) throw new Error(`micro-batch rows weigh differently (${f} vs ${factor}): not modelled`);
  }
  for (let i = 0; i < gradLogp.length; i++) gradLogp[i]! *= factor;
  return { loss: out.loss * factor, gradLogp };
}

/** A generation batch as a rank holds it between its passes. */
interface Generation {
  rollout: Rollout;
  gathered: Gathered;
  /** The chosen scheme's advantages over the gathered batch. */
  advantages: Float32Array;
  /** Optimizer steps taken before it was sampled. */
  version: number;
  /** Its last micro-step: then it is dropped. */
  lastUse: number;
}

/** What a rank keeps between optimizer steps: the plan, and the generation batches still to be trained on. */
export interface MicroRun {
  plan: MicroPlan;
  held: Map<number, Generation>;
}

export function microRun(c: TrainConfig, layout: Layout): MicroRun {
  return { plan: microPlanOf(c, layout), held: new Map() };
}

async function generation(rank: Rank, ops: OpsBackend, task: Task, c: TrainConfig, state: TrainState, run: MicroRun, g: number) {
  const mp = run.plan;
  const ids = mp.layout.steps[g]!.ranks[rank.rank]!;
  // The draws are keyed by the generation (layout step), as a plain step's are by its step, and the gathered position.
  const { rollout: ro, gathered } = await generateAndGather(rank, ops, task, c, { ...state, step: g }, ids);
  const advantages = schemeAdvantages(c.advantage, { rewards: gathered.rewards, promptIds: gathered.promptIds, k: c.k, ranks: rank.size });
  let lastUse = 0;
  mp.plan.microSteps.forEach((m, i) => {
    if (m.generation === g) lastUse = i;
  });
  const held: Generation = { rollout: ro, gathered, advantages: Float32Array.from(advantages), version: state.step, lastUse };
  run.held.set(g, held);
  return held;
}

/** The optimizer step `state.step` of the plan on this rank; returns the step's metrics (every rank computes the same). */
export async function microTrainStep(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  run: MicroRun,
): Promise<StepMetrics> {
  if (state.step >= run.plan.windows.length) run.plan = microPlanCovering(c, 2 * state.step + 1);
  const mp = run.plan;
  const window = state.step;
  const T = ACTIONS_PER_CONFIG;
  const W = rank.size;
  let accum: Float32Array | null = null;
  let loss = 0;
  let klSum = 0;
  let clipped = 0;
  let offPolicy = 0;
  let deviation = 0;
  let generations = 0;
  const entropy = Object.fromEntries(HEAD_LIST.map((h) => [h.name, 0])) as Record<HeadName, number>;
  const normaliser: string[] = [];
  const passes: number[] = [];
  const used = new Map<number, Generation>();
  const ids = mp.windows[window]!;
  for (const id of ids) {
    const m = mp.plan.microSteps[id]!;
    let gen = run.held.get(m.generation);
    if (!gen) {
      gen = await generation(rank, ops, task, c, state, run, m.generation);
      generations++;
    }
    used.set(m.generation, gen);
    passes.push(m.pass);
    const first = mp.offsets[m.generation]! + rank.rank * gen.rollout.rows;
    const local = m.perRank[rank.rank]!.map((completion) => completion - first);
    const sampled = selectRows(gen.rollout, local);
    // The policy moved since the batch was sampled: its rows under the current parameters.
    const moved = gen.version !== state.step;
    const current = moved ? await forwardActions(ops, c.dims, state.params, sampled) : sampled;
    const ref = state.ref ? await logpUnder(ops, task, state.ref, current) : null;
    const advantages = Float32Array.from(local, (r) => gen.advantages[first - mp.offsets[m.generation]! + r]!);
    const norm = normaliserOf(mp, c, window, id, rank.rank);
    if (normaliser.at(-1) !== norm.text) normaliser.push(norm.text);
    const out = await microBatchLoss(ops, c, (r) => norm.perToken(r), current.logpTokens, sampled.logpTokens, ref, advantages);
    const grads = await policyBackward(ops, c.dims, state.params, current, out.gradLogp);
    if (accum) for (let i = 0; i < grads.length; i++) accum[i]! += grads[i]!;
    else accum = grads;
    loss += out.loss;
    for (let i = 0; i < current.logpTokens.length; i++) {
      const ratio = Math.exp(current.logpTokens[i]! - sampled.logpTokens[i]!);
      if (ratio < 1 - c.epsilonLow || ratio > 1 + c.epsilonHigh) clipped++;
      deviation += Math.abs(ratio - 1);
      if (ref) {
        const d = ref[i]! - current.logpTokens[i]!;
        klSum += Math.exp(d) - d - 1;
      }
    }
    if (moved) offPolicy += current.logpTokens.length;
    const ent = headEntropySums(current);
    for (const h of HEAD_LIST) entropy[h.name] += ent[h.name];
    if (gen.lastUse === id) run.held.delete(m.generation);
  }
  // One all-reduce: the window's gradients and its metric sums, the mean over ranks.
  const metricSums = [loss, klSum, clipped, deviation, ...HEAD_LIST.map((h) => entropy[h.name])];
  const payload = new Float32Array(accum!.length + metricSums.length);
  payload.set(accum!);
  payload.set(metricSums, accum!.length);
  const reduced = await rank.allReduce(payload, { op: 'mean' });
  const grads = reduced.subarray(0, accum!.length);
  const sums = Array.from(reduced.subarray(accum!.length), (mean) => mean * W);
  const clip = await ops.gradNorm(grads, c.maxGradNorm);
  state.step++;
  await ops.adam(state.params, grads, state.m, state.v, clip.scale, state.step, { ...ADAM, lr: c.lr });

  // Rewards and advantages of the generation batches this step trained on.
  const gens = [...used.values()];
  const cat = (pick: (g: Generation) => ArrayLike<number>, Type: Float32ArrayConstructor | Int32ArrayConstructor) => {
    const parts = gens.map(pick);
    const out = new Type(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const gathered: Gathered = {
    rewards: cat((g) => g.gathered.rewards, Float32Array) as Float32Array,
    expected: cat((g) => g.gathered.expected, Float32Array) as Float32Array,
    promptIds: cat((g) => g.gathered.promptIds, Int32Array) as Int32Array,
  };
  // Every rank trains the same number of rows in each micro-step; whether the policy moved is the same on every rank.
  const rows = ids.reduce((n, i) => n + mp.plan.microSteps[i]!.perRank.flat().length, 0);
  const tokens = rows * T;
  return {
    step: state.step,
    ...rewardStats(task, gathered),
    loss: sums[0]! / W,
    kl: state.ref ? sums[1]! / tokens : null,
    entropy: Object.fromEntries(HEAD_LIST.map((h, i) => [h.name, sums[4 + i]! / rows])) as Record<HeadName, number>,
    clipFraction: sums[2]! / tokens,
    gradNorm: clip.norm,
    advantageStd: std(cat((g) => g.advantages, Float32Array)),
    micro: {
      framework: mp.spec.name,
      loss: c.loss,
      normaliser,
      microSteps: ids.length,
      generations,
      passes,
      offPolicyFraction: (offPolicy * W) / tokens,
      ratioDeviation: sums[3]! / tokens,
    },
  };
}
