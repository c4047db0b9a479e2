// Dynamic sampling on real ranks (seed-002, seed-004), in two rank steps so the log survives
// a failing training step: `collect` runs the synchronized protocol (src/core/dynamic) with
// allGatherObject and keeps this rank's slice in the worker; `consume` then does what the
// trainer does next: stack the slice's reward tensors (torch.stack, seed-004's device error
// unless each is moved with .to(device)) and gather them across ranks (seed-002's shape
// mismatch when slices differ in size).
import {
  dynamicStep,
  type DynamicConfig,
  generateSamples,
  type RewardModel,
  type Sample,
  type StepPlan,
} from '../../core/dynamic/index.ts';
import type { Rank } from '../rank.ts';
import { stack, type Tensor } from '../tensor.ts';

/** A completion as a rank holds it: its reward also as a [1] tensor on the generating rank's device. */
export interface RankSample extends Sample {
  rewardTensor: Tensor;
}

/** The plan without tensors: what travels back to the main thread (identical on every rank). */
export interface PlanSummary extends Omit<StepPlan<Sample>, 'slices'> {
  slices: { rank: number; from: number | null; to: number | null; source: string; size: number; origins: number[]; groups: number }[];
}

export interface CollectArgs {
  config: DynamicConfig;
  rewards: RewardModel;
}

// Each rank's slice between `collect` and `consume`: it stays on the rank, as in a real trainer
// (by rank: a worker thread may host several ranks).
const held = new WeakMap<Rank, StepPlan<RankSample>>();

export async function collect(rank: Rank, args: CollectArgs): Promise<PlanSummary> {
  const plan = await dynamicStep<RankSample>(
    {
      rank: rank.rank,
      size: rank.size,
      generate: (draw, prompts) =>
        generateSamples(args.rewards, draw, rank.rank, prompts, args.config.k).map((s) => ({
          ...s,
          rewardTensor: rank.tensor(new Float32Array([s.reward])),
        })),
      gather: (value) => rank.allGatherObject(value),
    },
    args.config,
  );
  held.set(rank, plan);
  return summarize(plan);
}

export function summarize(plan: StepPlan<Sample>): PlanSummary {
  return {
    ...plan,
    slices: plan.slices.map((s) => ({
      rank: s.rank,
      from: s.from,
      to: s.to,
      source: s.source,
      size: s.samples.length,
      origins: s.samples.map((x) => x.origin),
      groups: new Set(s.samples.map((x) => x.group)).size,
    })),
  };
}

export interface ConsumeResult {
  rows: number;
  shape: number[];
  device: string;
  /** Devices the slice's tensors lived on before stacking. */
  origins: string[];
  gatheredRows: number;
}

/** The trainer's next lines on this rank: stack the slice's rewards, then gather them for the loss. */
export async function consume(rank: Rank, args: { deviceFix: boolean }): Promise<ConsumeResult> {
  const plan = held.get(rank) ?? null;
  held.delete(rank);
  if (!plan) throw new Error('consume ran before collect on this rank');
  if (plan.error) {
    // The framework raises in its generation loop; every rank reaches the same decision.
    const err = new Error(plan.error.message);
    err.name = plan.error.name;
    throw err;
  }
  const mine = plan.slices[rank.rank]!.samples;
  const tensors = mine.map((s) => (args.deviceFix ? s.rewardTensor.to(rank.device) : s.rewardTensor));
  const rewards = tensors.length ? stack(tensors) : rank.tensor(new Float32Array(0), [0, 1]);
  // rebalance knows its sizes may differ by one and gathers with lengths; every other policy
  // expects equal batches and uses the plain allGather, which checks every rank's shape.
  const gatheredRows =
    plan.policy === 'rebalance'
      ? (await rank.allGatherVariable(rewards.data as Float32Array)).data.length
      : (await rank.allGather(rewards)).shape[0]!;
  return {
    rows: rewards.shape[0]!,
    shape: [...rewards.shape],
    device: rewards.device,
    origins: [...new Set(mine.map((s) => s.rewardTensor.device))],
    gatheredRows,
  };
}
