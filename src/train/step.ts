// One GRPO training step as every rank runs it (data parallelism), on the CPU ops. A step is one
// optimizer step made of micro-steps (`optimizerStep`); a plain step is one micro-step over one
// generation, and src/train/micro-steps.ts plans the micro-steps of gradient accumulation and
// several passes, dynamic sampling (src/train/dynamic.ts) trains one over its slices:
//   generateAndGather: sample and score this rank's rows, all-gather rewards and prompt ids;
//   generationOf: this rank's slots' advantages under the chosen scheme (each over its group in the gathered batch);
//   optimizerStep: for each micro-step, the loss (computeLoss, src/ops/loss.ts) and gradients, summed →
//   one allReduce(mean) of the gradients with the metric sums appended (src/train/metrics.ts)
//   → the same clip and Adam step on every rank.
// Every rank ends the step with bit-identical parameters; checkReplicas verifies it.
import { ACTIONS_PER_CONFIG, controllerLayout, HEAD_LIST, headShape, initControllerParams } from '../core/env/controller.ts';
import { scoreSample, type Task } from '../core/env/task.ts';
import type { GrpoLossSettings } from '../core/grpo/loss.ts';
import { keyGroups } from '../core/grpo/slot-advantages.ts';
import type { OpsBackend } from '../ops/backend.ts';
import { ADAM_DEFAULTS } from '../ops/cpu/adam.ts';
import { tokenWeight } from '../ops/cpu/grpoLoss.ts';
import { computeLoss, type LossOps } from '../ops/loss.ts';
import type { Rank } from '../ranks/rank.ts';
import { lossOpType, type TrainConfig } from './config.ts';
import { homePerToken } from './home-normaliser.ts';
import {
  entropySums,
  type GatheredKey,
  type MicroStepFacts,
  type StepMetrics,
  stepMetrics,
  SUM_FLOATS,
  writeSums,
  zeroSums,
} from './metrics.ts';
import {
  forwardActions,
  headEntropySums,
  layoutOf,
  policyBackward,
  rollout,
  selectRows,
  stageShapes,
  stageTrunk,
  type Rollout,
} from './policy.ts';
import { checksumOnce, sharedRows, updateOnce } from './replicas.ts';
import { rankAdvantages } from './shared-advantages.ts';
import { Workspace } from './workspace.ts';

/** What every rank holds between steps. */
export interface TrainState {
  params: Float32Array;
  m: Float32Array;
  v: Float32Array;
  /** The reference policy (the initial parameters), kept only when beta > 0. */
  ref: Float32Array | null;
  /** Steps done (Adam's step count; the sampling key of the next step). */
  step: number;
}

/** A replica's state before its first step; `initial`: initControllerParams(c.dims, c.seed) already built (copied, not kept). */
export function initialState(c: TrainConfig, initial?: Float32Array): TrainState {
  const params = initial ? initial.slice() : initControllerParams(c.dims, c.seed);
  return {
    params,
    m: new Float32Array(params.length),
    v: new Float32Array(params.length),
    ref: c.beta > 0 ? params.slice() : null,
    step: 0,
  };
}

export type { StepMetrics } from './metrics.ts';

/** The gathered view of a step: every sample in rank-major order. */
export interface Gathered {
  rewards: Float32Array;
  expected: Float32Array;
  promptIds: Int32Array;
}

/** What one rank generated and scored for its prompt ids (before any collective). */
export interface LocalBatch {
  rollout: Rollout;
  rewards: Float32Array;
  expected: Float32Array;
  /** Per sample: the sampled correctness bit (sparse reward) or the expected accuracy (dense); --filter-metric accuracy. */
  accuracy: Float32Array;
}

/**
 * Generate → score on this rank alone: a configuration for each prompt id, its reward. The
 * draws are keyed by (step, attempt) and the sample's global position `rowOffset + r`, not by
 * rank; dynamic sampling calls it again in a step with other ids (`attempt` keeps the draws
 * apart) and with batches of unequal size per rank (stream), hence the explicit row offset.
 * The batch's arrays are `ws`'s (by default a fresh workspace's).
 */
export async function generateLocal(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  promptIds: readonly number[],
  attempt = 0,
  rowOffset = rank.rank * promptIds.length,
  ws = new Workspace(),
): Promise<LocalBatch> {
  const keyStep = state.step + attempt * 0x10000000;
  // The trunks' and heads' rows this thread's other ranks computed under the same replica (replicas.ts), used and added to.
  const key = { seed: c.seed, step: keyStep, rowOffset };
  const ro = await rollout(ops, task, state.params, promptIds, key, undefined, ws, sharedRows(state, task));
  const rewards = ws.f32('rewards', ro.rows);
  const expected = ws.f32('expected', ro.rows);
  const accuracy = ws.f32('accuracy', ro.rows);
  const h = ro.heads;
  for (let r = 0; r < ro.rows; r++) {
    const a = { tier: h.tier.actions[r]!, insertion: h.insertion.actions[r]!, topK: h.topK.actions[r]!, knob3: h.knob3.actions[r]! };
    const s = scoreSample(task, promptIds[r]!, a, c.reward, { seed: c.seed, step: keyStep, gatheredIndex: rowOffset + r });
    rewards[r] = s.reward;
    expected[r] = s.expected;
    accuracy[r] = s.accuracy;
  }
  return { rollout: ro, rewards, expected, accuracy };
}

/** Generate → score → gather: generateLocal, then all-gather rewards, expected rewards and prompt ids. */
export async function generateAndGather(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  promptIds: readonly number[],
  attempt = 0,
  ws = new Workspace(),
): Promise<{ rollout: Rollout; localRewards: Float32Array; gathered: Gathered }> {
  const b = await generateLocal(rank, ops, task, c, state, promptIds, attempt, undefined, ws);
  return { rollout: b.rollout, localRewards: b.rewards, gathered: await gatherSamples(rank, b.rewards, b.expected, promptIds, ws) };
}

/**
 * One allGather for the three per-sample columns (fewer collectives: each one is two barriers
 * of every rank). float64 holds the float32 rewards and the integer ids exactly. Arrays: `ws`'s.
 */
export async function gatherSamples(
  rank: Rank,
  rewards: Float32Array,
  expected: Float32Array,
  promptIds: readonly number[],
  ws = new Workspace(),
): Promise<Gathered> {
  const n = rewards.length;
  const W = rank.size;
  const mine = ws.f64('gather.mine', 3 * n);
  for (let i = 0; i < n; i++) {
    mine[i] = rewards[i]!;
    mine[n + i] = expected[i]!;
    mine[2 * n + i] = promptIds[i]!;
  }
  const all = await rank.allGather(mine, { out: ws.f64('gather.all', W * 3 * n) });
  const g = {
    rewards: ws.f32('gathered.rewards', W * n),
    expected: ws.f32('gathered.expected', W * n),
    promptIds: ws.i32('gathered.promptIds', W * n),
  };
  for (let r = 0; r < W; r++)
    for (let i = 0, at = 3 * n * r; i < n; i++) {
      g.rewards[r * n + i] = all[at + i]!;
      g.expected[r * n + i] = all[at + n + i]!;
      g.promptIds[r * n + i] = all[at + 2 * n + i]!;
    }
  return g;
}

/** Indices of the gathered samples bucketed by prompt id (flow_grpo's and the pairwise loss's groups). */
function groupsByPrompt(promptIds: Int32Array): number[][] {
  const map = new Map<number, number[]>();
  promptIds.forEach((id, i) => {
    const g = map.get(id);
    if (g) g.push(i);
    else map.set(id, [i]);
  });
  return [...map.values()];
}

/** Log-probabilities of the sampled actions under `params` (the reference policy), rows × 4. */
export async function logpUnder(ops: OpsBackend, task: Task, params: Float32Array, ro: Rollout): Promise<Float32Array> {
  const d = task.dims;
  const { tensors: t } = controllerLayout(d);
  const view = (n: keyof typeof t) => params.subarray(t[n].offset, t[n].offset + t[n].length);
  const rows = ro.rows;
  const out = new Float32Array(rows * ACTIONS_PER_CONFIG);
  const logits: Float32Array[] = [];
  for (const stage of [1, 2] as const) {
    const { head } = stageShapes(d, rows, stage);
    const [wh, bh] = stage === 1 ? (['w1h', 'b1h'] as const) : (['w2h', 'b2h'] as const);
    const h = await stageTrunk(ops, d, params, ro, stage);
    logits.push((await ops.dense(h.y, view(wh), view(bh), { ...head, activation: 'identity' })).z);
  }
  for (const h of HEAD_LIST) {
    const soft = await ops.maskedSoftmax(logits[h.stage - 1]!, h.name === 'knob3' ? ro.knob3Mask : null, headShape(h.name, rows));
    const actions = ro.heads[h.name].actions;
    for (let r = 0; r < rows; r++) out[r * ACTIONS_PER_CONFIG + h.column] = soft.logp[r * h.width + actions[r]!]!;
  }
  return out;
}

/** What the backend's loss ops return. */
type LossResult = { loss: number; gradLogp: Float32Array };

/**
 * The backend's loss ops as one rank of a data-parallel step runs them, for computeLoss
 * (src/ops/loss.ts) to choose from. The GRPO losses are per row: this rank's rows alone. The
 * pairwise loss ranks each prompt's group, whose members may live on several ranks (flow_grpo's
 * scatter): it gathers the rows' sequence log-probs, runs the op over the gathered groups (by
 * prompt id) and keeps this rank's rows of the gradient. Both return this rank's share such that
 * the mean over ranks is the step's loss and gradient; the pairwise loss is global, so its share
 * is the whole loss × W.
 */
function rankLossOps(
  rank: Rank,
  ops: OpsBackend,
  gathered: Gathered,
  k: number,
  offset: number,
  ws: Workspace,
): LossOps<Float32Array, Promise<LossResult>, Promise<LossResult>> {
  return {
    grpoLoss: (logp, oldLogp, refLogp, mask, advantages, shape, s) =>
      ops.grpoLoss(logp, oldLogp, refLogp, mask, advantages, shape, s, ws.f32('gradLogp', shape.rows * shape.tokens)),
    // `rewards` are this rank's rows; the groups take theirs from the gathered batch.
    pairwiseLoss: async (logp, mask, _rewards, { rows, tokens: T, groupSize }) => {
      const seq = new Float32Array(rows);
      for (let r = 0; r < rows; r++) for (let t = 0; t < T; t++) seq[r]! += logp[r * T + t]! * mask[r * T + t]!;
      const allSeq = await rank.allGather(seq);
      const groups = groupsByPrompt(gathered.promptIds);
      const bad = groups.find((g) => g.length !== k);
      if (bad) throw new Error(`pairwise loss: prompt ${gathered.promptIds[bad[0]!]} has ${bad.length} samples in this step, not k=${k}`);
      // Reorder so each group is contiguous, as the loss op expects.
      const order = groups.flat();
      const n = order.length;
      const res = await ops.pairwiseLoss(
        Float32Array.from(order, (i) => allSeq[i]!),
        new Float32Array(n).fill(1),
        Float32Array.from(order, (i) => gathered.rewards[i]!),
        { rows: n, tokens: 1, groupSize },
      );
      const gradSeq = new Float32Array(n);
      order.forEach((i, j) => {
        gradSeq[i] = res.gradLogp[j]!;
      });
      // This rank's rows of the global loss's gradient, × W because the gradients are then averaged.
      const gradLogp = new Float32Array(rows * T);
      for (let r = 0; r < rows; r++) for (let t = 0; t < T; t++) gradLogp[r * T + t] = rank.size * gradSeq[offset + r]!;
      return { loss: res.loss * rank.size, gradLogp };
    },
  };
}

/**
 * A generation batch as a rank trains on it: its rollout, the gathered batch and the chosen scheme's
 * advantages. A plain step trains on one at once; with micro-steps it is held until its last pass.
 */
export interface Generation {
  rollout: Rollout;
  gathered: Gathered;
  /** The gathered position of this rank's first row (equal slices by default; dynamic sampling's may differ in size). */
  rowOffset: number;
  /** The scheme's advantages of this rank's rows, float32 as the loss reads them. */
  advantages: Float32Array;
  /** The gathered batch's advantages (the scheme's float64 values) where the rank reports its metrics (advantageStd), else null. */
  allAdvantages: Float64Array | null;
  /** Optimizer steps taken before it was sampled: the policy moved since when this is not the state's step. */
  version: number;
}

/**
 * The chosen scheme's advantages of this rank's slots (each over its whole group in the gathered
 * batch) make a generation of `ro`; the reporting rank takes every slot's, since the advantages'
 * std is the batch's. Arrays: `ws`'s.
 */
export function generationOf(
  rank: Rank,
  c: TrainConfig,
  state: TrainState,
  ro: Rollout,
  gathered: Gathered,
  rowOffset: number,
  ws: Workspace,
  report: boolean,
): Generation {
  const input = { rewards: gathered.rewards, promptIds: gathered.promptIds, k: c.k, ranks: rank.size };
  const { advantages, all } = rankAdvantages(rank.local, c.advantage, input, rowOffset, ro.rows, ws, report);
  return { rollout: ro, gathered, rowOffset, advantages, allAdvantages: all, version: state.step };
}

/** One micro-step of an optimizer step: rows of a generation, and how their loss is normalised. */
export interface MicroStep {
  generation: Generation;
  /** This rank's rows of the generation (indices into its rollout), or null: all of them. */
  rows: readonly number[] | null;
  /** Rows every rank trains on in this micro-step (the metrics' denominators). */
  rowsAllRanks: number;
  /**
   * The weight each token of row r gets in the framework's backward before DDP's mean over ranks
   * (core/steps' normaliser), or null: the loss op's own weighting (a plain step).
   */
  perToken: ((row: number) => number) | null;
}

/**
 * A plain step's per-token weight: a framework home's normaliser for a step that gathers `samples` completions
 * (home-normaliser.ts), or null: the loss op's own weighting (TRL's and ms-swift's loss types, and the pairwise loss).
 */
export function plainPerToken(c: TrainConfig, samples: number): ((row: number) => number) | null {
  return c.loss === 'pairwise' ? null : homePerToken(c.framework, c.loss, c.ranks, samples, c.k);
}

/**
 * The loss op's result rescaled so that each token of row r weighs `perToken(r)` instead of the
 * op's own weight (tokenWeight, over this micro-batch alone), in place: the factor the framework's
 * backward applies before DDP's mean over ranks.
 */
export function rescaleToNormaliser(
  c: TrainConfig,
  perToken: (row: number) => number,
  rows: number,
  out: { loss: number; gradLogp: Float32Array },
): { loss: number; gradLogp: Float32Array } {
  const T = ACTIONS_PER_CONFIG;
  const s = grpoSettings(c);
  // Every row has T tokens, so the op's weight and the framework's are each the same for every row of the micro-batch.
  const factor = perToken(0) / tokenWeight(s, rows, T, rows * T);
  for (let r = 1; r < rows; r++) {
    const f = perToken(r) / tokenWeight(s, rows, T, rows * T);
    if (Math.abs(f - factor) > 1e-12 * factor) throw new Error(`micro-batch rows weigh differently (${f} vs ${factor}): not modelled`);
  }
  const g = out.gradLogp;
  for (let i = 0; i < g.length; i++) g[i]! *= factor;
  return { loss: out.loss * factor, gradLogp: g };
}

/** The GRPO loss settings of a run (the loss op's; the pairwise loss reads groupSize instead). */
export function grpoSettings(c: TrainConfig): GrpoLossSettings {
  return {
    lossType: lossOpType(c) as GrpoLossSettings['lossType'],
    epsilonLow: c.epsilonLow,
    epsilonHigh: c.epsilonHigh,
    beta: c.beta,
    maxCompletionLength: ACTIONS_PER_CONFIG,
  };
}

/**
 * Runs one plain training step on this rank: one generation, one micro-step over all its rows.
 * `ws`: the rank's workspace, whose arrays the step reuses (the rank's next step overwrites them).
 * `report` false: the metrics that only the gathered batch gives (rewardStats, advantageStd) are
 * NaN, not computed: every rank would compute the same, and only the reporting rank's are read.
 */
export async function trainStep(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  promptIds: readonly number[],
  ws = new Workspace(),
  report = true,
) {
  const { rollout: ro, gathered } = await generateAndGather(rank, ops, task, c, state, promptIds, 0, ws);
  return optimiseOn(rank, ops, task, c, state, ro, gathered, undefined, ws, report);
}

/**
 * One micro-step's optimizer step on a batch already generated and gathered (a plain step, dynamic
 * sampling's slice). This rank's rows are gathered rows [rowOffset, rowOffset + ro.rows): equal
 * slices by default, an explicit offset when dynamic sampling gives the ranks slices of different sizes (rebalance).
 */
export async function optimiseOn(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  ro: Rollout,
  gathered: Gathered,
  rowOffset = rank.rank * ro.rows,
  ws = new Workspace(),
  report = true,
): Promise<StepMetrics> {
  const generation = generationOf(rank, c, state, ro, gathered, rowOffset, ws, report);
  return optimizerStep(
    rank,
    ops,
    task,
    c,
    state,
    [{ generation, rows: null, rowsAllRanks: gathered.rewards.length, perToken: plainPerToken(c, gathered.rewards.length) }],
    ws,
    report,
  );
}

/**
 * One optimizer step of micro-steps on this rank; returns its metrics (identical on every rank). For each
 * micro-step: its rows (under the current parameters once the policy moved since they were sampled,
 * so the ratio leaves 1), the loss of `c.loss` through computeLoss (rescaled to the framework's
 * normaliser when given), its gradients added to the step's. Then one allReduce(mean) of the
 * gradients with the metric sums (metrics.ts) appended, clip, Adam. `micro`: the step's facts when
 * it is made of a plan's micro-steps (the record's `micro`).
 */
export async function optimizerStep(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  microSteps: readonly MicroStep[],
  ws = new Workspace(),
  report = true,
  micro?: MicroStepFacts,
): Promise<StepMetrics> {
  const T = ACTIONS_PER_CONFIG;
  const P = layoutOf(c.dims).length;
  const before = state.step;
  // One all-reduce for the gradients and the step's metric sums appended to them: the mean over
  // ranks, in float32 like the gradients.
  const payload = ws.f32('payload', P + SUM_FLOATS);
  const sums = zeroSums();
  let trainedRows = 0;
  for (let i = 0; i < microSteps.length; i++) {
    const { generation: gen, rows: local, perToken, rowsAllRanks } = microSteps[i]!;
    trainedRows += rowsAllRanks;
    const sampled = local ? selectRows(gen.rollout, local) : gen.rollout;
    // The policy moved since the batch was sampled: its rows under the current parameters.
    const moved = gen.version !== state.step;
    const current = moved ? await forwardActions(ops, c.dims, state.params, sampled) : sampled;
    const ref = state.ref ? await logpUnder(ops, task, state.ref, current) : null;
    const rows = current.rows;
    const advantages = local ? Float32Array.from(local, (r) => gen.advantages[r]!) : gen.advantages;
    // (The pairwise loss, which ranks the gathered groups, trains on whole generations: config.ts refuses it with micro-steps.)
    const out = await computeLoss(rankLossOps(rank, ops, gen.gathered, c.k, gen.rowOffset, ws), {
      shape: { rows, tokens: T },
      logp: current.logpTokens,
      oldLogp: sampled.logpTokens,
      refLogp: ref,
      mask: ws.f32('mask', rows * T).fill(1),
      // This rank's rows (the GRPO losses read them).
      advantages: () => advantages,
      rewards: local
        ? Float32Array.from(local, (r) => gen.gathered.rewards[gen.rowOffset + r]!)
        : gen.gathered.rewards.subarray(gen.rowOffset, gen.rowOffset + rows),
      settings: { ...grpoSettings(c), lossType: lossOpType(c), groupSize: c.k },
    });
    const { loss, gradLogp } = perToken ? rescaleToNormaliser(c, perToken, rows, out) : out;
    // The first micro-step's gradients go straight into the payload; later ones are added to them.
    const grads = await policyBackward(ops, c.dims, state.params, current, gradLogp, ws, i === 0 ? payload : ws.f32('grads.micro', P));
    if (i > 0) for (let j = 0; j < P; j++) payload[j]! += grads[j]!;
    sums.loss += loss;
    for (let j = 0; j < rows * T; j++) {
      const ratio = Math.exp(current.logpTokens[j]! - sampled.logpTokens[j]!);
      if (ratio < 1 - c.epsilonLow || ratio > 1 + c.epsilonHigh) sums.clipFraction++;
      sums['micro.ratioDeviation'] += Math.abs(ratio - 1);
      if (ref) {
        const d = ref[j]! - current.logpTokens[j]!;
        sums.kl += Math.exp(d) - d - 1;
      }
    }
    if (moved) sums['micro.offPolicyFraction'] += rows * T;
    entropySums(sums, headEntropySums(current));
  }
  writeSums(payload, P, sums);
  // Shared by this thread's ranks (read only): they all apply it to their replicas, shared ones once (replicas.ts).
  const reduced = await rank.allReduce(payload, { op: 'mean', shared: true });
  const grads = reduced.subarray(0, P);
  const norm = await updateOnce(state, before, async () => {
    const clip = await ops.gradNorm(grads, c.maxGradNorm);
    state.step++;
    await ops.adam(state.params, grads, state.m, state.v, clip.scale, state.step, { ...ADAM, lr: c.lr });
    return clip.norm;
  });
  return stepMetrics({
    step: before + 1,
    reduced: reduced.subarray(P),
    counts: { ranks: rank.size, rows: trainedRows, tokens: trainedRows * T },
    gathered: report ? gatheredMetrics(task, microSteps, ws) : NOT_REPORTED,
    gradNorm: norm,
    reference: state.ref !== null,
    micro,
  });
}

const NOT_REPORTED: Record<GatheredKey, number> = {
  rewardMean: NaN,
  rewardStd: NaN,
  optimumFraction: NaN,
  zeroStdFraction: NaN,
  advantageStd: NaN,
};

/** The gathered batch's metrics over the generations the micro-steps trained on (each once, in order of first use). */
function gatheredMetrics(task: Task, microSteps: readonly MicroStep[], ws: Workspace): Record<GatheredKey, number> {
  const gens = [...new Set(microSteps.map((m) => m.generation))];
  if (gens.length === 1) {
    const g = gens[0]!;
    return { ...rewardStats(task, g.gathered, ws), advantageStd: g.allAdvantages ? std(g.allAdvantages) : NaN };
  }
  const cat = <A extends Float32Array | Int32Array | Float64Array>(parts: A[], make: (n: number) => A): A => {
    const out = make(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p as never, at);
      at += p.length;
    }
    return out;
  };
  const gathered: Gathered = {
    rewards: cat(
      gens.map((g) => g.gathered.rewards),
      (n) => new Float32Array(n),
    ),
    expected: cat(
      gens.map((g) => g.gathered.expected),
      (n) => new Float32Array(n),
    ),
    promptIds: cat(
      gens.map((g) => g.gathered.promptIds),
      (n) => new Int32Array(n),
    ),
  };
  const all = gens.every((g) => g.allAdvantages)
    ? cat(
        gens.map((g) => g.allAdvantages!),
        (n) => new Float64Array(n),
      )
    : null;
  return { ...rewardStats(task, gathered), advantageStd: all ? std(all) : NaN };
}

/** Population standard deviation (float64 sums). */
export function std(x: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i]!;
  const mean = sum / x.length;
  let sq = 0;
  for (let i = 0; i < x.length; i++) sq += (x[i]! - mean) ** 2;
  return Math.sqrt(sq / x.length);
}

/** Adam's settings (torch.optim.Adam's defaults); every step overrides lr with the run's --lr. */
export const ADAM = ADAM_DEFAULTS;

/** Reward mean and std, fraction of the optimum, tied groups: from the gathered batch alone. Scratch arrays: `ws`'s. */
export function rewardStats(
  task: Task,
  g: Gathered,
  ws = new Workspace(),
): Pick<StepMetrics, 'rewardMean' | 'rewardStd' | 'optimumFraction' | 'zeroStdFraction'> {
  const n = g.rewards.length;
  let sum = 0;
  let expected = 0;
  let optimum = 0;
  for (let i = 0; i < n; i++) {
    sum += g.rewards[i]!;
    expected += g.expected[i]!;
    optimum += task.optimumReward[g.promptIds[i]!]!;
  }
  const mean = sum / n;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (g.rewards[i]! - mean) ** 2;
  // A group ties when every member's reward equals its first member's.
  const groups = keyGroups(g.promptIds, 0, n, ws);
  // (Groups are numbered in order of first appearance, so group `seen` next is its first member.)
  const first = ws.f64('rewardStats.first', n);
  const ties = ws.f64('rewardStats.ties', n).fill(1);
  for (let i = 0, seen = 0; i < n; i++) {
    const at = groups.group[i]!;
    if (at === seen) first[seen++] = g.rewards[i]!;
    if (g.rewards[i] !== first[at]) ties[at] = 0;
  }
  let tied = 0;
  for (let at = 0; at < groups.count; at++) tied += ties[at]!;
  return { rewardMean: mean, rewardStd: Math.sqrt(sq / n), optimumFraction: expected / optimum, zeroStdFraction: tied / groups.count };
}

/** FNV-1a over the parameters' bytes: equal replicas give equal checksums. */
export function checksum(params: Float32Array): number {
  const bytes = new Uint8Array(params.buffer, params.byteOffset, params.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) >>> 0;
  return h;
}

/** Compares every rank's parameter checksum; throws naming the ranks when the replicas diverged. */
export async function checkReplicas(rank: Rank, state: TrainState): Promise<number> {
  // Once for the ranks of a thread that hold one state (replicas.ts); each rank that holds its own, its own.
  const all = await rank.allGather(Uint32Array.of(checksumOnce(state, checksum)));
  const byValue = new Map<number, number[]>();
  all.forEach((h, r) => {
    byValue.set(h, [...(byValue.get(h) ?? []), r]);
  });
  if (byValue.size > 1) {
    const parts = [...byValue].map(
      ([h, ranks]) => `rank${ranks.length > 1 ? 's' : ''} ${ranks.join(', ')}: ${h.toString(16).padStart(8, '0')}`,
    );
    throw new Error(`parameters diverged across ranks after step ${state.step} (checksums ${parts.join('; ')})`);
  }
  return all[0]!;
}
