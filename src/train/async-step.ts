// One training step of `train --async` on a rank: each row is sampled with the parameters of the policy version that
// generated it (the async plan's, async-plan.ts), from the snapshots the rank keeps of its last versions; the update
// is the plain step's (step.ts: gather, advantages over each group, the loss under the current parameters with the
// importance ratio against the sampling log-probabilities where the loss has one, all-reduce, clip, Adam). A step
// whose rows all come from the current version is exactly the synchronous step.
import type { Task } from '../core/env/task.ts';
import type { OpsBackend } from '../ops/backend.ts';
import type { Rank } from '../ranks/rank.ts';
import type { AsyncStepRows } from './async-plan.ts';
import type { TrainConfig } from './config.ts';
import type { Rollout } from './policy.ts';
import {
  gatherSamples,
  generateLocal,
  generationOf,
  type LocalBatch,
  optimizerStep,
  plainPerToken,
  type StepMetrics,
  type TrainState,
} from './step.ts';
import { Workspace } from './workspace.ts';

/** Parameters of past versions, by version: what a rank keeps for the rows an older policy generated. */
export class Snapshots {
  private readonly kept = new Map<number, Float32Array>();
  constructor(private readonly depth: number) {}

  /** Keeps the current parameters (version state.step) when a later step may need them, and forgets versions no step needs. */
  keep(state: TrainState): void {
    if (this.depth === 0) return;
    if (!this.kept.has(state.step)) this.kept.set(state.step, state.params.slice());
    for (const v of this.kept.keys()) if (v < state.step - this.depth) this.kept.delete(v);
  }

  paramsOf(version: number, state: TrainState): Float32Array {
    if (version === state.step) return state.params;
    const p = this.kept.get(version);
    if (!p) throw new Error(`train --async: step ${state.step} needs version ${version}'s parameters, which were not kept`);
    return p;
  }
}

/** Several rollouts' rows, one after the other (each per-row array of policy.ts's Rollout joined). */
function joinRollouts(parts: Rollout[]): Rollout {
  if (parts.length === 1) return parts[0]!;
  const join = <A extends Float32Array | Uint32Array>(pick: (r: Rollout) => A): A => {
    const arrays = parts.map(pick);
    const out = new (arrays[0]!.constructor as new (n: number) => A)(arrays.reduce((n, a) => n + a.length, 0));
    let at = 0;
    for (const a of arrays) {
      out.set(a, at);
      at += a.length;
    }
    return out;
  };
  const first = parts[0]!;
  const heads = {} as Rollout['heads'];
  for (const name of Object.keys(first.heads) as (keyof Rollout['heads'])[]) {
    heads[name] = {
      actions: join((r) => r.heads[name].actions),
      logp: join((r) => r.heads[name].logp),
      probs: join((r) => r.heads[name].probs),
    };
  }
  return {
    rows: parts.reduce((n, r) => n + r.rows, 0),
    promptIds: parts.flatMap((r) => [...r.promptIds]),
    stage1Bank: first.stage1Bank,
    x2: join((r) => r.x2),
    inputIds: [join((r) => r.inputIds[0]), join((r) => r.inputIds[1])],
    hidden: [join((r) => r.hidden[0]), join((r) => r.hidden[1])],
    preact: [join((r) => r.preact[0]), join((r) => r.preact[1])],
    heads,
    knob3Mask: join((r) => r.knob3Mask),
    logpTokens: join((r) => r.logpTokens),
  };
}

/**
 * This rank's rows of the step, each sampled under its version's parameters. Runs of rows of one version are sampled
 * together; the draws are keyed as the synchronous step's (the step that trains them, their gathered position).
 */
async function generateStale(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  ids: readonly number[],
  versions: readonly number[],
  snapshots: Snapshots,
  ws: Workspace,
): Promise<LocalBatch> {
  const n = ids.length;
  const runs: [number, number][] = [];
  for (let a = 0; a < n; ) {
    let b = a + 1;
    while (b < n && versions[b] === versions[a]) b++;
    runs.push([a, b]);
    a = b;
  }
  const parts: LocalBatch[] = [];
  for (const [a, b] of runs) {
    const params = snapshots.paramsOf(versions[a]!, state);
    // One run: the synchronous step's call itself (its workspace, its state).
    const s = params === state.params ? state : { ...state, params };
    parts.push(await generateLocal(rank, ops, task, c, s, ids.slice(a, b), 0, rank.rank * n + a, runs.length === 1 ? ws : new Workspace()));
  }
  if (parts.length === 1) return parts[0]!;
  const cat = (pick: (b: LocalBatch) => Float32Array) => {
    const out = new Float32Array(n);
    let at = 0;
    for (const p of parts) {
      out.set(pick(p), at);
      at += pick(p).length;
    }
    return out;
  };
  return {
    rollout: joinRollouts(parts.map((p) => p.rollout)),
    rewards: cat((p) => p.rewards),
    expected: cat((p) => p.expected),
    accuracy: cat((p) => p.accuracy),
  };
}

/** One `train --async` step on this rank (trainStep's update on rows of older versions). */
export async function asyncTrainStep(
  rank: Rank,
  ops: OpsBackend,
  task: Task,
  c: TrainConfig,
  state: TrainState,
  plan: AsyncStepRows,
  snapshots: Snapshots,
  ws: Workspace,
  report: boolean,
): Promise<StepMetrics> {
  snapshots.keep(state);
  const ids = plan.ids[rank.rank]!;
  const versions = plan.versions[rank.rank]!;
  const b = await generateStale(rank, ops, task, c, state, ids, versions, snapshots, ws);
  const gathered = await gatherSamples(rank, b.rewards, b.expected, ids, ws);
  const generation = generationOf(rank, c, state, b.rollout, gathered, rank.rank * ids.length, ws, report);
  // The oldest version among this rank's rows: below the state's step, the loss takes every row under the current parameters.
  generation.version = Math.min(...versions);
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
