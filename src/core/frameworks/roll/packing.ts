// ROLL's dynamic batching (roll/utils/dynamic_batching.py dynamic_batching_shard @ 8eb27cc), used when
// actor_train.use_dynamic_batching_in_train is on: the step's batch (already in batch_balance order) is
// sorted by token count (a stable sort), dealt to the ranks by stride (rank r gets sorted[r::W]), and
// the positions of the shards are cut into micro-batches that every rank shares: position s joins the
// current micro-batch while (its size + 1) × (the largest padded length so far) stays within
// max_tokens_per_microbatch_in_train, where a position's padded length is the largest token count at
// that position over all ranks, rounded up to sequence_length_round_in_train.
// (The virtual-pipeline padding branch, PP > 1 with virtual_pipeline_model_parallel_size set, is not modelled.)
import { ConfigError } from '../../errors.ts';
import { ROLL_VERSION } from './version.ts';

export interface DynamicShards {
  /** shards[r] = the samples (indices into the step's generation order) of rank r, in training order. */
  shards: number[][];
  /** [start, end) positions of each micro-batch within every rank's shard. */
  microBatchIndices: [number, number][];
  /** The padded token length of each micro-batch. */
  microBatchLengths: number[];
}

/**
 * dynamic_batching_shard over `order` (the batch's samples as indices into generation order) with token
 * counts `seqlens` (by generation index). `order.length` must be a multiple of `ranks` (batch_balance asserts it first).
 */
export function dynamicBatchingShard(
  order: readonly number[],
  seqlens: readonly number[],
  ranks: number,
  maxTokens: number,
  round: number,
): DynamicShards {
  if (round < 1) throw new ConfigError(`sequence_length_round_in_train must be at least 1, got ${round}`);
  const sorted = order.map((sample, pos) => ({ sample, pos, len: seqlens[sample]! })).sort((a, b) => a.len - b.len);
  const shards = Array.from({ length: ranks }, (_, r) => sorted.filter((_, i) => i % ranks === r));
  const shardSize = shards[0]!.length;
  const indices: [number, number][] = [[0, 0]];
  const lengths = [0];
  let mbMax = round;
  for (let s = 0; s < shardSize; s++) {
    let padded = 0;
    for (const shard of shards) padded = Math.max(padded, shard[s]!.len);
    padded = Math.ceil(padded / round) * round;
    if (padded > maxTokens) {
      throw new ConfigError(
        `got an input of padded (${round}) sequence length of ${padded}, however max microbatch size is ${maxTokens} tokens ` +
          `(ROLL ${ROLL_VERSION}, dynamic_batching_shard); raise actor_train.max_tokens_per_microbatch_in_train`,
      );
    }
    const last = indices[indices.length - 1]!;
    const size = last[1] - last[0] + 1;
    mbMax = Math.max(mbMax, padded);
    if (size * mbMax <= maxTokens) {
      last[1] += 1;
      lengths[lengths.length - 1] = mbMax;
    } else {
      indices.push([s, s + 1]);
      mbMax = padded;
      lengths.push(mbMax);
    }
  }
  return { shards: shards.map((sh) => sh.map((x) => x.sample)), microBatchIndices: indices, microBatchLengths: lengths };
}
