// The painter of the layout picture: draws one frame of a scene into a 2D context. Pure with
// respect to the page (no DOM, no element state): everything it draws comes in as arguments,
// so the same frame can be painted into an OffscreenCanvas or checked in isolation.
import type { Scene, SceneLabel } from './scene.ts';
import type { Positions } from './layout-tween.ts';
import { advantageColour, textOn } from './palette.ts';
import { phaseIds } from './story.ts';

/** px for row labels ("ranks 12–15") left of the tiles, and a little air right of them. */
export const MARGIN_LEFT = 96;
/** The same on a picture under 480 px wide (a phone): "P13", "rank 7" still fit; longer labels get smaller type. */
export const MARGIN_LEFT_NARROW = 52;
export const MARGIN_RIGHT = 12;

/** Whether phase `phase` colours the tiles by advantage (from the advantages phase on, once there are advantages), not by prompt. */
export function colouredByAdvantage(phase: number, hasAdvantages: boolean): boolean {
  return hasAdvantages && phase >= phaseIds.indexOf('advantages');
}

/** Each kind of label's colour (the error red only for a group that mixes prompts). */
const LABEL_COLOURS: Record<SceneLabel['kind'], string> = { flag: '#c0282d', note: '#6a3d9a', header: '#333', row: '#555' };

/** Tile units ↔ CSS pixels for one cell size. Row 0 (the header line) stays readable when tiles are tiny. */
export class Grid {
  /** `left`: px kept left of the tiles for the row labels (narrower on a phone, so its tiles can be large enough for their labels). */
  constructor(
    readonly cell: number,
    readonly left: number = MARGIN_LEFT,
  ) {}

  /** Height in px of the header line. */
  get header(): number {
    return Math.max(this.cell, 24);
  }

  /** Tile units → px from the canvas top: row 0 is the header line, rows ≥ 1 are cells. */
  py(units: number): number {
    return units <= 1 ? units * this.header : this.header + (units - 1) * this.cell;
  }

  unitY(px: number): number {
    return px <= this.header ? px / this.header : 1 + (px - this.header) / this.cell;
  }

  px(units: number): number {
    return this.left + units * this.cell;
  }

  unitX(px: number): number {
    return (px - this.left) / this.cell;
  }

  /** CSS height of a scene's drawing (its tallest phase). */
  height(scene: Scene | null): number {
    return scene ? this.heightOf(scene.rows) : 40;
  }

  /** CSS height of `rows` rows of a drawing (the header line included), with the air under the last one. */
  heightOf(rows: number): number {
    return Math.ceil(this.py(rows + 0.4)) + 4;
  }
}

/** Indices grouped by a key, so tiles of one style are filled together (few style changes per frame). */
export function groupIndices<K>(keys: Iterable<K>): Map<K, number[]> {
  const out = new Map<K, number[]>();
  let i = 0;
  for (const key of keys) {
    const list = out.get(key);
    if (list) list.push(i);
    else out.set(key, [i]);
    i++;
  }
  return out;
}

/** An advantage's shade: rounded to 0.1 in [−2, 2] (NaN stays NaN), the key of `byAdvantage`. */
export const advantageShade = (a: number) => (Number.isFinite(a) ? Math.round(Math.max(-2, Math.min(2, a)) * 10) / 10 : Number.NaN);

/** Everything one frame shows. */
export interface Frame {
  scene: Scene;
  grid: Grid;
  /** Phase (index into phaseIds) and the movement into it, 0 … 1. */
  phase: number;
  progress: number;
  positions: Positions;
  colours: ReadonlyMap<number, string>;
  /** Gathered indices per prompt id and per advantage shade. */
  byPrompt: ReadonlyMap<number, readonly number[]>;
  byAdvantage: ReadonlyMap<number, readonly number[]>;
  advantages: readonly number[] | null;
  /** The prompt whose copies are outlined (others veiled), or null. */
  active: number | null;
  /** The keyboard cursor's tile (gathered index), ringed, or null. */
  cursor: number | null;
}

/** A system-ui character's average width in ems (an estimate: the painter also draws into a context that cannot measure text). */
const LABEL_EM = 0.55;

/** Paints `f` into `ctx` (already scaled to CSS pixels), over a cleared `width` × `height` area. */
export function paintFrame(ctx: CanvasRenderingContext2D, f: Frame, width: number, height: number): void {
  ctx.clearRect(0, 0, width, height);
  const { scene, grid, phase, progress, active } = f;
  const { x, y } = f.positions;
  const cell = grid.cell;
  const id = phaseIds[phase]!;
  const geo = scene.phases[id];
  const pad = cell >= 12 ? Math.max(1, Math.round(cell * 0.07)) : cell >= 6 ? 0.5 : 0;
  const size = cell - 2 * pad;
  const showAdvantage = colouredByAdvantage(phase, f.advantages !== null);
  const advantageMix = id === 'advantages' ? progress : 1;

  // Group boxes behind the tiles (regroup: fading in with the movement).
  if (geo.boxes.length > 0) {
    ctx.globalAlpha = id === 'regroup' || id === 'gather' ? progress : 1;
    for (const b of geo.boxes) {
      const bx = grid.px(b.x) - 2;
      const by = grid.py(b.y) - 2;
      ctx.lineWidth = b.mixed || b.offSize ? 2.5 : 1;
      ctx.strokeStyle = b.mixed ? '#d62728' : b.offSize ? '#9467bd' : '#b9b9b4';
      if (b.mixed) {
        ctx.fillStyle = 'rgba(214,39,40,0.10)';
        ctx.fillRect(bx, by, b.w * cell + 4, b.h * cell + 4);
      }
      ctx.strokeRect(bx, by, b.w * cell + 4, b.h * cell + 4);
    }
    ctx.globalAlpha = 1;
  }

  const n = scene.samples.length;
  const rect = (i: number, top = 0) => ctx.fillRect(grid.px(x[i]!) + pad, grid.py(y[i]!) + pad + top, size, size - top);
  // Tiles are filled grouped by style (per prompt, per advantage shade) so a frame costs a few
  // hundred style changes, not one per tile; fillRect stays on the rasteriser's fast path.
  for (const [promptId, members] of f.byPrompt) {
    ctx.fillStyle = f.colours.get(promptId) ?? '#888';
    for (const i of members) rect(i);
  }
  // The advantage fills each tile below a strip of its prompt's colour, so identity stays visible.
  const strip = Math.max(1, Math.round(size * 0.28));
  if (showAdvantage && advantageMix > 0) {
    ctx.globalAlpha = advantageMix;
    for (const [shade, members] of f.byAdvantage) {
      ctx.fillStyle = advantageColour(shade);
      for (const i of members) rect(i, strip);
    }
    ctx.globalAlpha = 1;
  }
  // A highlighted prompt: veil every other tile, outline its copies.
  if (active !== null) {
    ctx.fillStyle = 'rgba(255,255,255,0.82)';
    for (let i = 0; i < n; i++) if (scene.samples[i]!.promptId !== active) rect(i);
    ctx.lineWidth = cell >= 16 ? 2.5 : 1.5;
    ctx.strokeStyle = '#111';
    for (const i of f.byPrompt.get(active) ?? []) {
      ctx.strokeRect(grid.px(x[i]!) + pad + 0.5, grid.py(y[i]!) + pad + 0.5, size - 1, size - 1);
    }
  }

  // The keyboard cursor: a ring outside its tile, dark then light so it shows on any colour.
  if (f.cursor !== null && f.cursor < n) {
    const cx = grid.px(x[f.cursor]!) - 1.5;
    const cy = grid.py(y[f.cursor]!) - 1.5;
    ctx.lineWidth = 3;
    ctx.strokeStyle = '#1d1d1f';
    ctx.strokeRect(cx, cy, cell + 3, cell + 3);
    ctx.lineWidth = 1;
    ctx.strokeStyle = '#fff';
    ctx.strokeRect(cx + 2, cy + 2, cell - 1, cell - 1);
  }

  // Text only where tiles are big enough for it at 9 px or more (then there are few of them): at 22 px tiles the
  // labels were 7 px, too small to read; below that the colour key under the picture names up to 12 prompts.
  if (cell >= 28) {
    const valueLine = cell >= 38;
    const indexCorner = cell >= 41 && (id === 'gather' || id === 'regroup');
    const font = (scale: number, bold = false) => `${bold ? '600 ' : ''}${Math.max(9, Math.round(cell * scale))}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < n; i++) {
      const s = scene.samples[i]!;
      const px = grid.px(x[i]!) + pad;
      const py = grid.py(y[i]!) + pad;
      ctx.globalAlpha = active !== null && s.promptId !== active ? 0.3 : 1;
      const colour = f.colours.get(s.promptId) ?? '#888';
      const cx = px + size / 2;
      if (showAdvantage && advantageMix > 0.5 && valueLine) {
        const a = f.advantages![i]!;
        ctx.fillStyle = textOn(advantageColour(a));
        ctx.font = font(0.26, true);
        ctx.fillText(`P${s.promptId}`, cx, py + size * 0.42, size - 2);
        ctx.font = font(0.24);
        ctx.fillText(Number.isFinite(a) ? (a >= 0 ? '+' : '') + a.toFixed(2) : 'NaN', cx, py + size * 0.74, size - 2);
      } else {
        ctx.fillStyle = textOn(showAdvantage && advantageMix > 0.5 ? advantageColour(f.advantages![i]!) : colour);
        ctx.font = font(String(s.promptId).length > 3 ? 0.26 : 0.32, true);
        ctx.fillText(`P${s.promptId}`, cx, py + size * (indexCorner ? 0.42 : 0.5), size - 2);
        if (indexCorner) {
          ctx.font = font(0.22);
          ctx.fillText(`#${i}`, cx, py + size * 0.78, size - 2);
        }
      }
    }
  }
  ctx.globalAlpha = 1;

  // Labels of the phase being entered, fading in with the movement.
  ctx.globalAlpha = progress;
  const rowEvery = cell >= 13 ? 1 : Math.ceil(13 / cell);
  let rowCount = 0;
  for (const l of geo.labels) {
    if (l.kind === 'row' && rowCount++ % rowEvery !== 0) continue;
    ctx.textBaseline = 'middle';
    ctx.textAlign = l.align;
    // A group of another size than k is a fact of the run (seed-000's shipped loader gives 2k), not an error: it is
    // said in its box's purple, darker for text; only a group that mixes prompts is said in the error colour.
    ctx.fillStyle = LABEL_COLOURS[l.kind];
    const lx = grid.px(l.x) - (l.align === 'right' ? 4 : 0);
    // The room the label has inside the picture: a label never runs past its edge (it was cut off on a phone and in the compare pair).
    const room = Math.max(20, l.align === 'right' ? lx - 2 : l.align === 'left' ? width - lx - 2 : 2 * Math.min(lx, width - lx) - 4);
    // Rows and flags at 11–14 px (10 px read too small on a phone and from the back of a room), headers a little larger.
    let px = l.kind === 'header' ? Math.max(12, Math.min(15, cell * 0.42)) : Math.max(11, Math.min(14, cell * 0.4));
    // Smaller type first (down to 9 px, by an estimate of the text's width), then the text is squeezed into the room.
    while (px > 9 && l.text.length * px * LABEL_EM > room) px -= 1;
    ctx.font = `${l.kind === 'header' ? '600 ' : ''}${px}px system-ui, sans-serif`;
    ctx.fillText(l.text, lx, grid.py(l.y), room);
  }
  ctx.globalAlpha = 1;
}
