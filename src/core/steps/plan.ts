// What every framework's schedule (src/core/frameworks/<home>/steps-schedule.ts) cuts a layout
// with: where each completion sits, each rank's block of a layout step, the layout steps of each
// epoch, and the shuffles the fixtures pass.
import type { Layout } from '../layout/types.ts';
import { configError, fact } from '../messages/index.ts';
import type { Batching, BlockOrder, FrameworkName } from './types.ts';

/** Index of the first completion of each layout step (rank-major, slot order within a step). */
export function completionOffsets(layout: Layout): number[] {
  const offsets: number[] = [];
  let next = 0;
  for (const step of layout.steps) {
    offsets.push(next);
    next += step.ranks.reduce((n, slots) => n + slots.length, 0);
  }
  return offsets;
}

/** `block` in the order the run drew (the fixtures), else as it is. */
export function ordered(block: number[], order: readonly number[] | undefined): number[] {
  if (!order) return block;
  return order.map((i) => block[i]!);
}

export function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** A layout as the schedules read it: each rank's block of a layout step (completion indices), and the layout steps of each epoch. */
export interface LayoutBlocks {
  /** Completion indices of rank r's block of layout step s, in slot order. */
  block(s: number, r: number): number[];
  /** The epochs, in order. */
  epochs: number[];
  /** The layout steps of an epoch, in order. */
  stepsOf(epoch: number): number[];
}

export function layoutBlocks(layout: Layout): LayoutBlocks {
  const offsets = completionOffsets(layout);
  const block = (s: number, r: number) =>
    layout.steps[s]!.ranks[r]!.map((_, slot) => offsets[s]! + r * layout.steps[s]!.ranks[0]!.length + slot);
  // Layout steps of each epoch, in one pass (a scan per epoch was epochs × steps).
  const byEpoch = new Map<number, number[]>();
  layout.steps.forEach((s, i) => {
    const list = byEpoch.get(s.epoch);
    if (list) list.push(i);
    else byEpoch.set(s.epoch, [i]);
  });
  return { block, epochs: [...byEpoch.keys()], stepsOf: (e) => byEpoch.get(e)! };
}

export type { BlockOrder };

/**
 * Batching of the schedules that train `batch` samples per rank per micro-step and accumulate
 * gradient_accumulation_steps of them (TRL's, flow_grpo's): `--micro-batch` is verl's
 * ppo_micro_batch_size_per_gpu, refused here.
 */
export function batchPerMicroStep(layout: Layout, framework: FrameworkName, given: number | undefined): Batching {
  if (given !== undefined) {
    throw configError([fact('steps.micro-not-verl', { framework })]);
  }
  return { microBatch: layout.config.batch, ga: layout.config.gradientAccumulationSteps, gaFrom: 'gradient-accumulation-steps' };
}
