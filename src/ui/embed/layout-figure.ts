// The layout picture as a figure for slides: the same scene and painter as the page
// (scene.ts, layout-painter.ts), laid out afresh for the figure's own width (the tiles get the
// size that fits it, as on the page) and painted into any 2D-like context — a canvas for PNG,
// the recording SvgContext for SVG. Two pictures (a comparison) sit side by side, each titled.
import type { Gather, RegroupMethod, RegroupRow } from '../../core/layout/types.ts';
import { buildScene } from '../scene.ts';
import { tweenPositions } from '../layout-tween.ts';
import { advantageShade, Grid, groupIndices, MARGIN_LEFT, MARGIN_RIGHT, paintFrame, type Frame } from '../layout-painter.ts';
import type { PaintContext } from './svg-context.ts';

/** One picture of a figure: what <grpo-layout-canvas> is given. */
export interface FigurePicture {
  title: string | null;
  gather: Gather;
  rows: readonly RegroupRow[];
  ranks: number;
  method: RegroupMethod;
  colours: ReadonlyMap<number, string>;
  advantages: readonly number[] | null;
  highlight: number | null;
}

const MAX_CELL = 46;
const MIN_CELL = 4;
const GAP = 24;
const TITLE = 26;

/** The frame of `p` laid out to fit `width` CSS px (the cell size rule of layout-canvas.ts), and its natural height. */
function frameFor(p: FigurePicture, phase: number, width: number): { frame: Frame; width: number; height: number } {
  const stepWidths = new Map<number, number>();
  for (const s of p.gather.samples) stepWidths.set(s.stepIndex, Math.max(stepWidths.get(s.stepIndex) ?? 0, s.slot + 1));
  const gridCols = [...stepWidths.values()].reduce((a, b) => a + b, 0) + stepWidths.size - 1;
  const avail = Math.max(100, width - MARGIN_LEFT - MARGIN_RIGHT);
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(avail / Math.max(1, gridCols))));
  const grid = new Grid(cell);
  const scene = buildScene(p.gather, p.rows, p.ranks, Math.max(gridCols, Math.floor(avail / cell)), p.method);
  const frame: Frame = {
    scene,
    grid,
    phase,
    progress: 1,
    positions: tweenPositions(scene, phase, 1),
    colours: p.colours,
    byPrompt: groupIndices(p.gather.samples.map((s) => s.promptId)),
    byAdvantage: groupIndices((p.advantages ?? []).map(advantageShade)),
    advantages: p.advantages,
    active: p.highlight,
    cursor: null,
  };
  return { frame, width: Math.max(width, MARGIN_LEFT + gridCols * cell + MARGIN_RIGHT), height: grid.height(scene) };
}

/**
 * Paints `pictures` at `phase` into `ctx`, fitted (aspect kept, centred) into `width` × `height`
 * px on white. The pictures are laid out for a design width of at least 480 px each, so a small
 * figure is a scaled-down drawing (readable labels) rather than a different one.
 */
export function paintFigure(ctx: PaintContext, pictures: readonly FigurePicture[], phase: number, width: number, height: number): void {
  ctx.save();
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  const each = Math.max(480, (width - GAP * (pictures.length - 1)) / pictures.length);
  const frames = pictures.map((p) => frameFor(p, phase, each));
  const titled = pictures.some((p) => p.title !== null);
  const designW = frames.reduce((a, f) => a + f.width, 0) + GAP * (frames.length - 1);
  const designH = Math.max(...frames.map((f) => f.height)) + (titled ? TITLE : 0);
  const s = Math.min(width / designW, height / designH);
  ctx.translate((width - designW * s) / 2, (height - designH * s) / 2);
  ctx.scale(s, s);
  let x = 0;
  frames.forEach((f, i) => {
    ctx.save();
    ctx.translate(x, 0);
    const title = pictures[i]!.title;
    if (title !== null) {
      ctx.fillStyle = '#333';
      ctx.font = '600 14px system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(title, MARGIN_LEFT, TITLE / 2);
    }
    if (titled) ctx.translate(0, TITLE);
    // paintFrame clears its own area first; on a figure that area is the white background already.
    paintFrame(ctx as CanvasRenderingContext2D, f.frame, f.width, f.height);
    ctx.restore();
    x += f.width + GAP;
  });
  ctx.restore();
}
