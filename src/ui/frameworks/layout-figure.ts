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
/** Tiles a line of a cell holds at most, and at least (a narrow column gets narrower cells). */
const COLS = 8;
const COLS_MIN = 2;
/** Tiles a cell shows (the rest are counted). */
export const CELL_TILES = 32;
/** Ranks the figure draws. */
export const SHOWN_RANKS = 16;
const LEFT = 58;
const TOP = 22;
const CELL_GAP = 14;
/** Room between two lines of steps (a narrow column puts the steps under one another). */
const BLOCK_GAP = 10;

/**
 * The SVG of `steps` (the first is step `first` of the run), `width` CSS px wide at most (its column): as many steps
 * side by side as fit, the rest on lines under them (each line with its rank labels), tiles keeping their size and
 * labels, so every step and rank is in view without scrolling.
 */
export function layoutFigure(
  steps: readonly FrameworkStep[],
  first: number,
  words: LayoutFigureWords,
  width = Number.POSITIVE_INFINITY,
): string {
  const W = Math.max(...steps.map((s) => s.ranks.length));
  const shown = Math.min(W, SHOWN_RANKS);
  const cols = Math.max(COLS_MIN, Math.min(COLS, Math.floor((width - LEFT) / PITCH_X)));
  const cellW = cols * PITCH_X;
  const perLine = Math.max(1, Math.min(steps.length, Math.floor((width - LEFT + CELL_GAP) / (cellW + CELL_GAP))));
  const rowsOf = (r: number, line: readonly FrameworkStep[]) => {
    const most = Math.max(...line.map((s) => Math.min(s.ranks[r]?.length ?? 0, CELL_TILES)));
    const over = line.some((s) => (s.ranks[r]?.length ?? 0) > CELL_TILES);
    return { lines: Math.max(1, Math.ceil(most / cols)), over };
  };
  const parts: string[] = [];
  let y = 0;
  for (let from = 0; from < steps.length; from += perLine) {
    const line = steps.slice(from, from + perLine);
    const rowY: number[] = [];
    let ry = y + TOP;
    for (let r = 0; r < shown; r++) {
      rowY.push(ry);
      const { lines, over } = rowsOf(r, line);
      ry += lines * PITCH_Y + (over ? 14 : 0) + 8;
    }
    line.forEach((s, c) => {
      const x0 = LEFT + c * (cellW + CELL_GAP);
      parts.push(
        `<text class="step-label" x="${x0}" y="${y + 14}" font-size="11" fill="#333">${esc(words.step(first + from + c, s.epoch, s.step))}</text>`,
      );
      for (let r = 0; r < shown; r++) {
        const ids = s.ranks[r] ?? [];
        ids.slice(0, CELL_TILES).forEach((id, j) => {
          const tx = x0 + (j % cols) * PITCH_X;
          const ty = rowY[r]! + Math.floor(j / cols) * PITCH_Y;
          parts.push(
            `<g class="tile" data-prompt="${id}" data-step="${first + from + c}" data-rank="${r}"><title>${esc(words.tile(id, r, j))}</title>` +
              `<rect x="${tx}" y="${ty}" width="${TILE_W}" height="${TILE_H}" rx="3" fill="${promptFill(id)}" ` +
              `stroke="${promptStroke(id)}" stroke-width="0.6"/>` +
              `<text x="${tx + TILE_W / 2}" y="${ty + 12.5}" text-anchor="middle" fill="#111">${id}</text></g>`,
          );
        });
        if (ids.length > CELL_TILES) {
          const ty = rowY[r]! + Math.ceil(CELL_TILES / cols) * PITCH_Y + 9;
          parts.push(`<text class="more" x="${x0}" y="${ty}" fill="#555">${esc(words.more(ids.length - CELL_TILES))}</text>`);
        }
      }
    });
    for (let r = 0; r < shown; r++) parts.push(`<text x="4" y="${rowY[r]! + 13}" font-size="11" fill="#333">${esc(words.rank(r))}</text>`);
    y = ry + BLOCK_GAP;
  }
  const height = y - BLOCK_GAP + (W > shown ? 18 : 4);
  if (W > shown) parts.push(`<text x="4" y="${height - 5}" fill="#555">${esc(words.moreRanks(W - shown))}</text>`);
  const figureWidth = LEFT + perLine * (cellW + CELL_GAP) - CELL_GAP + 4;
  return (
    `<svg class="layout-figure" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${figureWidth} ${height}" width="${figureWidth}" height="${height}" ` +
    'font-family="system-ui, sans-serif" font-size="10" role="img">' +
    parts.join('') +
    '</svg>'
  );
}
