// The framework's layout as one SVG string: a row per data-parallel rank, a column per training step,
// and in each cell the rank's samples in its order as tiles labelled by prompt id (a prompt's copies
// share a colour; `data-prompt` lets the element light them up on hover or tap). Large cells show
// their first tiles and say how many more there are. Pure: draws the core's steps.
import type { FrameworkStep } from '../../core/frameworks/types.ts';
import { esc, promptFill, promptStroke } from './tile-colour.ts';

export interface LayoutFigureWords {
  rank: (r: number) => string;
  step: (index: number, epoch: number, step: number) => string;
  /** "+ 480 more" under a cell showing part of the rank's samples. */
  more: (n: number) => string;
  /** "+ 3 more ranks" under the last row shown. */
  moreRanks: (n: number) => string;
  tile: (prompt: number, rank: number, slot: number) => string;
}

const TILE_W = 30;
const TILE_H = 18;
const PITCH_X = TILE_W + 2;
const PITCH_Y = TILE_H + 2;
const COLS = 8;
/** Tiles a cell shows (the rest are counted). */
export const CELL_TILES = 32;
/** Ranks the figure draws. */
export const SHOWN_RANKS = 16;
const LEFT = 58;
const TOP = 22;
const CELL_GAP = 14;

/** The SVG of `steps` (the first is step `first` of the run). */
export function layoutFigure(steps: readonly FrameworkStep[], first: number, words: LayoutFigureWords): string {
  const W = Math.max(...steps.map((s) => s.ranks.length));
  const shown = Math.min(W, SHOWN_RANKS);
  const rowsOf = (r: number) => {
    const most = Math.max(...steps.map((s) => Math.min(s.ranks[r]?.length ?? 0, CELL_TILES)));
    const over = steps.some((s) => (s.ranks[r]?.length ?? 0) > CELL_TILES);
    return { lines: Math.max(1, Math.ceil(most / COLS)), over };
  };
  const cellW = COLS * PITCH_X;
  const rowY: number[] = [];
  let y = TOP;
  for (let r = 0; r < shown; r++) {
    rowY.push(y);
    const { lines, over } = rowsOf(r);
    y += lines * PITCH_Y + (over ? 14 : 0) + 8;
  }
  const height = y + (W > shown ? 18 : 4);
  const width = LEFT + steps.length * (cellW + CELL_GAP);
  const parts = [
    `<svg class="layout-figure" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
      'font-family="system-ui, sans-serif" font-size="10" role="img">',
  ];
  steps.forEach((s, c) => {
    const x0 = LEFT + c * (cellW + CELL_GAP);
    parts.push(
      `<text class="step-label" x="${x0}" y="14" font-size="11" fill="#333">${esc(words.step(first + c, s.epoch, s.step))}</text>`,
    );
    for (let r = 0; r < shown; r++) {
      const ids = s.ranks[r] ?? [];
      ids.slice(0, CELL_TILES).forEach((id, j) => {
        const tx = x0 + (j % COLS) * PITCH_X;
        const ty = rowY[r]! + Math.floor(j / COLS) * PITCH_Y;
        parts.push(
          `<g class="tile" data-prompt="${id}" data-step="${first + c}" data-rank="${r}"><title>${esc(words.tile(id, r, j))}</title>` +
            `<rect x="${tx}" y="${ty}" width="${TILE_W}" height="${TILE_H}" rx="3" fill="${promptFill(id)}" stroke="${promptStroke(id)}" stroke-width="0.6"/>` +
            `<text x="${tx + TILE_W / 2}" y="${ty + 12.5}" text-anchor="middle" fill="#111">${id}</text></g>`,
        );
      });
      if (ids.length > CELL_TILES) {
        const ty = rowY[r]! + Math.ceil(CELL_TILES / COLS) * PITCH_Y + 9;
        parts.push(`<text class="more" x="${x0}" y="${ty}" fill="#555">${esc(words.more(ids.length - CELL_TILES))}</text>`);
      }
    }
  });
  for (let r = 0; r < shown; r++) parts.push(`<text x="4" y="${rowY[r]! + 13}" font-size="11" fill="#333">${esc(words.rank(r))}</text>`);
  if (W > shown) parts.push(`<text x="4" y="${height - 5}" fill="#555">${esc(words.moreRanks(W - shown))}</text>`);
  parts.push('</svg>');
  return parts.join('');
}
