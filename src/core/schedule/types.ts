// The vocabulary of the schedule simulator (seed-001: how the expanded batch of batch × k
// configurations is executed on the ranks). Times are in the latency model's unit: `T` for the
// constant model, milliseconds for the controller task's prefill latency.
import type { ConfigActions } from '../env/controller.ts';
import type { ControllerPolicy } from './policy.ts';

/** The five execution schemes, in the order of docs/scenarios.md's seed-001 list (today's code first). */
export const SCHEMES = ['serial-dp', 'per-rank-serial', 'per-rank-batched', 'by-structure', 'spread'] as const;
export type SchemeName = (typeof SCHEMES)[number];

/** How long one configuration takes alone (batch 1). */
export type LatencyModel =
  /** Every configuration takes `t`, in `unit` ('T' when t is the unit itself). */
  | { kind: 'constant'; t: number; unit: string }
  /** The controller task's prefill latency of configurations sampled from `policy`. */
  | { kind: 'controller'; policy: ControllerPolicy };

export interface ScheduleConfig {
  ranks: number;
  /** Samples (inputs) in the step; each is expanded into k configurations. */
  batch: number;
  /** Group size: configurations per sample (num_generations). */
  k: number;
  latency: LatencyModel;
  /** Batching model: b same-structure configurations take T·(α + (1−α)·b). 0: no saving, 1: a batch costs one. */
  alpha: number;
  /** Memory cap on b (configurations in one launch); null: no cap. */
  maxBatch: number | null;
  /** Cost of spread's cross-rank gather of a group's results; null: 10% of the mean configuration latency. */
  gatherCost: number | null;
  /** Seed of the draws of configurations from the policy (controller model). */
  seed: number;
}

/** One configuration of the expanded batch: sample s's copy j (the seed's Config{s+1}-{j+1}). */
export interface Configuration {
  /** Position in the expanded batch: sample · k + copy (repeat_interleave order). */
  index: number;
  /** The seed's name, 1-based: `1-1` … `4-5`. */
  id: string;
  sample: number;
  copy: number;
  /** Latency alone (batch 1). */
  latency: number;
  /** Configurations with equal keys have the same shapes and can share a launch without padding. */
  structure: string;
  /** The sampled knobs (controller model only). */
  actions?: ConfigActions;
}

/** Something a rank does from `start` to `end`: run a launch of configurations, or take part in a gather. */
export interface Interval {
  kind: 'run' | 'gather';
  start: number;
  end: number;
  /** Indices of the configurations in this launch (empty for a gather). */
  configs: number[];
}

export interface SchemeResult {
  scheme: SchemeName;
  /** Per rank, its intervals in time order; the gaps between them are idle time. */
  timeline: Interval[][];
  /** When the last rank finishes. */
  makespan: number;
  /** serial-dp's makespan / this makespan. */
  speedup: number;
  /** Per rank: the share of the makespan spent neither running nor gathering. */
  idleFraction: number[];
  /** Launches (forward passes) over all ranks. */
  launches: number;
  /** Largest launch, in configurations. */
  peakBatch: number;
  /** Sum of every rank's running time (gathers excluded). */
  runTime: number;
}

export interface ScheduleResult {
  config: ScheduleConfig;
  /** The latency unit: 'T' or 'ms'. */
  unit: string;
  configurations: Configuration[];
  /** Sum of every configuration's latency alone: what one rank with batch 1 would take. */
  work: number;
  /** The gather cost spread pays (resolved from config.gatherCost). */
  gatherCost: number;
  schemes: SchemeResult[];
}
