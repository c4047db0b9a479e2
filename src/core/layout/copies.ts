// Where the copies of one prompt are, before and after the gather.
import { gathers } from './gather.ts';
import type { CopyPlace, Layout } from './types.ts';

/** Every copy of `promptId` (optionally only in step `stepIndex`): rank, step, slot and position in its gather, in gathered order. */
export function copiesOf(layout: Layout, promptId: number, stepIndex?: number): CopyPlace[] {
  const places: CopyPlace[] = [];
  for (const g of gathers(layout)) {
    if (stepIndex !== undefined && !g.stepIndices.includes(stepIndex)) continue;
    g.samples.forEach((s, gatheredIndex) => {
      if (s.promptId !== promptId || (stepIndex !== undefined && s.stepIndex !== stepIndex)) return;
      places.push({ rank: s.rank, stepIndex: s.stepIndex, slot: s.slot, gatheredIndex });
    });
  }
  return places;
}

/** The prompt ids of step `stepIndex` in order of first appearance (rank-major). */
export function promptsOfStep(layout: Layout, stepIndex: number): number[] {
  const ids = new Set<number>();
  for (const slots of layout.steps[stepIndex]?.ranks ?? []) for (const id of slots) ids.add(id);
  return [...ids];
}
