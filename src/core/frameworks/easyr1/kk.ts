// get_seqlen_balanced_partitions(seqlen_list, k, equal_size=False) of EasyR1's verl/utils/seqlen_balancing.py
// (b44b311): verl's Karmarkar–Karp with the unequal start (src/core/frameworks/verl/balance.ts, the same
// algorithm and tie-breaking), with EasyR1's own checks around it.
import { karmarkarKarp } from '../verl/balance.ts';
import { easyr1Assert } from './dispatch.ts';

/** get_seqlen_balanced_partitions(seqlens, k, equal_size=False): k partitions of indices, each ascending. */
export function unequalPartitions(seqlens: readonly number[], k: number): number[][] {
  if (seqlens.length < k) {
    throw easyr1Assert(`number of items:[${seqlens.length}] < k_partitions:[${k}]`, 'seqlen_balancing.get_seqlen_balanced_partitions');
  }
  return karmarkarKarp(seqlens, k, false).map((p, i) => {
    if (p.length === 0) throw easyr1Assert(`the ${i}-th partition is empty`, 'seqlen_balancing.get_seqlen_balanced_partitions');
    return p;
  });
}
