// Every framework's token weights beside the advantages, as one SVG string: a row per framework, a column per
// completion (its index, prompt id and tokens above it). `mode` 'weight': each cell the weight of one of the
// completion's tokens × the global token mean's (1: every token the same; darker above 1, lighter below);
// 'total': what the completion adds to the update, advantage × weight × tokens × n (n completions: with equal
// lengths and a token mean it is the advantage), blue above 0 and red below as the advantages figure colours them.
// Completions wrap into bands so the figure is never wider than `width`. Pure: draws what
// core/grpo/compare-weights.ts computed.
import type { WeightsComparison } from '../../core/grpo/compare-weights.ts';
import type { CompareInput } from '../../core/grpo/compare.ts';
import { cellFill, cellText } from './advantages-figure.ts';

export interface WeightsFigureWords {
  completion: string;
  prompt: string;
  tokens: string;
  /** Written across the row of a framework that refuses the batch. */
  refused: string;
}

export type WeightsMode = 'weight' | 'total';

const CELL = 34;
const ROW = 20;
const HEAD = 44;
const GAP = 14;
const FONT = 11;

const textWidth = (text: string, size = FONT) => [...text].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? size : size * 0.62), 0);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A cell's value as written: the weight × the global token mean's, or the total × n, as the advantages' cells write numbers. */
export function weightCell(w: WeightsComparison, column: number, i: number, mode: WeightsMode): string | null {
  const c = w.columns[column]!;
  if (mode === 'weight') return c.relative ? cellText(c.relative[i]!) : null;
  if (!c.totals) return null;
  const t = c.totals[i]!;
  return cellText(t === null ? null : t * w.lengths.length);
}

/** A weight's fill: white at 1 (the global token mean), amber and darker above, teal and lighter below. */
function weightFill(x: number): string {
  if (cellText(x) === '1.00') return '#fff';
  const t = Math.min(1, Math.abs(Math.log2(x)) / 2);
  const [r, g, b] = x > 1 ? [191, 129, 45] : [53, 151, 143];
  const mix = (c: number) => Math.round(255 + (c - 255) * (0.15 + 0.7 * t));
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

/** The figure for `width` px of room (at least one completion per band). */
export function weightsFigure(
  input: CompareInput,
  w: WeightsComparison,
  words: WeightsFigureWords,
  width: number,
  mode: WeightsMode,
): string {
  const n = w.lengths.length;
  const labels = w.columns.map((c) => c.name);
  const label = Math.ceil(Math.max(...[words.completion, words.prompt, words.tokens, ...labels].map((t) => textWidth(t)))) + 10;
  const bands = Math.ceil(n / Math.max(1, Math.min(n, Math.floor((width - label - 4) / CELL))));
  const perBand = Math.ceil(n / bands);
  const bandHeight = HEAD + w.columns.length * ROW;
  const fw = label + Math.min(n, perBand) * CELL + 4;
  const h = bands * bandHeight + (bands - 1) * GAP + 4;
  const parts: string[] = [
    `<svg class="weights-figure" data-mode="${mode}" data-per-band="${perBand}" xmlns="http://www.w3.org/2000/svg" ` +
      `viewBox="0 0 ${fw} ${h}" width="${fw}" height="${h}" font-family="system-ui, sans-serif" font-size="${FONT}">`,
  ];
  for (let band = 0; band < bands; band++) {
    const y0 = band * (bandHeight + GAP);
    const first = band * perBand;
    const last = Math.min(n, first + perBand);
    parts.push(
      `<text x="${label - 6}" y="${y0 + 12}" text-anchor="end" fill="#555">${esc(words.completion)}</text>`,
      `<text x="${label - 6}" y="${y0 + 25}" text-anchor="end" fill="#555">${esc(words.prompt)}</text>`,
      `<text x="${label - 6}" y="${y0 + 38}" text-anchor="end" fill="#555">${esc(words.tokens)}</text>`,
    );
    for (let i = first; i < last; i++) {
      const x = label + (i - first) * CELL;
      const cx = x + CELL / 2;
      if (i > first && input.promptIds[i] !== input.promptIds[i - 1])
        parts.push(`<line x1="${x}" x2="${x}" y1="${y0 + 2}" y2="${y0 + bandHeight}" stroke="#777" stroke-width="1.5"/>`);
      parts.push(
        `<text x="${cx}" y="${y0 + 12}" text-anchor="middle" fill="#555">${i}</text>`,
        `<text x="${cx}" y="${y0 + 25}" text-anchor="middle" fill="#222">${input.promptIds[i]}</text>`,
        `<text class="tokens" x="${cx}" y="${y0 + 38}" text-anchor="middle" fill="#222" font-weight="600">${w.lengths[i]}</text>`,
      );
    }
    w.columns.forEach((col, s) => {
      const y = y0 + HEAD + s * ROW;
      parts.push(
        `<text class="framework" translate="no" x="${label - 6}" y="${y + ROW / 2 + 4}" text-anchor="end" fill="#222">${esc(labels[s]!)}</text>`,
      );
      if (weightCell(w, s, first, mode) === null) {
        parts.push(
          `<rect x="${label + 0.5}" y="${y + 0.5}" width="${(last - first) * CELL - 1}" height="${ROW - 1}" ` +
            'fill="#f3f3f3" stroke="#bbb" stroke-dasharray="3 2"/>',
          `<text class="refused" x="${label + 6}" y="${y + ROW / 2 + 4}" fill="#555">${esc(words.refused)}</text>`,
        );
        return;
      }
      for (let i = first; i < last; i++) {
        const text = weightCell(w, s, i, mode)!;
        const t = col.totals?.[i] ?? null;
        const fill = mode === 'weight' ? weightFill(col.relative![i]!) : cellFill(t === null ? null : t * n);
        const exact = mode === 'weight' ? `${col.weights![i]} per token` : String(t);
        const dark = mode === 'total' && t !== null && Math.abs(t * n) > 1.1;
        const x = label + (i - first) * CELL;
        parts.push(
          `<g class="wcell" data-framework="${esc(col.name)}" data-i="${i}" translate="no">` +
            `<title>${esc(`${col.name} · #${i}: ${exact}`)}</title>` +
            `<rect x="${x + 0.5}" y="${y + 0.5}" width="${CELL - 1}" height="${ROW - 1}" fill="${fill}"/>` +
            `<text class="value" x="${x + CELL / 2}" y="${y + ROW / 2 + 4}" text-anchor="middle" font-size="10" ` +
            `fill="${dark ? '#fff' : '#1a1a1a'}">${text}</text></g>`,
        );
      }
    });
  }
  parts.push('</svg>');
  return parts.join('');
}
