// verl/utils/seqlen_balancing.py rearrange_micro_batches (VERL_VERSION), as dp_actor.update_policy calls it with
// actor.use_dynamic_bsz: one rank's mini-batch cut into min(samples, ceil(tokens / max_token_len)) micro-batches,
// that count raised to the maximum over the data-parallel ranks (dist.all_reduce MAX, same_micro_num_in_dp),
// the samples split by Karmarkar–Karp (equal_size=False) on calculate_workload, the micro-batches sorted by
// (Σ workload, first index) descending and then interleaved (use_dynamic_bsz_balance: smaller ones at both ends).
// EasyR1 (a verl fork) runs the older form of the same function: its home shares the sort from here.
import type { LayoutConfig } from '../../layout/types.ts';
import { karmarkarKarp, verlWorkload } from './balance.ts';

/** actor.ppo_max_token_len_per_gpu as verl's trainer/config/actor/actor.yaml ships it (b178a3c). */
export const VERL_PPO_MAX_TOKEN_LEN_PER_GPU = 16384;

/** The max_token_len update_policy hands rearrange_micro_batches, with the two settings it is the product of. */
export interface VerlMaxTokenLen {
  /** actor.ppo_max_token_len_per_gpu. */
  perGpu: number;
  /** actor.ulysses_sequence_parallel_size (1: no sequence parallelism). */
  sp: number;
  /** perGpu × sp: what one micro-batch of a data-parallel rank may hold. */
  tokens: number;
}

/**
 * dp_actor.update_policy (dp_actor.py:552): max_token_len = ppo_max_token_len_per_gpu × ulysses_sequence_parallel_size.
 * A data-parallel rank is a group of sp GPUs that share each sequence, so its micro-batch holds sp GPUs' budget.
 */
export function verlMaxTokenLen(c: Pick<LayoutConfig, 'ppoMaxTokenLenPerGpu' | 'ulyssesSequenceParallelSize'>): VerlMaxTokenLen {
  const perGpu = c.ppoMaxTokenLenPerGpu ?? VERL_PPO_MAX_TOKEN_LEN_PER_GPU;
  const sp = c.ulyssesSequenceParallelSize ?? 1;
  return { perGpu, sp, tokens: perGpu * sp };
}

/** The budget as verl's keys give it: "ppo_max_token_len_per_gpu 2048", or "… 2048 × ulysses_sequence_parallel_size 2 = 4096". */
export function verlMaxTokenLenText(m: VerlMaxTokenLen): string {
  return m.sp === 1
    ? `ppo_max_token_len_per_gpu ${m.perGpu}`
    : `ppo_max_token_len_per_gpu ${m.perGpu} × ulysses_sequence_parallel_size ${m.sp} = ${m.tokens}`;
}

/**
 * `parts` sorted as rearrange_micro_batches sorts its partitions: by (Σ workload, first index), reverse=True.
 * The partitions are disjoint, so the first index makes every key distinct.
 */
export function byWorkloadDescending(parts: readonly number[][], workload: (index: number) => number): number[][] {
  return parts
    .map((p) => ({ p, w: p.reduce((s, i) => s + workload(i), 0), first: Math.min(...p) }))
    .sort((a, b) => b.w - a.w || b.first - a.first)
    .map((x) => x.p);
}

/** One rank's own micro-batch count: min(len(seq_len_effective), ceildiv(total_seqlen, max_token_len)). */
export function ownMicroBatchCount(seqlens: readonly number[], maxTokenLen: number): number {
  const total = seqlens.reduce((s, x) => s + x, 0);
  return Math.min(seqlens.length, Math.ceil(total / maxTokenLen));
}

/**
 * rearrange_micro_batches' index lists for one rank's mini-batch split into `count` micro-batches (the count
 * already synchronised over the ranks), in the order the micro-steps run; each list ascending.
 */
export function rearrangeMicroBatches(seqlens: readonly number[], count: number): number[][] {
  if (count > seqlens.length) throw new RangeError(`rearrangeMicroBatches: ${count} micro-batches of ${seqlens.length} samples`);
  const workloads = seqlens.map(verlWorkload);
  const parts = karmarkarKarp(workloads, count, false);
  if (parts.some((p) => p.length === 0)) throw new RangeError('rearrangeMicroBatches: an empty partition');
  const sorted = byWorkloadDescending(parts, (i) => workloads[i]!);
  // micro_bsz_idx[::2][::-1] + micro_bsz_idx[1::2]
  const even = sorted.filter((_, i) => i % 2 === 0).reverse();
  const odd = sorted.filter((_, i) => i % 2 === 1);
  return [...even, ...odd];
}

/**
 * Every rank's micro-batches of one mini-batch index (ranks[r]: that rank's seqlens, in its mini-batch's order):
 * the count synchronised to the ranks' maximum, as dist.all_reduce(MAX) over the data-parallel group does.
 */
export function dynamicMicroBatches(ranks: readonly (readonly number[])[], maxTokenLen: number): number[][][] {
  const count = Math.max(...ranks.map((s) => ownMicroBatchCount(s, maxTokenLen)));
  return ranks.map((s) => rearrangeMicroBatches(s, count));
}
