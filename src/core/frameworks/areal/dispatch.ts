// How a step's trajectories (one dict of k samples per prompt: a group) reach the data-parallel ranks, AReaL @ 4aef98d.
// A group is never split; ranks may get unequal token totals, and in SPMD mode unequal group counts.
import { type PackingAlgorithm, allocate, balancedGreedyPartition } from './seqpack.ts';

/** redistribute_trajectories' capacity: "No capacity limit leads to balanced partition across this group". */
export const UNLIMITED = 1e12;

/**
 * Single-controller mode (the default): areal/infra/controller/train_controller.py _dispatch_tensors with
 * group_size=1 (PPOActorController passes none). A trajectory arrives as RTensors trimmed to the group's longest
 * sequence (RTensor.remotize), so _item_weight is attention_mask numel = samples × longest; then
 * seqpack.balanced_greedy_partition(weights, dp_size): equal group counts per rank, lightest rank first.
 */
export function singleControllerDispatch(groups: readonly (readonly number[])[], ranks: number): number[][] {
  const weights = groups.map((lens) => lens.length * Math.max(...lens));
  return balancedGreedyPartition(weights, ranks);
}

/**
 * SPMD mode: areal/infra/dist_rollout.py redistribute_trajectories. Every rank's groups are all-gathered in rank
 * order; weight = the group's token count (attention_mask.sum()); get_allocate_fn(mb_spec.packing_algorithm)(weights,
 * capacity=1e12, min_groups=world size) and rank r keeps bin r. FFD with unlimited capacity puts each group (largest
 * first) on the rank holding the fewest groups; KK returns the bins heaviest first.
 */
export function spmdDispatch(groups: readonly (readonly number[])[], ranks: number, algorithm: PackingAlgorithm): number[][] {
  const weights = groups.map((lens) => lens.reduce((s, v) => s + v, 0));
  return allocate(algorithm, weights, UNLIMITED, ranks).groups;
}
