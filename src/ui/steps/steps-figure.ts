// The micro-step timeline of a steps report as one SVG string: a row per rank, one block per
// micro-step (coloured by the policy version that generated its completions, hatched when it trains
// off-policy), the optimizer steps as bands, and inside each block one bar per completion whose
// height is its weight ÷ the global token mean's (the dashed line is 1). Pure: draws core's data.
import type { NormaliserTerms } from '../../core/messages/steps.ts';
import type { StepsReport } from '../../core/steps/index.ts';

export interface FigureWords {
  rank: (r: number) => string;
  step: (i: number) => string;
  neverApplied: string;
  block: (micro: number, rank: number, policy: number, train: number, normaliser: string) => string;
  bar: (completion: number, tokens: number, ratio: string) => string;
  /** A micro-batch's normaliser in the page's language. */
  normaliser: (terms: NormaliserTerms) => string;
}

const BLOCK = 64;
const GAP = 6;
const ROW = 74;
const BAR_MAX = 50;
const LEFT = 64;
const TOP = 26;
/** Bar heights are drawn up to this multiple of the token mean (taller bars are capped and marked). */
const RATIO_MAX = 2.5;

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#e15759', '#9c755f'];
const colour = (version: number) => PALETTE[version % PALETTE.length]!;
/** A label's width at the figure's 11 px font, generously (a wide glyph and CJK text count as one em). */
const labelWidth = (text: string) => [...text].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? 11 : 6.6), 0);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The SVG of the first `maxSteps` optimizer steps, at most `maxWidth` px wide where it can be: the
 * optimizer steps wrap onto further lines (each with its rank labels) instead of running past a
 * phone's column; one step wider than the column is drawn whole.
 */
export function stepsFigure(report: StepsReport, words: FigureWords, maxSteps = 6, maxWidth = Number.POSITIVE_INFINITY): string {
  const steps = report.steps.slice(0, maxSteps);
  const W = report.config.ranks;
  const labels = steps.map((s) => (s.applied ? `${words.step(s.index)} ×${s.updateScale.toFixed(2)}` : words.neverApplied));
  const lineH = TOP + W * ROW + 10;
  // Each optimizer step's band: where it starts (x, and its line), its micro-steps' x.
  const x0 = new Map<number, { x: number; y: number }>();
  const bands: { x: number; y: number; micro: number[] }[] = [];
  let x = LEFT;
  let line = 0;
  let width = 0;
  steps.forEach((s, i) => {
    const micro = [...new Set(s.microBatches.map((b) => b.microStep))];
    // A band is at least as wide as its label (a step of one micro-step is narrower than "step 10 ×1.00").
    const bandW = Math.max(micro.length * (BLOCK + GAP), labelWidth(labels[i]!) + 8);
    if (i > 0) x += GAP * 2;
    if (i > 0 && x + bandW + 10 > maxWidth) {
      line++;
      x = LEFT;
    }
    const y = line * lineH;
    micro.forEach((m, j) => x0.set(m, { x: x + j * (BLOCK + GAP), y }));
    bands.push({ x, y, micro });
    x += bandW;
    width = Math.max(width, x + 10);
  });
  const height = (line + 1) * lineH;
  const parts: string[] = [
    `<svg class="steps-figure" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
      'font-family="system-ui, sans-serif" font-size="11">',
    '<defs><pattern id="off" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect width="3" height="6" fill="#fff" fill-opacity="0.45"/></pattern></defs>',
  ];
  // Optimizer steps: a band over their micro-steps.
  steps.forEach((s, i) => {
    const band = bands[i]!;
    const a = band.x - 3;
    const b = Math.max(x0.get(band.micro.at(-1)!)!.x + BLOCK + 3, a + labelWidth(labels[i]!) + 8);
    const label = labels[i]!;
    parts.push(
      `<rect x="${a}" y="${band.y + 4}" width="${b - a}" height="${lineH - 8}" rx="4" fill="${s.applied ? '#f4f4f4' : '#fbe9e9'}" stroke="#ccc"/>`,
      `<text class="update" x="${a + 4}" y="${band.y + 17}" fill="#333">${esc(label)}</text>`,
    );
  });
  for (let l = 0; l <= line; l++) {
    for (let r = 0; r < W; r++) {
      const y = l * lineH + TOP + r * ROW;
      parts.push(`<text x="4" y="${y + ROW / 2}" fill="#333">${esc(words.rank(r))}</text>`);
    }
  }
  for (const s of steps) {
    for (const m of s.microBatches) {
      const { x: bx, y: lineY } = x0.get(m.microStep)!;
      const by = lineY + TOP + m.rank * ROW;
      const off = m.trainVersion > m.policyVersion;
      parts.push(
        `<g><title>${esc(words.block(m.microStep, m.rank, m.policyVersion, m.trainVersion, words.normaliser(m.normaliserTerms)))}</title>` +
          `<rect x="${bx}" y="${by}" width="${BLOCK}" height="${ROW - 8}" rx="3" fill="${colour(m.policyVersion)}" fill-opacity="0.28" ` +
          `stroke="${colour(m.policyVersion)}"/>` +
          (off ? `<rect x="${bx}" y="${by}" width="${BLOCK}" height="${ROW - 8}" rx="3" fill="url(#off)"/>` : '') +
          `<text x="${bx + 3}" y="${by + 11}" fill="#222">${m.microStep} · v${m.policyVersion}${off ? `→${m.trainVersion}` : ''}</text></g>`,
      );
      const base = by + ROW - 11;
      const one = base - BAR_MAX / RATIO_MAX;
      parts.push(`<line x1="${bx + 2}" x2="${bx + BLOCK - 2}" y1="${one}" y2="${one}" stroke="#555" stroke-dasharray="2 2"/>`);
      const n = m.rows.length;
      const slot = (BLOCK - 6) / Math.max(1, n);
      m.rows.forEach((i, j) => {
        const row = s.rows[i]!;
        const ratio = row.intendedWeight > 0 ? row.weight / row.intendedWeight : 0;
        const h = (Math.min(ratio, RATIO_MAX) / RATIO_MAX) * BAR_MAX;
        parts.push(
          `<rect x="${(bx + 3 + j * slot + slot * 0.15).toFixed(1)}" y="${(base - h).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" ` +
            `height="${h.toFixed(1)}" fill="${colour(m.policyVersion)}"${ratio > RATIO_MAX ? ' stroke="#c00"' : ''}>` +
            `<title>${esc(words.bar(row.completion, row.tokens, ratio.toFixed(3)))}</title></rect>`,
        );
      });
    }
  }
  parts.push('</svg>');
  return parts.join('');
}
