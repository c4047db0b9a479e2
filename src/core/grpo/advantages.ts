// Group-relative advantages exactly as each framework computes them from gathered rewards
// (docs/frameworks.md). Pure: rewards in, advantages out, same length and order.
// Statistics are accumulated in float64; the frameworks use float32 tensors or numpy float64,
// so results agree to float32 precision at worst.
import type { Gather, RegroupMethod } from '../layout/types.ts';
import { fact, factError } from '../messages/index.ts';
import type { RowsMaker } from '../messages/errors.ts';

/** TRL's `scale_rewards`: std per group (default), over the whole batch, or no division (Dr. GRPO). */
export type ScaleRewards = 'group' | 'batch' | 'none';

/**
 * Mean of values[members], shifted by the first member so a group of equal rewards has exactly
 * that reward as its mean: a naive running sum rounds 3x, 5x, 7x, and DanceGRPO's eps of 1e-8
 * would turn that 1e-16 into advantages of 1e-8 instead of 0. torch's float32 mean is not always
 * exact there: for 7, 8 or 16 copies of 0.1, 0.7 or −0.3 it is one ulp off, and a framework's tiny
 * std then gives advantages of 0.007–0.056 (measured with real torch: golden-skyrl-advantages.json).
 */
function mean(values: ArrayLike<number>, members: readonly number[]): number {
  if (members.length === 0) return Number.NaN;
  const first = values[members[0]!]!;
  let s = 0;
  for (const i of members) s += values[i]! - first;
  return first + s / members.length;
}

/** Standard deviation of values[members]: ddof 0 (numpy's default) or 1 (torch's unbiased default; NaN for one member, as torch gives). */
function std(values: ArrayLike<number>, members: readonly number[], ddof: 0 | 1): number {
  const m = mean(values, members);
  let s = 0;
  for (const i of members) s += (values[i]! - m) ** 2;
  return Math.sqrt(s / (members.length - ddof));
}

/** Indices 0..n-1 bucketed by key, buckets in order of first appearance. */
function groupBy<K>(keys: ArrayLike<K>): number[][] {
  const buckets = new Map<K, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = []));
    b.push(i);
  }
  return [...buckets.values()];
}

/** Consecutive rows of `size` indices over 0..n-1 (`view(-1, size)`); n must be a multiple of size. */
function rowsOf(n: number, size: number, what: RowsMaker): number[][] {
  if (!Number.isInteger(size) || size < 1 || n % size !== 0) {
    throw factError((m) => new RangeError(m), fact('advantages.rows', { rows: what, count: n, size }));
  }
  const rows: number[][] = [];
  for (let start = 0; start < n; start += size) rows.push(Array.from({ length: size }, (_, j) => start + j));
  return rows;
}

/** (r − mean) / (std + eps) per group, written into a new array of rewards.length. */
function normalise(
  rewards: ArrayLike<number>,
  groups: readonly number[][],
  stats: (g: number[]) => { mean: number; std: number },
  eps: number,
  divide = true,
): number[] {
  const out = new Array<number>(rewards.length).fill(Number.NaN);
  for (const g of groups) {
    const { mean: m, std: s } = stats(g);
    for (const i of g) out[i] = divide ? (rewards[i]! - m) / (s + eps) : rewards[i]! - m;
  }
  return out;
}

/**
 * TRL's async GRPO trainer (trl.experimental.async_grpo, 1.13.0): AsyncRolloutWorker._score_group
 * normalises each RolloutGroup (one prompt's completions) on its own, (r − mean) / (numpy std (ddof 0)
 * + 1e-8). Its rule for a completion whose every reward function returned None (advantage 0, left out
 * of the statistics) cannot arise here: the sandbox's rewards are finite numbers.
 */
export function trlAsyncAdvantages(rewards: ArrayLike<number>, promptIds: ArrayLike<number | string>): number[] {
  if (promptIds.length !== rewards.length) throw new RangeError(`TRL async: ${rewards.length} rewards but ${promptIds.length} prompt ids`);
  return normalise(rewards, groupBy(promptIds), (g) => ({ mean: mean(rewards, g), std: std(rewards, g, 0) }), 1e-8);
}

/**
 * flow_grpo's PerPromptStatTracker: groups by prompt (a prompt drawn twice forms one group of
 * 2k), mean per prompt; std (numpy, ddof 0) over ALL gathered rewards when globalStd (the
 * shipped configs), else over the prompt's rewards; advantage (r − mean) / (std + 1e-4).
 * rewards and promptIds: one entry per gathered sample, in gathered order.
 */
export function flowGrpoAdvantages(rewards: ArrayLike<number>, promptIds: ArrayLike<number | string>, globalStd = true): number[] {
  if (promptIds.length !== rewards.length) throw new RangeError(`flow_grpo: ${rewards.length} rewards but ${promptIds.length} prompt ids`);
  const all = Array.from({ length: rewards.length }, (_, i) => i);
  const globalS = std(rewards, all, 0);
  return normalise(rewards, groupBy(promptIds), (g) => ({ mean: mean(rewards, g), std: globalStd ? globalS : std(rewards, g, 0) }), 1e-4);
}

/**
 * TRL GRPOTrainer: `rewards.view(-1, G)` rows are the groups (whatever prompts they hold);
 * mean per row; scale 'group' divides by the row's unbiased std + 1e-4, 'batch' by the
 * unbiased std of all rewards + 1e-4, 'none' does not divide (Dr. GRPO).
 */
export function trlAdvantages(rewards: ArrayLike<number>, k: number, scale: ScaleRewards = 'group'): number[] {
  const rows = rowsOf(rewards.length, k, 'trl-view');
  const all = Array.from({ length: rewards.length }, (_, i) => i);
  const batchS = scale === 'batch' ? std(rewards, all, 1) : 0;
  return normalise(
    rewards,
    rows,
    (g) => ({ mean: mean(rewards, g), std: scale === 'batch' ? batchS : std(rewards, g, 1) }),
    1e-4,
    scale !== 'none',
  );
}

/** verl's lone-sample divisor: `torch.tensor(1.0)` is float32, so `std + epsilon` is float32(1 + 1e-6), whatever the scores' dtype. */
const VERL_LONE_DIVISOR = Math.fround(1 + 1e-6);

/**
 * verl's GRPO outcome advantage (compute_grpo_outcome_advantage): groups by uid (one uid per draw
 * of a prompt), unbiased std, (r − mean) / (std + 1e-6); a single-member group gets mean 0 and
 * std 1 (so its advantage is r / float32(1 + 1e-6)). normByStd false (`norm_adv_by_std_in_grpo=False`,
 * Dr. GRPO): r − mean, no division (a lone sample keeps r).
 */
export function verlAdvantages(rewards: ArrayLike<number>, uids: ArrayLike<string | number>, normByStd = true): number[] {
  if (uids.length !== rewards.length) throw new RangeError(`verl: ${rewards.length} rewards but ${uids.length} uids`);
  const groups = groupBy(uids);
  const out = normalise(rewards, groups, (g) => ({ mean: mean(rewards, g), std: std(rewards, g, 1) }), 1e-6, normByStd);
  for (const g of groups) if (g.length === 1) out[g[0]!] = normByStd ? rewards[g[0]!]! / VERL_LONE_DIVISOR : rewards[g[0]!]!;
  return out;
}

/**
 * DanceGRPO: each rank normalises its own consecutive groups of G copies (repeat_interleave
 * keeps them together), unbiased std + 1e-8, no gather. localRewards: one rank's rewards.
 */
export function danceGrpoAdvantages(localRewards: ArrayLike<number>, k: number): number[] {
  const rows = rowsOf(localRewards.length, k, 'dance-local');
  return normalise(localRewards, rows, (g) => ({ mean: mean(localRewards, g), std: std(localRewards, g, 1) }), 1e-8);
}

/**
 * DanceGRPO without `--use_group` (train_one_step's else branch): prompts are not repeated, and
 * each rank's rewards are normalised by the mean and unbiased std of ALL gathered rewards + 1e-8,
 * so every sample's advantage depends on the whole batch, not on its prompt.
 */
export function danceGrpoBatchAdvantages(gathered: ArrayLike<number>): number[] {
  const all = Array.from({ length: gathered.length }, (_, i) => i);
  return normalise(gathered, [all], (g) => ({ mean: mean(gathered, g), std: std(gathered, g, 1) }), 1e-8);
}

/**
 * The slice each rank takes back from the gathered advantages: `reshape(W, -1)[rank]`
 * (flow_grpo) = `[rank·n, (rank+1)·n)` with n = length / W (TRL). Returns W arrays.
 */
export function sliceToRanks<T>(gathered: readonly T[], ranks: number): T[][] {
  if (!Number.isInteger(ranks) || ranks < 1 || gathered.length % ranks !== 0) {
    throw factError((m) => new RangeError(m), fact('advantages.slice-back', { count: gathered.length, ranks }));
  }
  const n = gathered.length / ranks;
  return Array.from({ length: ranks }, (_, r) => gathered.slice(r * n, (r + 1) * n));
}

/** The framework whose advantage goes with each regrouping of src/core/layout/regroup.ts. */
export const ADVANTAGE_OF_REGROUP: Readonly<Record<RegroupMethod, 'flow_grpo' | 'trl' | 'verl' | 'dance_grpo'>> = {
  'prompt-id': 'flow_grpo',
  view: 'trl',
  uid: 'verl',
  local: 'dance_grpo',
};

/**
 * The advantages of one gather's rewards under a regrouping, as the framework that regroups so
 * computes them: prompt-id → flow_grpo (groups by prompt, global std), view → TRL (`view(-1, k)`,
 * `scale` applies), uid → verl (groups by uid), local → DanceGRPO (each rank's consecutive k). Throws a RangeError when the regrouping cannot
 * apply (e.g. view(-1, k) of a count that is not a multiple of k).
 */
export function advantagesOfRegroup(
  method: RegroupMethod,
  gather: Gather,
  rewards: ArrayLike<number>,
  k: number,
  scale: ScaleRewards = 'group',
): number[] {
  switch (ADVANTAGE_OF_REGROUP[method]) {
    case 'flow_grpo':
      return flowGrpoAdvantages(
        rewards,
        gather.samples.map((s) => s.promptId),
      );
    case 'trl':
      return trlAdvantages(rewards, k, scale);
    case 'verl':
      return verlAdvantages(
        rewards,
        gather.samples.map((s) => s.uid),
      );
    case 'dance_grpo': {
      // Each rank normalises its own samples (its slice of the rank-major gathered order).
      const ranks = new Set(gather.samples.map((s) => s.rank)).size;
      const perRank = sliceToRanks(Array.from(rewards), ranks);
      return perRank.flatMap((local) => danceGrpoAdvantages(local, k));
    }
  }
}
