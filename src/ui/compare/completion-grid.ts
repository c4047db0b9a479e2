// The banded grid both comparison figures draw (advantages-figure.ts, weights-figure.ts): a column per completion
// (its index, prompt id and one more value above it), a row per scheme or framework with a coloured cell per
// completion, a line between one prompt's completions and the next prompt's, and a refused row said across its
// cells. Completions wrap into bands, the same number in each, so the figure is never wider than `width`.

const CELL = 34;
const ROW = 20;
const HEAD = 44;
const GAP = 14;
export const FONT = 11;

/** A label's width at the figure's font, generously (a wide glyph and CJK text count as one em). */
const textWidth = (text: string, size = FONT) => [...text].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? size : size * 0.62), 0);
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One cell: the attributes of its group (class, data-*), its tooltip, fill, ink and written value. */
export interface GridCell {
  attrs: string;
  title: string;
  fill: string;
  ink: string;
  text: string;
}

export interface GridRow {
  label: string;
  /** The class of the row's label ('scheme', 'framework'). */
  labelClass: string;
  /** Completion i's cell, or null where the framework refuses the batch. */
  cell: ((i: number) => GridCell) | null;
}

export interface CompletionGrid {
  /** The svg element's own attributes (its class, data-*). */
  svgAttrs: string;
  promptIds: readonly number[];
  words: { completion: string; prompt: string; refused: string };
  /** The third header row: its label, its class and completion i's value. */
  head: { label: string; cls: string; value: (i: number) => string };
  rows: readonly GridRow[];
  width: number;
}

/** The grid as one SVG string for `width` px of room (at least one completion per band). */
export function completionGrid(g: CompletionGrid): string {
  const n = g.promptIds.length;
  const label =
    Math.ceil(Math.max(...[g.words.completion, g.words.prompt, g.head.label, ...g.rows.map((r) => r.label)].map((t) => textWidth(t)))) + 10;
  // As many completions per band as fit, then the same number in every band (12 in room for 8: two bands of 6).
  const bands = Math.ceil(n / Math.max(1, Math.min(n, Math.floor((g.width - label - 4) / CELL))));
  const perBand = Math.ceil(n / bands);
  const bandHeight = HEAD + g.rows.length * ROW;
  const w = label + Math.min(n, perBand) * CELL + 4;
  const h = bands * bandHeight + (bands - 1) * GAP + 4;
  const parts: string[] = [
    `<svg ${g.svgAttrs} data-per-band="${perBand}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" ` +
      `height="${h}" font-family="system-ui, sans-serif" font-size="${FONT}">`,
  ];
  for (let band = 0; band < bands; band++) {
    const y0 = band * (bandHeight + GAP);
    const first = band * perBand;
    const last = Math.min(n, first + perBand);
    parts.push(
      `<text x="${label - 6}" y="${y0 + 12}" text-anchor="end" fill="#555">${esc(g.words.completion)}</text>`,
      `<text x="${label - 6}" y="${y0 + 25}" text-anchor="end" fill="#555">${esc(g.words.prompt)}</text>`,
      `<text x="${label - 6}" y="${y0 + 38}" text-anchor="end" fill="#555">${esc(g.head.label)}</text>`,
    );
    for (let i = first; i < last; i++) {
      const x = label + (i - first) * CELL;
      const cx = x + CELL / 2;
      // A line between one prompt's completions and the next prompt's.
      if (i > first && g.promptIds[i] !== g.promptIds[i - 1])
        parts.push(`<line x1="${x}" x2="${x}" y1="${y0 + 2}" y2="${y0 + bandHeight}" stroke="#777" stroke-width="1.5"/>`);
      parts.push(
        `<text x="${cx}" y="${y0 + 12}" text-anchor="middle" fill="#555">${i}</text>`,
        `<text class="prompt" x="${cx}" y="${y0 + 25}" text-anchor="middle" fill="#222">${g.promptIds[i]}</text>`,
        `<text class="${g.head.cls}" x="${cx}" y="${y0 + 38}" text-anchor="middle" fill="#222" font-weight="600">${g.head.value(i)}</text>`,
      );
    }
    g.rows.forEach((row, s) => {
      const y = y0 + HEAD + s * ROW;
      parts.push(
        `<text class="${row.labelClass}" translate="no" x="${label - 6}" y="${y + ROW / 2 + 4}" text-anchor="end" fill="#222">${esc(row.label)}</text>`,
      );
      if (!row.cell) {
        parts.push(
          `<rect x="${label + 0.5}" y="${y + 0.5}" width="${(last - first) * CELL - 1}" height="${ROW - 1}" ` +
            'fill="#f3f3f3" stroke="#bbb" stroke-dasharray="3 2"/>',
          `<text class="refused" x="${label + 6}" y="${y + ROW / 2 + 4}" fill="#555">${esc(g.words.refused)}</text>`,
        );
        return;
      }
      for (let i = first; i < last; i++) {
        const c = row.cell(i);
        const x = label + (i - first) * CELL;
        parts.push(
          `<g ${c.attrs} translate="no"><title>${esc(c.title)}</title>` +
            `<rect x="${x + 0.5}" y="${y + 0.5}" width="${CELL - 1}" height="${ROW - 1}" fill="${c.fill}"/>` +
            `<text class="value" x="${x + CELL / 2}" y="${y + ROW / 2 + 4}" text-anchor="middle" font-size="10" fill="${c.ink}">${c.text}</text></g>`,
        );
      }
    });
  }
  parts.push('</svg>');
  return parts.join('');
}
