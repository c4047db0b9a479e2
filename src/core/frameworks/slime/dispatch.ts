// slime's dispatch of one rollout to its data-parallel ranks: slime/utils/dp_schedule.py
// build_dp_schedule @ 624b824 ("pack first, distribute second"), as RolloutManager._split_train_data_by_dp
// (slime/ray/rollout.py) calls it: every sample is its own rollout (rollout_ids 0, 1, 2, … in the order
// the rollout returned them, prompt-major), vpp_size 1.
//
// 1. The samples are cut into optimizer steps of global_batch_size samples; trailing samples that do not
//    fill a step are dropped.
// 2. Each step is packed into micro-batches: fixed chunks of micro_batch_size in order, or (dynamic
//    batching) one first-fit pass with a budget of max_tokens_per_gpu × CP tokens.
// 3. The micro-batch count is raised to a multiple of the DP size: the dynamic path splits the largest
//    multi-sample bin in two (longest sample first into the lighter half) until it fits; the static
//    path raises instead.
// 4. Micro-batch j goes to rank j mod DP (`range(r, K, dp)`), or with --balance-data Karmarkar–Karp on
//    the micro-batches' estimated FLOPs hands each rank an equal number of micro-batches.
// Each rank's samples are its micro-batches flattened in order, step after step.
import { ConfigError } from '../../errors.ts';
import { balancedPartitions } from '../verl/balance.ts';
import { FirstFitBins } from '../first-fit.ts';
import { type DenseModel, sampleFlops } from './flops.ts';

export interface ScheduleSettings {
  dpSize: number;
  cpSize: number;
  globalBatchSize: number;
  microBatchSize: number;
  useDynamicBatchSize: boolean;
  maxTokensPerGpu: number | null;
  balanceData: boolean;
  /** The model shape for the FLOPs estimate (needed only with balanceData). */
  model: DenseModel | null;
}

export interface Schedule {
  /** partitions[r]: the rollout's sample positions rank r trains on, in order. */
  partitions: number[][];
  /** microBatches[r][m]: positions into partitions[r] of rank r's m-th micro-batch (all steps). */
  microBatches: number[][][];
  /** Micro-batches per rank in each optimizer step. */
  numMicrobatches: number[];
}

/** first_fit_pack: each sample goes into the first bin it fits, else opens a bin. */
export function firstFitPack(lengths: readonly number[], maxTokensPerBin: number): number[][] {
  const bins: number[][] = [];
  const fit = new FirstFitBins(maxTokensPerBin);
  lengths.forEach((length, idx) => {
    const j = fit.place(length);
    if (j === bins.length) bins.push([]);
    bins[j]!.push(idx);
  });
  return bins;
}

/** _split_bin_by_tokens: longest first (stable), each into the half whose sum is not larger. */
function splitBin(bin: readonly number[], lengths: readonly number[]): [number[], number[]] {
  const halves: [number[], number[]] = [[], []];
  const sums = [0, 0];
  const byLength = [...bin].sort((a, b) => lengths[b]! - lengths[a]!);
  for (const idx of byLength) {
    const h = sums[0]! <= sums[1]! ? 0 : 1;
    halves[h].push(idx);
    sums[h]! += lengths[idx]!;
  }
  return halves;
}

/** expand_bins_by_splitting: split the largest multi-sample bin (ties: the later bin) until there are `target`. */
export function expandBinsBySplitting(bins: number[][], target: number, lengths: readonly number[]): void {
  while (bins.length < target) {
    let best = -1;
    let bestSum = -1;
    bins.forEach((b, idx) => {
      if (b.length < 2) return;
      const sum = b.reduce((s, i) => s + lengths[i]!, 0);
      if (sum >= bestSum) {
        bestSum = sum;
        best = idx;
      }
    });
    if (best < 0) break;
    const [left, right] = splitBin(bins[best]!, lengths);
    bins[best] = left;
    bins.push(right);
  }
}

function packStep(lengths: readonly number[], s: ScheduleSettings): number[][] {
  if (s.useDynamicBatchSize) return firstFitPack(lengths, (s.maxTokensPerGpu as number) * s.cpSize);
  const out: number[][] = [];
  for (let i = 0; i < lengths.length; i += s.microBatchSize)
    out.push(Array.from({ length: Math.min(s.microBatchSize, lengths.length - i) }, (_, j) => i + j));
  return out;
}

/** build_dp_schedule for one rollout whose samples have `lengths` tokens; its assertions as ConfigError (slime's text). */
export function buildDpSchedule(lengths: readonly number[], s: ScheduleSettings): Schedule {
  const { dpSize } = s;
  const alignTo = dpSize;
  const numSteps = Math.floor(lengths.length / s.globalBatchSize);
  if (numSteps < 1)
    throw new ConfigError(
      `num_rollouts (${lengths.length}) < global_batch_size (${s.globalBatchSize}); need at least one rollout per step. (slime 624b824)`,
    );
  const partitions: number[][] = Array.from({ length: dpSize }, () => []);
  const microBatches: number[][][] = Array.from({ length: dpSize }, () => []);
  const numMicrobatches: number[] = [];
  for (let step = 0; step < numSteps; step++) {
    const first = step * s.globalBatchSize;
    const stepLengths = lengths.slice(first, first + s.globalBatchSize);
    if (stepLengths.length < dpSize)
      throw new ConfigError(
        `step ${step}: ${stepLengths.length} samples < dp_size ${dpSize}; each step needs at least one sample per rank. (slime 624b824)`,
      );
    const bins = packStep(stepLengths, s);
    const target = Math.max(Math.ceil(bins.length / alignTo) * alignTo, alignTo);
    if (target !== bins.length) {
      if (s.useDynamicBatchSize) {
        expandBinsBySplitting(bins, target, stepLengths);
        if (bins.length !== target)
          throw new ConfigError(
            `dynamic path: could only produce ${bins.length} mbs after maximal splitting; need ${target}. step ${step} has ${stepLengths.length} ` +
              `samples, below the alignment threshold (${alignTo}). (slime 624b824)`,
          );
      } else {
        throw new ConfigError(
          `static path: num_mbs (${bins.length}) is not a multiple of dp_size * mb_group (${alignTo}); got step_size=${stepLengths.length}, ` +
            `micro_batch_size=${s.microBatchSize}, dp_size=${dpSize}, mb_group=1. Splitting static mbs would break the fixed-size invariant; adjust ` +
            `the config so step_size % (dp_size * micro_batch_size * mb_group) == 0. (slime 624b824)`,
        );
      }
    }
    numMicrobatches.push(bins.length / dpSize);
    let rankBins: number[][];
    if (s.balanceData) {
      const model = s.model as DenseModel;
      const work = stepLengths.map((l) => sampleFlops(l, model));
      const weights = bins.map((b) => b.reduce((sum, i) => sum + work[i]!, 0));
      rankBins = balancedPartitions(weights, dpSize);
    } else {
      rankBins = Array.from({ length: dpSize }, (_, r) => bins.map((_, j) => j).filter((j) => j % dpSize === r));
    }
    for (let r = 0; r < dpSize; r++) {
      for (const j of rankBins[r]!) {
        const start = partitions[r]!.length;
        partitions[r]!.push(...bins[j]!.map((i) => first + i));
        microBatches[r]!.push(bins[j]!.map((_, t) => start + t));
      }
    }
  }
  return { partitions, microBatches, numMicrobatches };
}
