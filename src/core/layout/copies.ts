// Where the copies of one prompt are, before and after the gather.
import { gathers } from './gather.ts';
import type { CopyPlace, Layout } from './types.ts';

interface CopyIndex {
  /** promptId → its copies over all gathers, in gathered order. */
  all: Map<number, CopyPlace[]>;
  /** stepIndex → promptId → its copies in that step, in gathered order. */
  byStep: Map<number, CopyPlace[]>[];
}

const cache = new WeakMap<Layout, CopyIndex>();

/** One pass over every gather, memoised per layout: each query is then a lookup (the text report asks once per prompt per step). */
function copyIndex(layout: Layout): CopyIndex {
  const hit = cache.get(layout);
  if (hit) return hit;
  const index: CopyIndex = { all: new Map(), byStep: layout.steps.map(() => new Map()) };
  for (const g of gathers(layout)) {
    g.samples.forEach((s, gatheredIndex) => {
      const place: CopyPlace = { rank: s.rank, stepIndex: s.stepIndex, slot: s.slot, gatheredIndex };
      for (const map of [index.all, index.byStep[s.stepIndex]!]) {
        const list = map.get(s.promptId);
        if (list) list.push(place);
        else map.set(s.promptId, [place]);
      }
    });
  }
  cache.set(layout, index);
  return index;
}

/** Every copy of `promptId` (optionally only in step `stepIndex`): rank, step, slot and position in its gather, in gathered order. */
export function copiesOf(layout: Layout, promptId: number, stepIndex?: number): CopyPlace[] {
  const index = copyIndex(layout);
  const map = stepIndex === undefined ? index.all : index.byStep[stepIndex];
  return [...(map?.get(promptId) ?? [])];
}

/** The prompt ids of step `stepIndex` in order of first appearance (rank-major). */
export function promptsOfStep(layout: Layout, stepIndex: number): number[] {
  const ids = new Set<number>();
  for (const slots of layout.steps[stepIndex]?.ranks ?? []) for (const id of slots) ids.add(id);
  return [...ids];
}
