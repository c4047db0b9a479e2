import { configError, fact } from '../messages/index.ts';

/**
 * How a step ends when the pool of valid samples is short, each as its framework does it:
 * - fallback: ms-swift; every rank uses its original batch, flat groups included.
 * - pad: duplicate random valid samples up to the target.
 * - rebalance: rank r gets floor(pool / W) (+1 for the first pool mod W ranks).
 * - raise: verl DAPO's ValueError after max_num_gen_batches; raise-nemo: NeMo RL's, one batch later.
 * - stream: OpenRLHF; every dropped prompt is replaced at once, no cap.
 * - naive: the seed-002 bug; rank r takes [L·r, min(L·(r+1), pool)).
 */
export const POLICIES = ['fallback', 'pad', 'rebalance', 'raise', 'raise-nemo', 'stream', 'naive'] as const;
export type Policy = (typeof POLICIES)[number];

export const POLICY_ABOUT: Record<Policy, string> = {
  fallback: 'ms-swift: short after the last resample → every rank trains on its original batch, flat groups included',
  pad: 'duplicate random valid samples (same seeded choice on every rank) up to the target',
  rebalance: 'rank r takes floor(pool/W), the first pool mod W ranks one more (sizes may differ by one)',
  raise: 'verl DAPO: ValueError once num_gen_batches reaches max_num_gen_batches (= 1 + max resample times)',
  'raise-nemo': 'NeMo RL: the same error one batch later (it checks num_gen_batches <= max)',
  stream: 'OpenRLHF: each dropped prompt is replaced at once; keep a group when min < mean reward < max; no cap',
  naive: 'the seed-002 bug: rank r slices [L·r, min(L·(r+1), pool)) of a short pool, so the next gather breaks',
};

/** Which value decides whether a group is flat. */
export type FilterMetric = 'reward' | 'accuracy';

/** One completion. The rank program adds a reward tensor on its device (src/ranks/programs/dynamic.ts). */
export interface Sample {
  /** `d<draw>r<rank>p<prompt>c<completion>`: unique in a step. */
  id: string;
  /** Group uid: the prompt (of one draw) this completion answers. */
  group: string;
  /** Rank that generated it (its tensors live on that rank's device until moved). */
  origin: number;
  /** 0 = the original batch, n = the n-th resample (or stream round). */
  draw: number;
  reward: number;
  accuracy: number;
}

export interface DynamicConfig {
  ranks: number;
  /** Samples each rank trains on (local target L); the global target is ranks × perRank. */
  perRank: number;
  /** Completions per prompt (group size). */
  k: number;
  policy: Policy;
  /** ms-swift's max_resample_times; verl's max_num_gen_batches is this + 1. */
  maxResampleTimes: number;
  metric: FilterMetric;
  /** stream: a group is kept when range[0] < mean < range[1] (OpenRLHF dynamic_filtering_range). */
  range: [number, number];
  /** Seeds pad's choice of duplicates (identical on every rank). */
  seed: number;
  /** stream has no cap; the simulation gives up after this many generations per target sample. */
  streamCapFactor: number;
}

export const DEFAULT_CONFIG: DynamicConfig = {
  ranks: 4,
  perRank: 16,
  k: 4,
  policy: 'fallback',
  maxResampleTimes: 3,
  metric: 'reward',
  range: [0, 1],
  seed: 42,
  streamCapFactor: 100,
};

/** Throws a ConfigError naming the first rule a configuration breaks. */
export function validateDynamicConfig(c: DynamicConfig): void {
  if (!POLICIES.includes(c.policy)) throw configError([fact('dynamic.policy', { policies: [...POLICIES], got: String(c.policy) })]);
  if (c.perRank % c.k !== 0) {
    const lo = c.perRank - (c.perRank % c.k);
    throw configError([fact('dynamic.per-rank-k', { perRank: c.perRank, k: c.k, lower: lo || c.k, higher: lo + c.k })]);
  }
  if (!(c.range[0] < c.range[1])) throw configError([fact('dynamic.range', { min: c.range[0], max: c.range[1] })]);
}
