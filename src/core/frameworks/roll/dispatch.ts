// How a ROLL step reaches actor_train's data-parallel ranks (roll/pipeline/rlvr/rlvr_pipeline.py
// RLVRPipeline.run @ 8eb27cc): the generated batch gets prompt_id = torch.arange(len) (one id per
// sample, so the later reorder(argsort(prompt_id)) calls only undo earlier reorders: no ties), then
// batch_balance (roll/utils/functionals.py, a copy of verl's _balance_batch: Karmarkar–Karp with equal
// sizes on 24576·L + L², each part laid out small-large-small), optionally dynamic_batching_shard, and
// train_step's DP_MP_COMPUTE dispatch gives rank r the r-th of dp_size equal contiguous chunks
// (DataProto.chunk). batch_balance's own keep_minibatch switch is never set by the RLVR pipeline.
import { ConfigError } from '../../errors.ts';
import { balanceBatchOrder } from '../verl/balance.ts';
import { type DynamicShards, dynamicBatchingShard } from './packing.ts';
import { ROLL_VERSION } from './version.ts';

export interface DynamicSettings {
  maxTokens: number;
  round: number;
}

/** get_seqlen_balanced_partitions' asserts, in ROLL's words. */
export function checkBalance(samples: number, ranks: number): void {
  if (samples < ranks) {
    throw new ConfigError(
      `number of items:[${samples}] < k_partitions:[${ranks}] (ROLL ${ROLL_VERSION}, get_seqlen_balanced_partitions); ` +
        'generate at least one sample per actor_train data-parallel rank',
    );
  }
  if (samples % ranks !== 0) {
    throw new ConfigError(
      `${samples} % ${ranks} != 0 (ROLL ${ROLL_VERSION}, get_seqlen_balanced_partitions); ` +
        'rollout_batch_size × num_return_sequences_in_group must be a multiple of the actor_train data-parallel size',
    );
  }
}

/**
 * The samples of each rank (indices into generation order) for a step whose samples have `seqlens` tokens,
 * and the shared micro-batch cut when dynamic batching is on.
 */
export function rollDispatch(
  seqlens: readonly number[],
  ranks: number,
  dynamic: DynamicSettings | null,
): { sources: number[][]; dynamic: DynamicShards | null } {
  checkBalance(seqlens.length, ranks);
  const order = balanceBatchOrder(seqlens, ranks);
  if (dynamic) {
    const shards = dynamicBatchingShard(order, seqlens, ranks, dynamic.maxTokens, dynamic.round);
    return { sources: shards.shards, dynamic: shards };
  }
  const per = order.length / ranks;
  return { sources: Array.from({ length: ranks }, (_, r) => order.slice(r * per, (r + 1) * per)), dynamic: null };
}
