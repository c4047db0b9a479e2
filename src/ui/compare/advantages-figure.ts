// The side-by-side advantages as one SVG string (the banded grid of completion-grid.ts): a row per scheme, a column
// per completion (its index, prompt id and reward above it), each cell coloured by the completion's advantage (blue
// above zero, red below, grey for NaN) with the value written in it; a refused row says so across its cells. Pure:
// draws what core/grpo/compare.ts computed.
import type { CompareInput, Comparison } from '../../core/grpo/compare.ts';
import { completionGrid, esc } from './completion-grid.ts';

export interface AdvantagesFigureWords {
  completion: string;
  prompt: string;
  reward: string;
  /** Written across the row of a scheme whose framework refuses the batch. */
  refused: string;
}

/** The colour scale saturates at this |advantage|. */
const FULL = 2;

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
  return completionGrid({
    svgAttrs: 'class="advantages-figure"',
    promptIds: input.promptIds,
    words,
    head: { label: words.reward, cls: 'reward', value: (i) => rewardText(input.rewards[i]!) },
    rows: result.columns.map((col) => {
      const advantages = col.advantages;
      return {
        label: col.warnings.length ? `${col.scheme} !` : col.scheme,
        labelClass: 'scheme',
        cell: advantages
          ? (i: number) => {
              const a = advantages[i]!;
              return {
                attrs: `class="cell" data-scheme="${esc(col.scheme)}" data-i="${i}"`,
                title: `${col.scheme} · #${i}: ${a === null ? 'NaN' : a}`,
                fill: cellFill(a),
                ink: ink(a),
                text: cellText(a),
              };
            }
          : null,
      };
    }),
    width,
  });
}
