// One training step's micro-batches as the framework packs them, one SVG string: a column per
// data-parallel rank, a strip per micro-batch, and in each strip one bar per sample laid end to end,
// its length its tokens (so a strip is as long as the micro-batch's tokens), coloured by prompt
// (`data-prompt`: the element lights up a prompt's copies). The budget the framework packs under is
// the dashed line; a micro-batch a rank runs with no sample (the ranks run the data-parallel most) is
// hatched, and its rank's header says so. Pure: draws the core's PackedStep. <grpo-framework> draws a home's step with
// it, <grpo-steps> an optimizer step of verl's (use_dynamic_bsz); both light a prompt's copies with the rule below.
import type { TokenBudget } from '../../core/frameworks/budget.ts';
import type { FrameworkStep, PackedStep } from '../../core/frameworks/types.ts';
import { esc, promptFill, promptStroke } from './tile-colour.ts';

export interface PackingFigureWords {
  rank: (r: number) => string;
  /** "3 micro-batches" (a rank's own count, without padding ones). */
  microBatches: (n: number) => string;
  /** "+1 padding" in a rank's header. */
  padding: (n: number) => string;
  /** The hatched strip's label. */
  paddingStrip: string;
  micro: (m: number) => string;
  /** A bar's tooltip. */
  bar: (prompt: number | null, sample: number, tokens: number, micro: number, rank: number) => string;
  budget: (tokens: number) => string;
  /** "+ 120 more micro-batches" under a column cut short. */
  more: (n: number) => string;
  moreRanks: (n: number) => string;
}

/** Micro-batches a column draws (the rest are counted). */
export const SHOWN_MICRO = 16;
/** Ranks drawn. */
export const SHOWN_PACK_RANKS = 8;
/** A rank's column's width at most, and at least (a narrow column gets narrower bars before ranks go on a new line). */
const COL_W = 190;
const COL_W_MIN = 150;
/** Room between two lines of ranks (a narrow column puts the ranks under one another). */
const LINE_GAP = 12;
const LABEL_W = 34;
const STRIP_H = 16;
const STRIP_GAP = 4;
const TOP = 34;

/** The style that lights prompt `p`'s bars (and tiles) in a view's `.figure`s: its own outlined, every other one faded. */
export const litPromptStyle = (p: number) =>
  `.figure svg [data-prompt]:not([data-prompt="${p}"]) { opacity: 0.28; } .figure svg [data-prompt="${p}"] rect { stroke: #000; stroke-width: 2; }`;

/** The prompt of the bar or tile an event happened on (its `data-prompt`), or null. */
export function promptAt(e: Event): string | null {
  const el = (e.composedPath()[0] as Element | undefined)?.closest?.('[data-prompt]');
  return el ? el.getAttribute('data-prompt') : null;
}

/** Samples of a rank's m-th micro-batch, or null for one it runs with no sample (padding). */
function samplesOf(packed: PackedStep, r: number, m: number): number[] | null {
  const mb = packed.ranks[r]?.[m];
  return mb && mb.length > 0 ? mb : null;
}

/**
 * The SVG of one step's packing, `width` CSS px wide at most (its column): as many ranks side by side as fit, the
 * rest on lines under them, so every rank's micro-batches and the budget line are in view without scrolling.
 */
export function packingFigure(
  step: Pick<FrameworkStep, 'seqlens'>,
  packed: PackedStep,
  budget: TokenBudget | null,
  promptOf: ReadonlyMap<number, number>,
  words: PackingFigureWords,
  width = Number.POSITIVE_INFINITY,
): string {
  const seqlens = step.seqlens ?? [];
  const W = packed.ranks.length;
  const shownRanks = Math.min(W, SHOWN_PACK_RANKS);
  const perRank = Math.max(packed.microBatchesPerRank, ...packed.ranks.map((r) => r.length));
  const shownMicro = Math.min(perRank, SHOWN_MICRO);
  const tokens = (mb: readonly number[]) => mb.reduce((a, i) => a + (seqlens[i] ?? 0), 0);
  let most = budget?.tokens ?? 0;
  for (const rank of packed.ranks) for (const mb of rank.slice(0, SHOWN_MICRO)) most = Math.max(most, tokens(mb));
  const perLine = Math.max(1, Math.min(shownRanks, Math.floor((width - 4) / COL_W_MIN)));
  const colW = Math.max(COL_W_MIN, Math.min(COL_W, Math.floor((width - 4) / perLine)));
  const barW = colW - LABEL_W - 8;
  const scale = most > 0 ? barW / most : 0;
  const lineH = TOP + shownMicro * (STRIP_H + STRIP_GAP) + (perRank > shownMicro ? 16 : 0);
  const lines = Math.ceil(shownRanks / perLine);
  const height = lines * lineH + (lines - 1) * LINE_GAP + (W > shownRanks ? 16 : 0) + 6;
  const figureWidth = perLine * colW + 4;
  const parts = [
    `<svg class="packing-figure" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${figureWidth} ${height}" width="${figureWidth}" height="${height}" ` +
      'font-family="system-ui, sans-serif" font-size="10" role="img">',
    '<defs><pattern id="pad" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect width="2.5" height="6" fill="#b33" fill-opacity="0.45"/></pattern></defs>',
  ];
  for (let r = 0; r < shownRanks; r++) {
    const x0 = 4 + (r % perLine) * colW;
    const top = Math.floor(r / perLine) * (lineH + LINE_GAP);
    const own = packed.ranks[r]!.filter((mb) => mb.length > 0).length;
    const pads = packed.microBatchesPerRank - own;
    parts.push(
      `<g class="rank-head${pads > 0 ? ' pads' : ''}" data-rank="${r}">` +
        `<text x="${x0}" y="${top + 12}" font-size="11" font-weight="600" fill="#222">${esc(words.rank(r))}</text>` +
        `<text x="${x0}" y="${top + 26}" fill="${pads > 0 ? '#a00' : '#555'}">` +
        `${esc(words.microBatches(own))}${pads > 0 ? ` ${esc(words.padding(pads))}` : ''}</text></g>`,
    );
    for (let m = 0; m < shownMicro; m++) {
      const y = top + TOP + m * (STRIP_H + STRIP_GAP);
      const bx = x0 + LABEL_W;
      parts.push(`<text x="${x0}" y="${y + 11.5}" fill="#555">${esc(words.micro(m))}</text>`);
      const mb = samplesOf(packed, r, m);
      if (mb === null) {
        if (m < packed.microBatchesPerRank)
          parts.push(
            `<g class="pad-mb"><rect x="${bx}" y="${y}" width="${barW}" height="${STRIP_H}" fill="url(#pad)" stroke="#b33" stroke-width="0.6"/>` +
              `<text x="${bx + 4}" y="${y + 11.5}" fill="#700">${esc(words.paddingStrip)}</text></g>`,
          );
        continue;
      }
      let x = bx;
      parts.push(`<g class="mb" data-rank="${r}" data-micro="${m}" data-tokens="${tokens(mb)}">`);
      for (const i of mb) {
        const w = (seqlens[i] ?? 0) * scale;
        const prompt = promptOf.get(i) ?? null;
        const fill = prompt === null ? '#ddd' : promptFill(prompt);
        const stroke = prompt === null ? '#888' : promptStroke(prompt);
        parts.push(
          `<g class="bar"${prompt === null ? '' : ` data-prompt="${prompt}"`} data-sample="${i}">` +
            `<title>${esc(words.bar(prompt, i, seqlens[i] ?? 0, m, r))}</title>` +
            `<rect x="${x.toFixed(1)}" y="${y}" width="${Math.max(0.5, w).toFixed(1)}" height="${STRIP_H}" ` +
            `fill="${fill}" stroke="${stroke}" stroke-width="0.6"/>` +
            (w >= 22 && prompt !== null
              ? `<text x="${(x + w / 2).toFixed(1)}" y="${y + 11.5}" text-anchor="middle" fill="#111">${prompt}</text>`
              : '') +
            '</g>',
        );
        x += w;
      }
      parts.push('</g>');
    }
    if (budget && scale > 0) {
      const bx = x0 + LABEL_W + budget.tokens * scale;
      const yEnd = top + TOP + shownMicro * (STRIP_H + STRIP_GAP) - STRIP_GAP;
      parts.push(
        `<line class="budget" x1="${bx.toFixed(1)}" x2="${bx.toFixed(1)}" y1="${top + TOP - 4}" y2="${yEnd + 2}" ` +
          'stroke="#c00" stroke-width="1.2" stroke-dasharray="4 3">' +
          `<title>${esc(words.budget(budget.tokens))}</title></line>`,
      );
    }
    if (perRank > shownMicro) {
      const y = top + TOP + shownMicro * (STRIP_H + STRIP_GAP) + 10;
      parts.push(`<text class="more" x="${x0}" y="${y}" fill="#555">${esc(words.more(perRank - shownMicro))}</text>`);
    }
  }
  if (W > shownRanks) parts.push(`<text x="4" y="${height - 6}" fill="#555">${esc(words.moreRanks(W - shownRanks))}</text>`);
  parts.push('</svg>');
  return parts.join('');
}
