// open-instruct's packing and per-rank micro-batches (@ e6c3044):
// rl_utils.pack_sequences packs the step's samples (query + response tokens) in order, starting a new pack
// when the next sample would overflow min(total tokens // DP, pack_length) (DP > 1; pack_length alone when
// DP is 1); data_loader.prepare_collated_data_for_workers keeps the first (packs // DP) × DP packs (with a
// warning when some are dropped), gives rank i the contiguous packs [B·i, B·(i+1)), shuffles them with
// np.random.permutation(B) (NumPy's global generator) and cuts micro-batches of per_device_train_batch_size.
import { ConfigError } from '../../errors.ts';
import { NumpyRandomState } from '../../rng/numpy-random.ts';
import type { FrameworkSettings, PackedStep, PackerDef } from '../types.ts';
import { runSizes } from './sizes.ts';
import { VERSION } from './version.ts';
import { keyName } from '../budget.ts';
import { keys } from './keys.ts';

/** pack_sequences' budget of one pack: min(total tokens // DP, pack_length) when DP > 1, pack_length alone when DP is 1. */
export function packBudget(lengths: readonly number[], packLength: number, ranks: number): number {
  const total = lengths.reduce((a, b) => a + b, 0);
  return total > 0 && ranks > 1 ? Math.min(Math.floor(total / ranks), packLength) : packLength;
}

/** pack_sequences: each pack's samples (indices), in order. */
export function packSequences(lengths: readonly number[], packLength: number, ranks: number): number[][] {
  const budget = packBudget(lengths, packLength, ranks);
  const packs: number[][] = [];
  let current: number[] = [];
  let used = 0;
  lengths.forEach((len, i) => {
    if (len + used > budget && current.length > 0) {
      packs.push(current);
      current = [];
      used = 0;
    }
    current.push(i);
    used += len;
  });
  if (current.length > 0) packs.push(current);
  return packs;
}

export interface Collated {
  /** ranks[r][m] = the packs (indices) of rank r's m-th micro-batch. */
  ranks: number[][][];
  /** Packs past (packs // DP) × DP, not trained on. */
  dropped: number[];
  /** prepare_collated_data_for_workers' warning, verbatim (null when nothing is dropped). */
  warning: string | null;
}

/** prepare_collated_data_for_workers over `packs` packs; `rng` stands for NumPy's global generator. */
export function collateForRanks(packs: number, ranks: number, perDevice: number, rng: NumpyRandomState): Collated {
  const keep = Math.floor(packs / ranks) * ranks;
  const warning =
    packs % ranks !== 0
      ? `Total packed sequences (${packs}) is not evenly divisible by dp_world_size (${ranks}). Truncating to ${keep} sequences (dropping ${packs - keep}).`
      : null;
  const per = Math.floor(packs / ranks);
  const out = Array.from({ length: ranks }, (_, r) => {
    const order = rng.permutation(per).map((j) => r * per + j);
    const micro: number[][] = [];
    for (let j = 0; j < order.length; j += perDevice) micro.push(order.slice(j, j + perDevice));
    return micro;
  });
  return { ranks: out, dropped: Array.from({ length: packs - keep }, (_, i) => keep + i), warning };
}

export interface StepPacking {
  packs: number[][];
  collated: Collated;
  /** ranks[r][m] = the samples of rank r's m-th micro-batch. */
  samples: number[][][];
}

export function packStep(
  lengths: readonly number[],
  packLength: number,
  ranks: number,
  perDevice: number,
  rng: NumpyRandomState,
): StepPacking {
  const packs = packSequences(lengths, packLength, ranks);
  const collated = collateForRanks(packs.length, ranks, perDevice, rng);
  return { packs, collated, samples: collated.ranks.map((r) => r.map((mb) => mb.flatMap((p) => packs[p]!))) };
}

export const packing: PackerDef = {
  about:
    'Always on in grpo_fast: samples packed in order up to min(total tokens // DP, pack_length) tokens, the first (packs // DP) × DP packs ' +
    'dealt in contiguous runs to the ranks, each rank shuffling its packs with np.random.permutation (unseeded in open-instruct; seeded ' +
    'with --seed here, first step of a run) into micro-batches of per_device_train_batch_size packs.',
  flags: ['pack-length', 'ranks', 'sequence-parallel-size', 'per-device-train-batch-size', 'seed'],
  // A micro-batch is per_device_train_batch_size packs: the pack's budget is the micro-batch's only when that is 1.
  budget(s, seqlens) {
    const sizes = runSizes(s);
    if (sizes.perDevice !== 1) return null;
    const tokens = packBudget(seqlens, sizes.packLength, sizes.ranks);
    const from = tokens === sizes.packLength ? keyName(keys, 'pack-length') : `min(total tokens // DP, ${keyName(keys, 'pack-length')})`;
    return { tokens, from, rule: 'cap' };
  },
  pack(seqlens: readonly number[], settings: FrameworkSettings): PackedStep {
    const s = runSizes(settings);
    if (s.seed < 0 || s.seed > 0xffffffff)
      throw new ConfigError(`--seed must be in [0, 2^32) for NumPy's generator, got ${s.seed} (${VERSION})`);
    const step = packStep(seqlens, s.packLength, s.ranks, s.perDevice, new NumpyRandomState(s.seed));
    return { ranks: step.samples, microBatchesPerRank: Math.max(0, ...step.samples.map((r) => r.length)) };
  },
};
