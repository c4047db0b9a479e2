// How one training step's samples reach OpenRLHF's data-parallel ranks (@ 3c3be62):
// RemoteExperienceMaker.split_rollout_samples (experience_maker.py) cuts the samples into rollout
// micro-batches; under --train.dynamic_batch_enable, balance_experiences (experience.py) re-deals them
// long/short over the effective actors; RayActorGroup.async_run_method_batch (trainer/ray/launcher.py)
// gives actor i the contiguous chunk [i·ceil(L/E), (i+1)·ceil(L/E)) of that list, and each actor's
// NaiveReplayBuffer.append splits its micro-batches back into samples, in order.
import { karmarkarKarp } from '../verl/balance.ts';
import { FirstFitBins } from '../first-fit.ts';
import { openrlhfError } from './version.ts';

export interface Parallel {
  /** Actor processes: actor.num_nodes × actor.num_gpus_per_node. */
  actors: number;
  /** Actors that share one chunk: ds.ring_attn_size × ds.tensor_parallel_size. */
  duplicate: number;
  /** Effective actors (data-parallel ranks): actors // ring_attn_size // tensor_parallel_size. */
  effective: number;
}

/** get_minimum_num_micro_batch_size: first-fit bins of `budget` tokens (× ring × TP), counted. */
export function minimumMicroBatches(lengths: readonly number[], budget: number, p: Parallel): number {
  const bins = new FirstFitBins(budget * p.duplicate);
  for (const l of lengths) bins.place(l);
  return bins.length;
}

/** get_seqlen_balanced_partitions(lengths, k, equal_size=False), with its first assertion in OpenRLHF's words. */
export function balancedPartitions(lengths: readonly number[], k: number): number[][] {
  if (lengths.length < k) {
    throw openrlhfError(
      'AssertionError',
      `number of items:[${lengths.length}] < k_partitions:[${k}]`,
      'seqlen_balancing.get_seqlen_balanced_partitions',
    );
  }
  return karmarkarKarp(lengths, k, false).map((p, i) => {
    if (p.length === 0)
      throw openrlhfError('AssertionError', `the ${i}-th partition is empty`, 'seqlen_balancing.get_seqlen_balanced_partitions');
    return p;
  });
}

/**
 * split_rollout_samples: contiguous micro-batches of rollout.micro_batch_size, or under dynamic batching
 * max(minimum // E × E, E) balanced partitions (each ascending) of the total lengths. Positions in generation order.
 */
export function rolloutMicroBatches(
  lengths: readonly number[],
  p: Parallel,
  o: { dynamic: boolean; microBatchSize: number; rolloutMaxTokens: number },
): number[][] {
  if (o.dynamic) {
    const minimum = minimumMicroBatches(lengths, o.rolloutMaxTokens, p);
    const count = Math.max(Math.floor(minimum / p.effective) * p.effective, p.effective);
    return balancedPartitions(lengths, count);
  }
  const out: number[][] = [];
  for (let i = 0; i < lengths.length; i += o.microBatchSize) {
    out.push(Array.from({ length: Math.min(o.microBatchSize, lengths.length - i) }, (_, j) => i + j));
  }
  return out;
}

/**
 * balance_experiences: all samples sorted by total length, longest first (stable), cut into chunks of E;
 * the first half of the chunks alternates with the reversed second half taken from its end; column j
 * of that arrangement becomes the j-th experience (so one per effective actor).
 */
export function balanceExperiences(micro: readonly number[][], lengths: readonly number[], effective: number): number[][] {
  const items = micro.flat().sort((a, b) => lengths[b]! - lengths[a]!);
  const chunks: number[][] = [];
  for (let i = 0; i < items.length; i += effective) chunks.push(items.slice(i, i + effective));
  const half = Math.floor(chunks.length / 2);
  const first = chunks.slice(0, half);
  const last = chunks.slice(half).map((c) => [...c].reverse());
  const arranged: number[][] = [];
  for (let i = 0; i < half; i++) arranged.push(first[i]!, last[last.length - 1 - i]!);
  if (last.length > first.length) arranged.push(last[0]!);
  const width = Math.max(0, ...arranged.map((c) => c.length));
  return Array.from({ length: width }, (_, j) => arranged.filter((c) => j < c.length).map((c) => c[j]!));
}

/** async_run_method_batch's chunks: effective actor i gets list items [i·ceil(L/E), min((i+1)·ceil(L/E), L)). */
export function actorChunks(length: number, effective: number): [start: number, end: number][] {
  if (length === 0 || length < effective) {
    throw openrlhfError(
      'ValueError',
      `Insufficient batch size for async_run_method_batch: total_length=${length}, effective_actors=${effective}`,
      'RayActorGroup.async_run_method_batch',
    );
  }
  const size = Math.ceil(length / effective);
  return Array.from({ length: effective }, (_, i) => [Math.min(i * size, length), Math.min((i + 1) * size, length)]);
}

export interface Dispatched {
  /** split_rollout_samples' micro-batches (positions in generation order). */
  rolloutMicroBatches: number[][];
  /** ranks[r] = the positions (generation order) in rank r's replay buffer, in order. */
  ranks: number[][];
}

/** One step's samples (their total lengths, generation order) to the ranks' replay buffers. */
export function dispatchStep(
  lengths: readonly number[],
  p: Parallel,
  o: { dynamic: boolean; microBatchSize: number; rolloutMaxTokens: number },
): Dispatched {
  const micro = rolloutMicroBatches(lengths, p, o);
  const list = o.dynamic ? balanceExperiences(micro, lengths, p.effective) : micro;
  const ranks = actorChunks(list.length, p.effective).map(([s, e]) => list.slice(s, e).flat());
  return { rolloutMicroBatches: micro, ranks };
}
