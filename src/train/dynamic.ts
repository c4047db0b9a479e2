// Dynamic sampling inside a training step: the protocol of src/core/dynamic drives
// this rank's generation (one generateLocal per draw, `attempt` = draw), and every rollout
// row travels with its sample through allGatherObject as tensors on its origin rank's device.
// The rank's slice is rebuilt from rows made anywhere, moved with .to(rank.device) first
// (seed-004's fix; `deviceFix: false` reproduces its error inside training). The slice's
// rewards are then gathered for the advantages: a plain allGather, so the naive policy fails
// with seed-002's shape mismatch; rebalance, whose sizes may differ by one, uses allGatherVariable.
import { DEFAULT_CONFIG, type DynamicConfig, dynamicStep, type Policy, type Sample, type StepPlan } from '../core/dynamic/index.ts';
import type { Task } from '../core/env/task.ts';
import type { OpsBackend } from '../ops/backend.ts';
import type { Rank } from '../ranks/rank.ts';
import { cat, type Tensor } from '../ranks/tensor.ts';
import type { TypedArray } from '../ranks/dtype.ts';
import type { TrainConfig } from './config.ts';
import type { Rollout } from './policy.ts';
import { stepMetrics, SUM_FLOATS } from './metrics.ts';
import { updateOnce } from './replicas.ts';
import { generateLocal, optimiseOn, rewardStats, type Gathered, type StepMetrics, type TrainState } from './step.ts';

/** What dynamic sampling did in one step (the same on every rank). */
export interface DynamicStepMetrics {
  policy: Policy;
  /** Samples the step should train on (ranks × batch). */
  target: number;
  /** Valid samples in the pool after the original batch, then after each resample (before of draw n = after of n − 1). */
  validAfter: number[];
  /** full, short (a policy then handled the shortage), or failed (the framework raised). */
  outcome: string;
  resamples: number;
  shortage: number;
  invalidGroupsKept: number;
  duplicated: number;
  discardedSurplus: number;
  /** Generations beyond one batch. */
  extraGenerations: number;
  /** Samples each rank trained on. */
  rows: number[];
  /** Layout batches this step consumed (1 + resamples; the sampler's shared counter moves by it). */
  draws: number;
  /** Nothing to train on (rebalance with an empty pool): the parameters did not change. */
  skipped: boolean;
}

interface RowSample extends Sample {
  promptId: number;
  expected: number;
  /** This sample's row of every rollout array, on the generating rank's device. */
  row: Record<string, Tensor>;
}

/** The rollout's row-major arrays by name (heads flattened as `<head>.<field>`). */
function fields(ro: Rollout): [string, TypedArray][] {
  const out: [string, TypedArray][] = [
    ['x2', ro.x2],
    ['inputIds1', ro.inputIds[0]],
    ['inputIds2', ro.inputIds[1]],
    ['hidden0', ro.hidden[0]],
    ['hidden1', ro.hidden[1]],
    ['preact0', ro.preact[0]],
    ['preact1', ro.preact[1]],
    ['knob3Mask', ro.knob3Mask],
    ['logpTokens', ro.logpTokens],
  ];
  for (const [name, s] of Object.entries(ro.heads)) for (const [f, a] of Object.entries(s)) out.push([`${name}.${f}`, a as TypedArray]);
  return out;
}

function rowOf(rank: Rank, ro: Rollout, r: number): Record<string, Tensor> {
  const row: Record<string, Tensor> = {};
  for (const [name, a] of fields(ro)) {
    const w = a.length / ro.rows;
    row[name] = rank.tensor(a.slice(r * w, (r + 1) * w));
  }
  return row;
}

/** A rollout of the given rows, each field concatenated (cat raises the device error on mixed devices). */
function rolloutOf(rank: Rank, samples: readonly RowSample[], template: Rollout, move: boolean): Rollout {
  const empty = new Map(fields(template).map(([name, a]) => [name, a.slice(0, 0)]));
  const field = (name: string): TypedArray =>
    samples.length === 0 ? empty.get(name)! : cat(samples.map((s) => (move ? s.row[name]!.to(rank.device) : s.row[name]!))).data;
  const heads = {} as Rollout['heads'];
  for (const [name, s] of Object.entries(template.heads))
    (heads as Record<string, unknown>)[name] = Object.fromEntries(Object.keys(s).map((f) => [f, field(`${name}.${f}`)]));
  return {
    rows: samples.length,
    promptIds: samples.map((s) => s.promptId),
    stage1Bank: template.stage1Bank,
    x2: field('x2') as Float32Array,
    inputIds: [field('inputIds1') as Uint32Array, field('inputIds2') as Uint32Array],
    hidden: [field('hidden0') as Float32Array, field('hidden1') as Float32Array],
    preact: [field('preact0') as Float32Array, field('preact1') as Float32Array],
    heads,
    knob3Mask: field('knob3Mask') as Float32Array,
    logpTokens: field('logpTokens') as Float32Array,
  };
}

/**
 * One training step with dynamic sampling. `idsFor(draw)` gives this rank's prompt ids of draw
 * `draw`: the sampler's layout batch at the run's shared counter + draw (0: the step's own batch,
 * n: the n-th resample), the same counter on every rank. `deviceFix: false` leaves the rows on
 * their origin devices (seed-004's error inside training).
 */
export async function dynamicTrainStep(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  idsFor: (draw: number) => readonly number[],
  deviceFix = true,
): Promise<StepMetrics & { dynamic: DynamicStepMetrics }> {
  const policy = c.dynamicSampling!;
  const before = state.step;
  const config: DynamicConfig = {
    ...DEFAULT_CONFIG,
    ranks: rank.size,
    perRank: c.batch,
    k: c.k,
    policy,
    maxResampleTimes: c.maxResampleTimes,
    metric: c.filterMetric,
    // pad's duplicates: a fresh, identical choice on every rank each step.
    seed: (c.seed * 1_000_003 + state.step) >>> 0,
  };
  let template: Rollout | null = null;
  let maxDraw = 0;
  // The first gather is the original batch: the statistics of a step that has nothing to train on.
  let original: RowSample[] | null = null;
  const plan: StepPlan<RowSample> = await dynamicStep<RowSample>(
    {
      rank: rank.rank,
      size: rank.size,
      generate: async (draw, prompts) => {
        maxDraw = Math.max(maxDraw, draw);
        // stream asks for one prompt per empty slot (whole groups of k on this rank); the batched
        // policies generate a whole layout batch.
        const ids = policy === 'stream' ? idsFor(draw).slice(0, prompts * c.k) : idsFor(draw);
        // Rows are keyed by rank × batch + r, so batches of unequal size never share a draw.
        const g = await generateLocal(rank, ops, task, c, state, ids, draw, rank.rank * c.batch);
        template ??= g.rollout;
        return ids.map((promptId, r) => ({
          id: `d${draw}r${rank.rank}i${r}`,
          group: `d${draw}p${promptId}`,
          origin: rank.rank,
          draw,
          reward: g.rewards[r]!,
          accuracy: g.accuracy[r]!,
          expected: g.expected[r]!,
          promptId,
          row: rowOf(rank, g.rollout, r),
        }));
      },
      gather: async (value) => {
        const all = await rank.allGatherObject(value);
        original ??= (all as unknown as RowSample[][]).flat();
        return all;
      },
    },
    config,
  );
  if (plan.error) {
    // The framework raises in its generation loop; every rank reaches the same decision.
    const err = new Error(plan.error.message);
    err.name = plan.error.name;
    throw err;
  }
  const rows = plan.slices.map((s) => s.samples.length);
  const dynamic: DynamicStepMetrics = {
    policy: plan.policy,
    target: plan.target,
    validAfter: plan.events.map((e) => e.pool),
    outcome: plan.outcome,
    resamples: plan.resamples,
    shortage: plan.shortage,
    invalidGroupsKept: plan.invalidGroupsKept,
    duplicated: plan.duplicated,
    discardedSurplus: plan.discardedSurplus,
    extraGenerations: plan.extraGenerations,
    rows,
    draws: maxDraw + 1,
    skipped: false,
  };
  const mine = plan.slices[rank.rank]!.samples;
  if (rows.every((n) => n === 0)) return { ...skippedStep(task, state, before, original ?? []), dynamic: { ...dynamic, skipped: true } };
  const ro = rolloutOf(rank, mine, template!, deviceFix);
  // The trainer gathers the slices' rewards for the advantages: the plain allGather expects
  // equal sizes (so naive's short slice fails here with the rank world's shape mismatch);
  // rebalance knows its sizes may differ by one and gathers with lengths.
  const gather = async <T extends Float32Array | Int32Array>(x: T): Promise<T> =>
    policy === 'rebalance' ? ((await rank.allGatherVariable(x)).data as T) : await rank.allGather(x);
  const gathered: Gathered = {
    rewards: await gather(Float32Array.from(mine, (s) => s.reward)),
    expected: await gather(Float32Array.from(mine, (s) => s.expected)),
    promptIds: await gather(Int32Array.from(mine, (s) => s.promptId)),
  };
  const offset = rows.slice(0, rank.rank).reduce((a, b) => a + b, 0);
  const metrics = await optimiseOn(rank, ops, task, c, state, ro, gathered, offset);
  return { ...metrics, dynamic };
}

/**
 * A step with no sample to train on (rebalance after 0 valid samples): no update, but the step
 * counts (the next draws are fresh); reward statistics describe the original batch.
 */
function skippedStep(task: Task, state: TrainState, before: number, original: readonly RowSample[]): StepMetrics {
  // Once for the ranks of a thread that hold one state (replicas.ts).
  updateOnce(state, before, () => state.step++);
  const stats = rewardStats(task, {
    rewards: Float32Array.from(original, (s) => s.reward),
    expected: Float32Array.from(original, (s) => s.expected),
    promptIds: Int32Array.from(original, (s) => s.promptId),
  });
  // Nothing trained: every sum, the gradient norm and the advantages' spread are 0.
  return stepMetrics({
    step: before + 1,
    reduced: new Float32Array(SUM_FLOATS),
    counts: { ranks: 1, rows: 1, tokens: 1 },
    gathered: { ...stats, advantageStd: 0 },
    gradNorm: 0,
    reference: false,
  });
}
