// The movement between two phases of the story: where every tile is at a given progress.
// Pure arithmetic over a scene (no DOM), so the element, the painter and tests share it.
import type { PhaseGeometry, Scene } from './scene.ts';
import { phaseIds } from './story.ts';

/** Tile positions in tile units: x[i], y[i] is the top-left cell of gathered sample i. */
export interface Positions {
  x: Float32Array;
  y: Float32Array;
}

/** Cubic ease-in-out: tiles start and stop gently, so the eye can follow them. */
export const ease = (t: number) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2);

/** Where the tiles are at `phase` (index into phaseIds) after `progress` ∈ [0, 1] of the movement into it. */
export function tweenPositions(scene: Scene, phase: number, progress: number): Positions {
  const to = scene.phases[phaseIds[phase]!];
  if (progress >= 1 || phase === 0) return to;
  return interpolate(scene.phases[phaseIds[phase - 1]!], to, progress);
}

/** Positions between two phases; later tiles (in gathered order) start later, so the movement reads as a flow. */
export function interpolate(from: PhaseGeometry, to: PhaseGeometry, progress: number): Positions {
  const n = from.x.length;
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  const spread = 0.35;
  for (let i = 0; i < n; i++) {
    const local = Math.min(1, Math.max(0, (progress - (spread * i) / Math.max(1, n)) / (1 - spread)));
    const e = ease(local);
    x[i] = from.x[i]! + (to.x[i]! - from.x[i]!) * e;
    y[i] = from.y[i]! + (to.y[i]! - from.y[i]!) * e;
  }
  return { x, y };
}
