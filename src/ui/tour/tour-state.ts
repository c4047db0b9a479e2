// What a tour step shows, as if every step before it had run: the view it drives and the
// settings the steps on that view have added up to. Pure (no DOM), so the rules are unit-tested;
// tour-panel.ts applies the result to the page.
import { TOURS, type Tour, type TourView } from './tours.ts';

export interface StepState {
  view: TourView;
  /** Index of the first step of the run of consecutive steps on this view (a new run gets a fresh element). */
  from: number;
  /** The settings of steps `from`…index added up ('' in a later step removes a key). */
  set: Record<string, string>;
  /** Every key the run's steps touch: keys among these that `set` lacks are removed from the element. */
  keys: string[];
  /** Indices of the run's steps up to this one that start a training run. */
  runs: number[];
}

/** The state of step `index` (0-based) of `tour`. */
export function stepState(tour: Tour, index: number): StepState {
  const view = tour.steps[index]!.view;
  let from = index;
  while (from > 0 && tour.steps[from - 1]!.view === view) from--;
  const set: Record<string, string> = {};
  const runs: number[] = [];
  for (let i = from; i <= index; i++) {
    const step = tour.steps[i]!;
    for (const [k, v] of Object.entries(step.set ?? {})) {
      if (v === '') delete set[k];
      else set[k] = v;
    }
    if (step.run) runs.push(i);
  }
  const keys = new Set<string>();
  for (let i = from; i < tour.steps.length && tour.steps[i]!.view === view; i++)
    for (const k of Object.keys(tour.steps[i]!.set ?? {})) keys.add(k);
  return { view, from, set, keys: [...keys], runs };
}

export interface TourLink {
  /** The tour asked for, or null when `tour=` names none (then `unknown` is what it named). */
  tour: Tour | null;
  unknown: string | null;
  /** 0-based step index, clamped to the tour (`step=` is 1-based; missing or unreadable: the first). */
  index: number;
}

/** Reads `tour=` and `step=` from a query string. */
export function readTourLink(search: string): TourLink {
  const p = new URLSearchParams(search);
  const name = p.get('tour') ?? '';
  const tour = Object.hasOwn(TOURS, name) ? TOURS[name]! : null;
  const n = Number(p.get('step') ?? '1');
  const step = Number.isInteger(n) ? n : 1;
  const index = tour ? Math.max(0, Math.min(tour.steps.length - 1, step - 1)) : 0;
  return { tour, unknown: tour ? null : name, index };
}

/** `search` with the tour and its 1-based step set (the other keys, e.g. lang and speed, kept). */
export function tourSearch(search: string, id: string, index: number): string {
  const p = new URLSearchParams(search);
  p.set('tour', id);
  p.set('step', String(index + 1));
  return `?${p}`;
}

/** The explorer's query string for a step: its added-up URL keys, and the page's speed (so a test can speed the story up). */
export function explorerSearch(set: Record<string, string>, speed: string | null): string {
  const p = new URLSearchParams(set);
  if (speed !== null) p.set('speed', speed);
  return `?${p}`;
}
