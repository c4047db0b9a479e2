// EasyR1's dispatch (b44b311): RayPPOTrainer._balance_batch (verl/trainer/ray_trainer.py) reorders the
// step's batch by get_seqlen_balanced_partitions(attention-mask sums, k_partitions=world size,
// equal_size=True) from verl/utils/seqlen_balancing.py — the same Karmarkar–Karp as verl's, but on the raw
// token counts (no workload formula) and with each partition kept in ascending index order (no
// small-large interleave) — and update_actor's DP_COMPUTE_PROTO hands rank r the r-th equal contiguous
// chunk (DataProto.chunk). It always runs: EasyR1 has no switch for it.
import { ConfigError } from '../../errors.ts';
import { balancedPartitions } from '../verl/balance.ts';

export const EASYR1_VERSION = 'EasyR1 b44b311';

/** An AssertionError of EasyR1's, as a ConfigError carrying its text and where it is raised. */
export function easyr1Assert(message: string, where: string): ConfigError {
  return new ConfigError(`AssertionError: ${message} (${where}, ${EASYR1_VERSION})`);
}

/** The reorder index _balance_batch applies: the balanced partitions (each ascending), concatenated. */
export function balanceOrder(seqlens: readonly number[], ranks: number): number[] {
  if (seqlens.length < ranks) {
    throw easyr1Assert(`number of items:[${seqlens.length}] < k_partitions:[${ranks}]`, 'seqlen_balancing.get_seqlen_balanced_partitions');
  }
  if (seqlens.length % ranks !== 0) {
    throw easyr1Assert(`${seqlens.length} % ${ranks} != 0`, 'seqlen_balancing.karmarkar_karp');
  }
  return balancedPartitions(seqlens, ranks).flat();
}

/** DataProto.chunk's check: the batch must split into `chunks` equal parts. */
export function checkEqualChunks(size: number, chunks: number, where: string): void {
  if (size % chunks !== 0) {
    throw easyr1Assert(`only support equal chunk. Got size of DataProto ${size} and chunk ${chunks}.`, where);
  }
}

/** Rank r's positions (into the step's generation order): the r-th contiguous chunk of the balanced order. */
export function dispatch(seqlens: readonly number[], ranks: number): number[][] {
  const order = balanceOrder(seqlens, ranks);
  checkEqualChunks(order.length, ranks, 'update_actor dispatch, protocol.DataProto.chunk');
  const per = order.length / ranks;
  return Array.from({ length: ranks }, (_, r) => order.slice(r * per, (r + 1) * per));
}
