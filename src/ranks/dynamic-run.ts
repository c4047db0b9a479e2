// One step of dynamic sampling on a fresh world of real ranks (Node worker_threads, Deno or
// browser Web Workers): `collect` runs the synchronized protocol on every rank, then `consume`
// stacks each rank's slice and gathers it, as the trainer does next. Shared by `grpo-sandbox
// dynamic` and the browser's <grpo-dynamic>, so both print the same failures.
import { type DynamicConfig, type RewardModel, streamScriptedAdvice, streamStalled } from '../core/dynamic/index.ts';
import type { ConsumeResult, PlanSummary } from './programs/dynamic.ts';
import type { BackendBehaviour } from './backend.ts';
import { World, WorldFailure } from './world.ts';

export interface RunRecord {
  deviceFix: boolean;
  /** null when the protocol itself failed (a rank threw or hung while collecting). */
  plan: PlanSummary | null;
  /** Every rank reached the same plan (the protocol's point). */
  identical: boolean;
  ok: boolean;
  ranks?: ConsumeResult[];
  /** Where the run failed: in the generation loop (the framework raised; no train step ran) or in the train step. */
  failedIn?: 'generation loop' | 'train step';
  failure?: string;
  /** The train step's failure is a collective's mismatch or watchdog, worded as the backend behaviour shows it. */
  backendWorded?: boolean;
}

/** `ranks 0–3` (or `rank 0`): every rank, as the rank world names them in a diagnosis. */
export const allRanks = (n: number) => (n === 1 ? 'rank 0' : `ranks 0–${n - 1}`);

/**
 * The plan's error in the words that fit its reward draws: a stalled stream on scripted draws
 * (a preset) cannot be helped by an easier task, only by a capped policy or random rewards.
 */
export function fitError(plan: PlanSummary, rewards: RewardModel, k: number): PlanSummary {
  if (plan.error?.name !== 'StreamStalled' || rewards.kind !== 'script') return plan;
  const message = streamStalled(plan.generated, plan.shortage / k, streamScriptedAdvice(rewards.valid.length));
  return { ...plan, error: { ...plan.error, message } };
}

/** How the world shows a collective whose ranks disagree (src/ranks/backend.ts), and NCCL's simulated watchdog. */
export interface BackendChoice {
  backend: BackendBehaviour;
  watchdogMs?: number;
}

/** One step on a fresh world: collect (the protocol), then consume (stack + gather). */
export async function runDynamicOnce(
  config: DynamicConfig,
  rewards: RewardModel,
  deviceFix: boolean,
  timeoutMs: number,
  { backend, watchdogMs }: BackendChoice,
): Promise<RunRecord> {
  const world = await World.start({ size: config.ranks, timeoutMs, backend, ...(watchdogMs !== undefined && { watchdogMs }) });
  try {
    let plans: PlanSummary[];
    try {
      plans = await world.run<PlanSummary>({ module: 'builtin:dynamic', name: 'collect' }, { config, rewards });
    } catch (err) {
      // A rank failed or hung during the protocol itself: no plan to print, only the diagnosis.
      if (!(err instanceof WorldFailure)) throw err;
      return { deviceFix, plan: null, identical: true, ok: false, failedIn: 'generation loop', failure: err.message };
    }
    const identical = plans.every((p) => JSON.stringify(p) === JSON.stringify(plans[0]));
    const plan = fitError(plans[0]!, rewards, config.k);
    if (plan.error) {
      // The framework raises inside its generation loop, right after filtering the batch that
      // used up its allowance (verl: RayDAPOTrainer.fit, before `batch[:traj_bsz]` and the actor
      // update); no slice is taken and the train step never runs, so `consume` is not called.
      const failure = `${allRanks(config.ranks)}: ${plan.error.name}: ${plan.error.message}`;
      return { deviceFix, plan, identical, ok: false, failedIn: 'generation loop', failure };
    }
    try {
      const ranks = await world.run<ConsumeResult>({ module: 'builtin:dynamic', name: 'consume' }, { deviceFix });
      return { deviceFix, plan, identical, ok: true, ranks };
    } catch (err) {
      if (!(err instanceof WorldFailure)) throw err;
      return { deviceFix, plan, identical, ok: false, failedIn: 'train step', failure: err.message, backendWorded: err.backendWorded };
    }
  } finally {
    await world.stop();
  }
}
