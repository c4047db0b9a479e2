// prime-rl's trainer batch preparation (src/prime_rl/trainer/batch.py @ 559b447, prepare_batch), text
// samples only, with the token-count cost build_bin_cost(None) gives (BatchPacker falls back to it when
// the model config cannot load; with a config the cost is linear·Σn + quadratic·Σn² FLOPs):
// 1. prepare_sample truncates each sample to seq_len tokens;
// 2. packed_samples_into_micro_bs sorts them longest first (stable) and packs first-fit into bins of
//    seq_len tokens; with more than one rank, the heaviest splittable bin (ties: the later bin) is split
//    by longest-processing-time until the bin count is a multiple of the ranks (at least one per rank);
// 3. pad_micro_batch pads each bin to a multiple of pad_to_multiple_of (= trainer.model.cp), the padding
//    counting as part of its last sample;
// 4. _pad_group_for_distribution appends zero-loss copies of the first bin until the count divides by
//    the ranks; _distribute_group gives rank r the bins of balanced_partition's r-th part (KK + swaps on
//    each bin's cost), in bin order.

import { FirstFitBins } from '../first-fit.ts';
import { balancedPartition } from './partition.ts';

/** A packed micro-batch: the samples (indices into the step's samples) in packing order; a dummy holds none. */
export interface MicroBatch {
  samples: number[];
  /** Each sample's token count after truncation, padding added to the last (sequence_lengths). */
  lengths: number[];
  dummy: boolean;
}

interface Bin {
  samples: number[];
  length: number;
}

/** The bin cost with no model config: its token count. */
const cost = (lengths: readonly number[]) => lengths.reduce((s, n) => s + n, 0);

/** _MicroBatchBin.split_by_workload: longest first (stable), each to the lighter side, ties to the left. */
function splitByWorkload(bin: Bin, len: readonly number[]): [Bin, Bin] {
  const ranked = [...bin.samples].sort((a, b) => len[b]! - len[a]!);
  const left: Bin = { samples: [], length: 0 };
  const right: Bin = { samples: [], length: 0 };
  for (const i of ranked) {
    const side = left.length <= right.length ? left : right;
    side.samples.push(i);
    side.length += len[i]!;
  }
  return [left, right];
}

/** packed_samples_into_micro_bs: first-fit decreasing into seq_len bins, then splitting up to a multiple of the ranks. */
function packBins(len: readonly number[], seqLen: number, ranks: number): Bin[] {
  const order = len.map((_, i) => i).sort((a, b) => len[b]! - len[a]!);
  const bins: Bin[] = [];
  const fit = new FirstFitBins(seqLen);
  for (const i of order) {
    const b = fit.place(len[i]!);
    if (b === bins.length) bins.push({ samples: [], length: 0 });
    bins[b]!.samples.push(i);
    bins[b]!.length += len[i]!;
  }
  if (ranks > 1) {
    const target = Math.max(Math.ceil(bins.length / ranks) * ranks, ranks);
    while (bins.length < target) {
      let pick = -1;
      for (let b = 0; b < bins.length; b++) {
        if (bins[b]!.samples.length > 1 && (pick < 0 || bins[b]!.length >= bins[pick]!.length)) pick = b;
      }
      if (pick < 0) break;
      const [left, right] = splitByWorkload(bins[pick]!, len);
      bins[pick] = left;
      bins.push(right);
    }
  }
  return bins;
}

/**
 * prepare_batch for one step's samples (their token counts in the step's order): each rank's
 * micro-batches in order. Every rank gets the same number of micro-batches.
 */
export function prepareBatch(seqlens: readonly number[], seqLen: number, ranks: number, padToMultipleOf: number): MicroBatch[][] {
  const len = seqlens.map((n) => Math.min(n, seqLen));
  const group: MicroBatch[] = packBins(len, seqLen, ranks).map((bin) => {
    const lengths = bin.samples.map((i) => len[i]!);
    const padding = (padToMultipleOf - (bin.length % padToMultipleOf)) % padToMultipleOf;
    if (padToMultipleOf > 1 && padding > 0) lengths[lengths.length - 1]! += padding;
    return { samples: bin.samples, lengths, dummy: false };
  });
  const missing = (ranks - (group.length % ranks)) % ranks;
  if (missing > 0 && group.length > 0) {
    const dummy: MicroBatch = { samples: [], lengths: group[0]!.lengths, dummy: true };
    for (let i = 0; i < missing; i++) group.push(dummy);
  }
  if (group.length === 0) return Array.from({ length: ranks }, () => []);
  const parts = balancedPartition(
    group.map((mb) => cost(mb.lengths)),
    ranks,
  );
  return parts.map((part) => part.map((i) => group[i]!));
}
