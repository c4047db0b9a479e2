// slime's prompt order: slime/rollout/data_source.py RolloutDataSource.get_samples and
// slime/utils/data.py Dataset.shuffle @ 624b824.
//
// The data source keeps an offset into the dataset. A rollout takes the next `rollout_batch_size`
// prompts; when fewer are left, it takes the tail of this epoch, moves to the next epoch (reshuffling
// when --rollout-shuffle is on) and takes the rest from the head of the new order: nothing is dropped,
// so a rollout can straddle two epochs. The order of epoch e is the dataset order, or, with
// --rollout-shuffle, `random.seed(rollout_seed + e); random.shuffle(list(range(len)))` on Python's global
// generator (the dataset is shuffled once for epoch 0 when the data source is built).
import { PythonRandom } from '../../rng/python-random.ts';

/** One rollout's prompts, and where the data source stood before it. */
export interface RolloutPrompts {
  /** The data source's epoch_id when the rollout began. */
  epochBefore: number;
  /** sample_offset when the rollout began. */
  offsetBefore: number;
  /** Epoch of the rollout's first prompt (epochBefore + 1 when the previous rollout ended the epoch exactly). */
  epoch: number;
  /** Dataset indices in the rollout's order. */
  prompts: number[];
}

/** Dataset.shuffle's order for an epoch: the identity, or Python random's shuffle seeded rollout_seed + epoch. */
export function epochOrder(datasetSize: number, shuffle: boolean, seed: number, epoch: number): number[] {
  const order = Array.from({ length: datasetSize }, (_, i) => i);
  if (shuffle) new PythonRandom(seed + epoch).shuffle(order);
  return order;
}

/** The prompts of `numRollout` consecutive get_samples(rolloutBatchSize) calls on a fresh data source. */
export function rolloutPrompts(
  datasetSize: number,
  rolloutBatchSize: number,
  numRollout: number,
  shuffle: boolean,
  seed: number,
): RolloutPrompts[] {
  let epochId = 0;
  let offset = 0;
  let order = epochOrder(datasetSize, shuffle, seed, epochId);
  const out: RolloutPrompts[] = [];
  for (let r = 0; r < numRollout; r++) {
    const epochBefore = epochId;
    const offsetBefore = offset;
    let prompts: number[];
    if (offset + rolloutBatchSize <= datasetSize) {
      prompts = order.slice(offset, offset + rolloutBatchSize);
      offset += rolloutBatchSize;
    } else {
      prompts = order.slice(offset);
      const rest = rolloutBatchSize - prompts.length;
      epochId += 1;
      // Without --rollout-shuffle the order stays the dataset order.
      if (shuffle) order = epochOrder(datasetSize, shuffle, seed, epochId);
      prompts.push(...order.slice(0, rest));
      offset = rest;
    }
    out.push({ epochBefore, offsetBefore, epoch: offsetBefore === datasetSize ? epochBefore + 1 : epochBefore, prompts });
  }
  return out;
}
