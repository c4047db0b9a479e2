// SkyRL's micro-batching of one policy mini-batch (one optimizer step), @ a956457:
// MeshDispatch.stage_chunks pads the mini-batch to a multiple of the data-parallel size with dummies that copy its
// first sample (loss_mask 0) and gives rank r the r-th equal contiguous piece; each rank's worker then cuts its
// piece with skyrl/backends/skyrl_train/workers/worker_utils.py get_microbatch_iterator:
// - trainer.max_tokens_per_microbatch ≤ 0 (the shipped -1): SampleBasedBatchIterator, consecutive chunks of
//   micro_train_batch_size_per_gpu samples;
// - > 0: TokenBasedBatchIterator: the 'balanced' packer of skyrl/train/dataset/bin_packing.py (samples by token
//   count, longest first, stable; each goes into the least-loaded bin if it fits the budget, else opens a bin; the
//   budget is a soft cap), then every rank is padded with empty micro-batches to the most any rank has
//   (_sync_num_microbatches, all_reduce MAX).
import { ConfigError } from '../../errors.ts';
import { intSetting } from '../settings.ts';
import type { FrameworkSettings, PackedStep, PackerDef } from '../types.ts';
import { dpSizes } from './checks.ts';
import { ranked, sizesOf } from './sizes.ts';
import { skyrlSays } from './version.ts';
import { keyBudget } from '../budget.ts';
import { SKYRL_KEYS } from './keys.ts';

/** Min-heap of [tokens, bin] pairs ordered as Python compares tuples. */
class BinHeap {
  private readonly items: [number, number][] = [];
  get size(): number {
    return this.items.length;
  }
  top(): [number, number] {
    return this.items[0]!;
  }
  private less(a: [number, number], b: [number, number]): boolean {
    return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  }
  push(item: [number, number]): void {
    const h = this.items;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }
  /** heapq.heapreplace: pop the smallest, push `item`. */
  replaceTop(item: [number, number]): void {
    const h = this.items;
    h[0] = item;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

/** bin_packing.Balanced: bins of indices into `lengths`. */
export function balancedBins(lengths: readonly number[], capacity: number): number[][] {
  const order = lengths.map((length, i) => ({ length, i })).sort((a, b) => b.length - a.length || a.i - b.i);
  const bins: number[][] = [];
  const heap = new BinHeap();
  for (const { length, i } of order) {
    if (heap.size > 0) {
      const [tokens, bin] = heap.top();
      if (tokens + length <= capacity) {
        bins[bin]!.push(i);
        heap.replaceTop([tokens + length, bin]);
        continue;
      }
    }
    bins.push([i]);
    heap.push([length, bins.length - 1]);
  }
  return bins;
}

/** One mini-batch (seqlens in generation order) over `ranks` ranks, micro-batched as SkyRL's workers do. */
export function skyrlMicroBatches(seqlens: readonly number[], ranks: number, micro: number, maxTokens: number): PackedStep {
  const n = seqlens.length;
  if (n === 0) throw new ConfigError('SkyRL: a mini-batch needs at least one sample');
  const pad = (ranks - (n % ranks)) % ranks;
  const piece = (n + pad) / ranks;
  // Position p of the padded mini-batch: sample p, or a dummy copying sample 0 (not listed).
  const perRank: number[][][] = [];
  for (let r = 0; r < ranks; r++) {
    const positions = Array.from({ length: piece }, (_, j) => r * piece + j);
    const real = (p: number) => p < n;
    const bins =
      maxTokens > 0
        ? balancedBins(
            positions.map((p) => seqlens[real(p) ? p : 0]!),
            maxTokens,
          )
        : Array.from({ length: Math.ceil(piece / micro) }, (_, m) =>
            Array.from({ length: Math.min(micro, piece - m * micro) }, (_, j) => m * micro + j),
          );
    perRank.push(bins.map((b) => b.map((j) => positions[j]!).filter(real)));
  }
  const most = Math.max(...perRank.map((b) => b.length));
  return {
    ranks: maxTokens > 0 ? perRank.map((b) => [...b, ...Array.from({ length: most - b.length }, () => [])]) : perRank,
    microBatchesPerRank: most,
  };
}

export const SKYRL_PACKER: PackerDef = {
  about:
    'trainer.max_tokens_per_microbatch (default -1 = off: micro_train_batch_size_per_gpu samples per micro-batch); > 0: each rank ' +
    "packs its piece of the mini-batch with the 'balanced' packer under that many tokens (soft cap) and ranks are padded to the " +
    'most micro-batches. pack() takes one policy mini-batch (one optimizer step); stage_chunks dummies are packed, not listed.',
  flags: [
    'ranks',
    'policy-num-gpus-per-node',
    'policy-num-nodes',
    'policy-sequence-parallel-size',
    'micro-train-batch-size-per-gpu',
    'max-tokens-per-microbatch',
  ],
  // A cap one long sample may pass.
  budget: (s) => keyBudget(SKYRL_KEYS, s, 'max-tokens-per-microbatch', 'soft'),
  pack(seqlens: readonly number[], given: FrameworkSettings): PackedStep {
    const settings = ranked(given);
    const { policyDp } = dpSizes(sizesOf(settings));
    if (policyDp < 1) throw new ConfigError(skyrlSays('the policy data-parallel size is 0: give it at least sequence_parallel_size GPUs'));
    const micro = intSetting(settings, 'micro-train-batch-size-per-gpu');
    if (micro < 1) throw new ConfigError(skyrlSays('AssertionError: micro_train_batch_size_per_gpu must be greater than 0'));
    return skyrlMicroBatches(seqlens, policyDp, micro, intSetting(settings, 'max-tokens-per-microbatch'));
  },
};
