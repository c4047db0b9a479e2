// How NeMo RL hands one training step's samples to its data-parallel ranks and how each rank cuts them
// into micro-batches, restated from nemo_rl/distributed/batched_data_dict.py @ 7ea279a
// (BatchedDataDict.shard_by_batch_size, get_batch, make_microbatch_iterator*) as Policy._shard_for_train
// (models/policy/lm_policy.py) calls it and the DTensor worker's train() iterates it.
// Samples are named by their index in generation order (prompt i's copy c is i·k + c).
import { nemoError } from './version.ts';
import { packBins } from './packers.ts';

export type BatchingMode =
  | { kind: 'plain'; microBatchSize: number }
  | { kind: 'dynamic'; tokens: number; round: number; padMultiple: number }
  | { kind: 'packing'; tokens: number; algorithm: string; order: string; padMultiple: number };

export interface Dispatch {
  /** sources[r] = rank r's samples in its order (before micro-batching). */
  sources: number[][];
  /** micro[r][m] = rank r's m-th micro-batch, over all global batches of the step. */
  micro: number[][][];
}

const roundUp = (x: number, m: number) => Math.ceil(x / m) * m;
const range = (start: number, end: number) => Array.from({ length: end - start }, (_, i) => start + i);

/**
 * shard_by_batch_size(ranks, batch_size=gbs, …) then the worker's loop: for each of the step's
 * samples / gbs global batches, get_batch(gb, gbs // ranks) and its micro-batch iterator.
 */
export function dispatchStep(seqlens: readonly number[], ranks: number, gbs: number, mode: BatchingMode): Dispatch {
  const n = seqlens.length;
  if (n % gbs !== 0) throw nemoError('AssertionError', `Total batch size (${n}) is not a multiple of batch_size (${gbs})`);
  if (gbs % ranks !== 0) throw nemoError('AssertionError', `Batch size (${gbs}) is not a multiple of shards (${ranks})`);
  const chunks = n / gbs;
  const shard = gbs / ranks;
  if (mode.kind === 'packing') return packed(seqlens, ranks, gbs, chunks, mode);
  // plain: each chunk cut into `ranks` contiguous shards; dynamic: each chunk sorted by length (stable), dealt sorted[r::ranks].
  const chunkOrder = (c: number): number[] => {
    const ids = range(c * gbs, (c + 1) * gbs);
    if (mode.kind === 'plain') return ids;
    const sorted = [...ids].sort((a, b) => seqlens[a]! - seqlens[b]!);
    return range(0, ranks).flatMap((r) => sorted.filter((_, i) => i % ranks === r));
  };
  const orders = range(0, chunks).map(chunkOrder);
  const sources = range(0, ranks).map((r) => orders.flatMap((o) => o.slice(r * shard, (r + 1) * shard)));
  if (mode.kind === 'plain') {
    if (shard % mode.microBatchSize !== 0) {
      throw nemoError(
        'AssertionError',
        `Data dict size (${shard}) is not a multiple of the provided microbatch size (${mode.microBatchSize})`,
      );
    }
    const micro = sources.map((s) =>
      range(0, s.length / mode.microBatchSize).map((m) => s.slice(m * mode.microBatchSize, (m + 1) * mode.microBatchSize)),
    );
    return { sources, micro };
  }
  return { sources, micro: dynamicMicroBatches(seqlens, sources, chunks, shard, mode) };
}

/**
 * Dynamic batching's micro-batches: for each position of a chunk's shards, the longest sample at that
 * position over all ranks, rounded up (capped at the padded batch width), grows the current micro-batch
 * while count × longest stays within the budget. Every rank gets the same boundaries.
 */
function dynamicMicroBatches(
  seqlens: readonly number[],
  sources: number[][],
  chunks: number,
  shard: number,
  mode: Extract<BatchingMode, { kind: 'dynamic' }>,
): number[][][] {
  const width = roundUp(Math.max(...seqlens), mode.padMultiple);
  const micro: number[][][] = sources.map(() => []);
  for (let c = 0; c < chunks; c++) {
    const bounds: [number, number][] = [[0, 0]];
    let longest = 0;
    for (let i = 0; i < shard; i++) {
      const widest = Math.max(...sources.map((s) => seqlens[s[c * shard + i]!]!));
      const padded = Math.min(roundUp(widest, mode.round), width);
      if (padded > mode.tokens) {
        throw nemoError(
          'AssertionError',
          `got an input of padded (${mode.round}) sequence length of ${padded}, however max microbatch size is ${mode.tokens} tokens`,
        );
      }
      const last = bounds[bounds.length - 1]!;
      longest = Math.max(longest, padded);
      if ((last[1] - last[0] + 1) * longest <= mode.tokens) last[1] += 1;
      else {
        bounds.push([i, i + 1]);
        longest = padded;
      }
    }
    sources.forEach((s, r) => {
      for (const [a, b] of bounds) micro[r]!.push(s.slice(c * shard + a, c * shard + b));
    });
  }
  return micro;
}

/** Sequence packing: per chunk, bins of padded lengths (at least `ranks`, a multiple of it); bin j to rank j % ranks, one micro-batch each. */
function packed(
  seqlens: readonly number[],
  ranks: number,
  gbs: number,
  chunks: number,
  mode: Extract<BatchingMode, { kind: 'packing' }>,
): Dispatch {
  if (mode.order !== 'packer' && mode.order !== 'largest_first') {
    throw nemoError('ValueError', `sequence packing microbatch_order must be 'packer' or 'largest_first', got '${mode.order}'`);
  }
  const known = ['CONCATENATIVE', 'FIRST_FIT_DECREASING', 'FIRST_FIT_SHUFFLE', 'MODIFIED_FIRST_FIT_DECREASING'];
  if (!known.includes(mode.algorithm.toUpperCase())) {
    throw nemoError('ValueError', `Unknown packing algorithm: ${mode.algorithm}. Available algorithms: ${known.join(', ')}`);
  }
  const sources: number[][] = range(0, ranks).map(() => []);
  const micro: number[][][] = range(0, ranks).map(() => []);
  for (let c = 0; c < chunks; c++) {
    const padded = range(c * gbs, (c + 1) * gbs).map((i) => roundUp(seqlens[i]!, mode.padMultiple));
    const bins = packBins(mode.algorithm, padded, mode.tokens, ranks, ranks);
    for (let r = 0; r < ranks; r++) {
      let mine = bins.filter((_, j) => j % ranks === r);
      const tokens = (bin: number[]) => bin.reduce((s, i) => s + padded[i]!, 0);
      if (mode.order === 'largest_first') mine = [...mine].sort((a, b) => tokens(b) - tokens(a));
      for (const bin of mine) {
        const ids = bin.map((i) => c * gbs + i);
        sources[r]!.push(...ids);
        micro[r]!.push(ids);
      }
    }
  }
  return { sources, micro };
}
