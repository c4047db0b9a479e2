// Every framework's token weights beside the advantages, as one SVG string: a row per framework, a column per
// completion (its index, prompt id and tokens above it). `mode` 'weight': each cell the weight of one of the
// completion's tokens × the global token mean's (1: every token the same; darker above 1, lighter below);
// 'total': what the completion adds to the update, advantage × weight × tokens × n (n completions: with equal
// lengths and a token mean it is the advantage), blue above 0 and red below as the advantages figure colours them.
// A diffusion trainer's row (unit 'sample': no tokens) weighs the whole sample, × n, and its label says per sample.
// Completions wrap into bands (completion-grid.ts) so the figure is never wider than `width`. Pure: draws what
// core/grpo/compare-weights.ts computed.
import type { WeightsComparison } from '../../core/grpo/compare-weights.ts';
import type { CompareInput } from '../../core/grpo/compare.ts';
import { cellFill, cellText } from './advantages-figure.ts';
import { completionGrid, esc } from './completion-grid.ts';

export interface WeightsFigureWords {
  completion: string;
  prompt: string;
  tokens: string;
  /** Written across the row of a framework that refuses the batch. */
  refused: string;
  /** After the label of a row whose weight is the whole sample's (a diffusion trainer), and in its cells' tooltips. */
  perSample: string;
  /** In the tooltips of a row whose weight is one token's. */
  perToken: string;
}

export type WeightsMode = 'weight' | 'total';

/**
 * A cell's value as written: the weight × the global token mean's (a per-sample row: × n), or the total × n, as the
 * advantages' cells write numbers.
 */
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
  return completionGrid({
    svgAttrs: `class="weights-figure" data-mode="${mode}"`,
    promptIds: input.promptIds,
    words,
    head: { label: words.tokens, cls: 'tokens', value: (i) => String(w.lengths[i]) },
    rows: w.columns.map((col, s) => ({
      label: col.unit === 'sample' ? `${col.name} · ${words.perSample}` : col.name,
      labelClass: 'framework',
      cell:
        weightCell(w, s, 0, mode) === null
          ? null
          : (i: number) => {
              const t = col.totals?.[i] ?? null;
              const unit = col.unit === 'sample' ? words.perSample : words.perToken;
              const dark = mode === 'total' && t !== null && Math.abs(t * n) > 1.1;
              return {
                attrs: `class="wcell" data-framework="${esc(col.name)}" data-i="${i}"`,
                title: `${col.name} · #${i}: ${mode === 'weight' ? `${col.weights![i]} ${unit}` : String(t)}`,
                fill: mode === 'weight' ? weightFill(col.relative![i]!) : cellFill(t === null ? null : t * n),
                ink: dark ? '#fff' : '#1a1a1a',
                text: weightCell(w, s, i, mode)!,
              };
            },
    })),
    width,
  });
}
