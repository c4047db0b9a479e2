// The side-by-side advantages as one SVG string: a row per scheme, a column per completion (its
// index, prompt id and reward above it), each cell coloured by the completion's advantage (blue above
// zero, red below, grey for NaN) with the value written in it; a refused row says so across its
// cells. Completions wrap into bands so the figure is never wider than `width`. Pure: draws what
// core/grpo/compare.ts computed.
import type { CompareInput, Comparison } from '../../core/grpo/compare.ts';

export interface AdvantagesFigureWords {
  completion: string;
  prompt: string;
  reward: string;
  /** Written across the row of a scheme whose framework refuses the batch. */
  refused: string;
}

const CELL = 34;
const ROW = 20;
const HEAD = 44;
const GAP = 14;
const FONT = 11;
/** The colour scale saturates at this |advantage|. */
const FULL = 2;

/** A label's width at the figure's font, generously (a wide glyph and CJK text count as one em). */
const textWidth = (text: string, size = FONT) => [...text].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? size : size * 0.62), 0);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An advantage as a cell shows it: two decimals, a true minus sign, 0 without a sign. */
export function cellText(a: number | null): string {
  if (a === null) return 'NaN';
  const t = a.toFixed(Math.abs(a) >= 99.5 ? 0 : Math.abs(a) >= 9.95 ? 1 : 2);
  if (/^-?0\.00$/.test(t)) return '0';
  return t.replace('-', '−');
}

/** A reward as the header shows it: at most 3 significant digits. */
const rewardText = (r: number) => String(Number(r.toPrecision(3))).replace('-', '−');

/** The cell's fill: white at 0, towards blue (positive) or red (negative) with |a|, grey for NaN. */
export function cellFill(a: number | null): string {
  if (a === null) return '#d9d9d9';
  // A value written as 0 is drawn as 0 (a flat group's mean can leave −1e-17).
  if (cellText(a) === '0') return '#fff';
  const t = Math.min(1, Math.abs(a) / FULL);
  const [r, g, b] = a >= 0 ? [33, 102, 172] : [178, 24, 43];
  const mix = (c: number) => Math.round(255 + (c - 255) * (0.15 + 0.85 * t));
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

/** Dark text on a light cell, white on a saturated one. */
const ink = (a: number | null) => (a !== null && Math.abs(a) / FULL > 0.55 ? '#fff' : '#1a1a1a');

/** The figure for `width` px of room (at least one completion per band). */
export function advantagesFigure(input: CompareInput, result: Comparison, words: AdvantagesFigureWords, width: number): string {
  const n = input.rewards.length;
  const labels = result.columns.map((c) => (c.warnings.length ? `${c.scheme} !` : c.scheme));
  const label = Math.ceil(Math.max(...[words.completion, words.prompt, words.reward, ...labels].map((t) => textWidth(t)))) + 10;
  // As many completions per band as fit, then the same number in every band (12 in room for 8: two bands of 6).
  const bands = Math.ceil(n / Math.max(1, Math.min(n, Math.floor((width - label - 4) / CELL))));
  const perBand = Math.ceil(n / bands);
  const bandHeight = HEAD + result.columns.length * ROW;
  const w = label + Math.min(n, perBand) * CELL + 4;
  const h = bands * bandHeight + (bands - 1) * GAP + 4;
  const parts: string[] = [
    `<svg class="advantages-figure" data-per-band="${perBand}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" ` +
      `font-family="system-ui, sans-serif" font-size="${FONT}">`,
  ];
  for (let band = 0; band < bands; band++) {
    const y0 = band * (bandHeight + GAP);
    const first = band * perBand;
    const last = Math.min(n, first + perBand);
    parts.push(
      `<text x="${label - 6}" y="${y0 + 12}" text-anchor="end" fill="#555">${esc(words.completion)}</text>`,
      `<text x="${label - 6}" y="${y0 + 25}" text-anchor="end" fill="#555">${esc(words.prompt)}</text>`,
      `<text x="${label - 6}" y="${y0 + 38}" text-anchor="end" fill="#555">${esc(words.reward)}</text>`,
    );
    for (let i = first; i < last; i++) {
      const x = label + (i - first) * CELL;
      const cx = x + CELL / 2;
      // A line between one prompt's completions and the next prompt's.
      if (i > first && input.promptIds[i] !== input.promptIds[i - 1])
        parts.push(`<line x1="${x}" x2="${x}" y1="${y0 + 2}" y2="${y0 + bandHeight}" stroke="#777" stroke-width="1.5"/>`);
      parts.push(
        `<text x="${cx}" y="${y0 + 12}" text-anchor="middle" fill="#555">${i}</text>`,
        `<text class="prompt" x="${cx}" y="${y0 + 25}" text-anchor="middle" fill="#222">${input.promptIds[i]}</text>`,
        `<text class="reward" x="${cx}" y="${y0 + 38}" text-anchor="middle" fill="#222" font-weight="600">${rewardText(input.rewards[i]!)}</text>`,
      );
    }
    result.columns.forEach((col, s) => {
      const y = y0 + HEAD + s * ROW;
      parts.push(
        `<text class="scheme" translate="no" x="${label - 6}" y="${y + ROW / 2 + 4}" text-anchor="end" fill="#222">${esc(labels[s]!)}</text>`,
      );
      if (!col.advantages) {
        const x = label;
        const span = (last - first) * CELL;
        parts.push(
          `<rect x="${x + 0.5}" y="${y + 0.5}" width="${span - 1}" height="${ROW - 1}" fill="#f3f3f3" stroke="#bbb" stroke-dasharray="3 2"/>`,
          `<text class="refused" x="${x + 6}" y="${y + ROW / 2 + 4}" fill="#555">${esc(words.refused)}</text>`,
        );
        return;
      }
      for (let i = first; i < last; i++) {
        const a = col.advantages[i]!;
        const x = label + (i - first) * CELL;
        parts.push(
          `<g class="cell" data-scheme="${esc(col.scheme)}" data-i="${i}" translate="no">` +
            `<title>${esc(`${col.scheme} · #${i}: ${a === null ? 'NaN' : a}`)}</title>` +
            `<rect x="${x + 0.5}" y="${y + 0.5}" width="${CELL - 1}" height="${ROW - 1}" fill="${cellFill(a)}"/>` +
            `<text class="value" x="${x + CELL / 2}" y="${y + ROW / 2 + 4}" text-anchor="middle" font-size="10" fill="${ink(a)}">${cellText(a)}</text></g>`,
        );
      }
    });
  }
  parts.push('</svg>');
  return parts.join('');
}
