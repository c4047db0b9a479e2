// AReaL's micro-batches, @ 4aef98d. PPOActor._ppo_update splits a rank's batch with
// split_padded_tensor_dict_into_mb_list(MicroBatchSpec(n_mbs=ppo_n_minibatches)) — FFD, no token budget — and each
// minibatch is one optimizer step; FSDPEngine._prepare_mb_list splits each minibatch again with actor.mb_spec
// (max_tokens_per_mb, packing_algorithm). Both go through areal/utils/data.py allocate_balanced_mbs_synced: every rank
// allocates, the counts are all-gathered, and while they differ every rank allocates again with n_mbs = the largest.
// allocate_balanced_mbs returns sorted([sorted(g) for g in groups]).
import { type PackingAlgorithm, allocate } from './seqpack.ts';

export const DEFAULT_MAX_TOKENS_PER_MB = 1e12;

interface Spec {
  nMbs: number;
  maxTokens: number;
  algorithm: PackingAlgorithm;
}

function lexLess(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** allocate_balanced_mbs_synced over every rank at once: per rank, the micro-batches as row indices. */
function syncedAllocate(spec: Spec, lensPerRank: readonly (readonly number[])[], warnings: string[]): number[][][] {
  let nMbs = spec.nMbs;
  for (;;) {
    const perRank = lensPerRank.map((lens) => {
      const { groups, warnings: w } = allocate(spec.algorithm, lens, spec.maxTokens, nMbs);
      warnings.push(...w);
      return groups.map((g) => [...g].sort((a, b) => a - b)).sort(lexLess);
    });
    const counts = perRank.map((g) => g.length);
    if (counts.every((c) => c === counts[0])) return perRank;
    nMbs = Math.max(...counts);
  }
}

export interface RankPacking {
  /** minibatches[r][j][m] = rank r's rows (indices into its local batch) in micro-batch m of minibatch j. */
  minibatches: number[][][][];
  /** seqpack's warnings (KK falling back to FFD), in the order the ranks would log them round by round. */
  warnings: string[];
}

/** The actor's two splits on every rank, from each rank's sequence lengths in its local order. */
export function packRanks(
  lensPerRank: readonly (readonly number[])[],
  maxTokensPerMb: number | null,
  algorithm: PackingAlgorithm,
  ppoNMinibatches: number,
): RankPacking {
  const warnings: string[] = [];
  const minis = syncedAllocate({ nMbs: ppoNMinibatches, maxTokens: DEFAULT_MAX_TOKENS_PER_MB, algorithm: 'ffd' }, lensPerRank, warnings);
  const spec = { nMbs: 1, maxTokens: maxTokensPerMb ?? DEFAULT_MAX_TOKENS_PER_MB, algorithm };
  const minibatches: number[][][][] = lensPerRank.map(() => []);
  for (let j = 0; j < minis[0]!.length; j++) {
    const rows = minis.map((m) => m[j]!);
    const micro = syncedAllocate(
      spec,
      rows.map((rs, r) => rs.map((i) => lensPerRank[r]![i]!)),
      warnings,
    );
    micro.forEach((mbs, r) => minibatches[r]!.push(mbs.map((mb) => mb.map((i) => rows[r]![i]!))));
  }
  return { minibatches, warnings };
}
