// The all-gathers of a layout: which steps each one covers and the rank-major order it returns.
//
// Scope follows each framework's training loop:
// - flow_grpo (and its lcm variant) samples num_batches_per_epoch batches, each rank concatenates
//   its batches, and accelerator.gather runs once per epoch on the concatenation; so one gather per
//   epoch, rank r's block being its batches of the epoch in order.
// - TRL gathers once per generation batch (one layout step); DanceGRPO and Flow-Factory's
//   group-distributed gather per step too.
// all_gather / accelerator.gather concatenate along dim 0 in rank order, hence rank-major.
import type { Gather, GatheredSample, Layout } from './types.ts';

const cache = new WeakMap<Layout, Gather[]>();

/** Groups step indices by the layout's gather scope: one list per gather, in order. */
function gatherStepLists(layout: Layout): { epoch: number; stepIndices: number[] }[] {
  if (layout.gatherScope === 'step') return layout.steps.map((s, i) => ({ epoch: s.epoch, stepIndices: [i] }));
  const lists: { epoch: number; stepIndices: number[] }[] = [];
  layout.steps.forEach((s, i) => {
    const last = lists[lists.length - 1];
    if (last && last.epoch === s.epoch) last.stepIndices.push(i);
    else lists.push({ epoch: s.epoch, stepIndices: [i] });
  });
  return lists;
}

/**
 * Per-draw uids (verl's uid) for every (stepIndex, rank, slot): copies of one draw of a prompt share
 * one uid. Within a draw scope a prompt's copies are counted in rank-major order and every k of them
 * form one draw (a prompt can be drawn twice in one scope only by DistributedSampler's padding,
 * whose copies are consecutive on one rank).
 */
function drawUids(layout: Layout): string[][][] {
  const k = layout.config.k;
  const uids = layout.steps.map((s) => s.ranks.map((slots) => slots.map(() => '')));
  const scopes = layout.drawScope === 'epoch' ? gatherStepListsByEpoch(layout) : layout.steps.map((_, i) => [i]);
  for (const stepIndices of scopes) {
    const seen = new Map<number, number>();
    const step0 = layout.steps[stepIndices[0]!]!;
    const ranks = step0.ranks.length;
    const prefix = layout.drawScope === 'epoch' ? `e${step0.epoch}` : `s${stepIndices[0]}`;
    for (let r = 0; r < ranks; r++) {
      for (const si of stepIndices) {
        layout.steps[si]!.ranks[r]!.forEach((id, slot) => {
          const occurrence = seen.get(id) ?? 0;
          seen.set(id, occurrence + 1);
          uids[si]![r]![slot] = `${prefix}:p${id}:${Math.floor(occurrence / k)}`;
        });
      }
    }
  }
  return uids;
}

function gatherStepListsByEpoch(layout: Layout): number[][] {
  // Linear: append in place (copying the list for every step made long epochs quadratic).
  const byEpoch = new Map<number, number[]>();
  layout.steps.forEach((s, i) => {
    const list = byEpoch.get(s.epoch);
    if (list) list.push(i);
    else byEpoch.set(s.epoch, [i]);
  });
  return [...byEpoch.values()];
}

/**
 * Every all-gather of the layout, in order: each one's samples concatenated rank-major (rank 0's
 * slots of all covered steps, then rank 1's, …), so samples[i] has gatheredIndex i. Memoised per
 * layout object: treat layouts and the result as read-only.
 */
export function gathers(layout: Layout): Gather[] {
  const hit = cache.get(layout);
  if (hit) return hit;
  const uids = drawUids(layout);
  const result = gatherStepLists(layout).map(({ epoch, stepIndices }) => {
    const samples: GatheredSample[] = [];
    const ranks = layout.steps[stepIndices[0]!]!.ranks.length;
    for (let rank = 0; rank < ranks; rank++) {
      for (const stepIndex of stepIndices) {
        layout.steps[stepIndex]!.ranks[rank]!.forEach((promptId, slot) => {
          samples.push({ promptId, rank, stepIndex, slot, uid: uids[stepIndex]![rank]![slot]! });
        });
      }
    }
    return { epoch, stepIndices, samples };
  });
  cache.set(layout, result);
  return result;
}

/** The gather that covers step `stepIndex` (undefined when out of range). */
export function gatherOfStep(layout: Layout, stepIndex: number): Gather | undefined {
  let byStep = stepCache.get(layout);
  if (!byStep) {
    byStep = [];
    for (const g of gathers(layout)) for (const si of g.stepIndices) byStep[si] = g;
    stepCache.set(layout, byStep);
  }
  return byStep[stepIndex];
}

const stepCache = new WeakMap<Layout, Gather[]>();
