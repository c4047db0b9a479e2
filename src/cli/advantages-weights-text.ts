// The weights table of `grpo-sandbox advantages --compare` with lengths: one row per completion (its prompt, reward
// and tokens), one column per framework with the weight of each of its tokens against the global token mean, then
// the same columns with the completion's total (advantage × weight × tokens, × n to read like an advantage), a row summing them, and a line per
// framework saying its loss, its normaliser and the `steps` flags that give the same step. A diffusion trainer's column
// (unit 'sample': no tokens) is marked * and weighs the whole sample. Draws what core/grpo/compare-weights.ts computed.
import { WEIGHTS_ASSUMPTION, type WeightColumn, type WeightsComparison } from '../core/grpo/compare-weights.ts';
import type { CompareInput } from '../core/grpo/compare.ts';

/** A relative weight to 3 decimals. */
const rel = (x: number) => x.toFixed(3);
/** The mark on a column whose weight is per sample, not per token, and what it means. */
const PER_SAMPLE = '*';
const perSampleNote = (n: number) =>
  `${PER_SAMPLE} per sample, not per token: a diffusion trainer's loss has no tokens (steps takes no lengths for it), so its cell is ` +
  `the weight of the whole sample × n (${n}; 1 = the per-sample mean's) and its total advantage × weight × n`;

/** A total × n to 3 decimals, its sign kept, without −0. */
const total = (x: number | null) => (x === null ? 'NaN' : (Math.abs(x) < 5e-4 ? 0 : x).toFixed(3));

/** One table: the row heads, then a cell per column. */
function table(heads: string[], rows: string[][], foot: string[] | null): string[] {
  const all = foot ? [...rows, foot] : rows;
  const widths = heads.map((h, j) => Math.max(h.length, ...all.map((r) => r[j]!.length)));
  const line = (row: string[]) => row.map((x, j) => x.padStart(widths[j]!)).join('  ');
  const out = [line(heads), ...rows.map(line)];
  if (foot) out.push('-'.repeat(widths.reduce((a, b) => a + b + 2, -2)), line(foot));
  return out;
}

function lengthsLine(w: WeightsComparison): string {
  const s = w.lengthsSource;
  return s.kind === 'given'
    ? `completion tokens: the input's "lengths" (${w.tokens} in all)`
    : `completion tokens: none given, so seeded as steps seeds them: torch.randint(${s.low}, ${s.high + 1}) on MT19937(${s.seed}) ` +
        `(${w.tokens} in all; give "lengths" in the input for your own)`;
}

function columnLine(c: WeightColumn, name: number): string {
  const head = `${c.name.padEnd(name)}  ${c.framework}, loss ${c.loss}${c.switched ? ' (a switch, not the default)' : ' (its default)'}`;
  if (c.refused) return `${head}: refuses this batch: ${c.refused}`;
  const lengths = c.unit === 'sample' ? ' (one unit per sample, no --lengths)' : '';
  return `${head}, advantages of ${c.scheme}; normaliser ${c.normaliser ?? '—'}; steps --framework ${c.framework} ${c.cli.join(' ')}${lengths}`;
}

export function renderWeights(input: CompareInput, w: WeightsComparison): string {
  const names = w.columns.map((c) => c.name);
  const heads = ['#', 'prompt', 'reward', 'tokens', ...w.columns.map((c) => (c.unit === 'sample' ? `${c.name}${PER_SAMPLE}` : c.name))];
  const perSample = w.columns.some((c) => c.unit === 'sample') ? [perSampleNote(w.lengths.length)] : [];
  const lead = (i: number) => [
    String(i),
    String(input.promptIds[i]),
    String(Number(input.rewards[i]!.toPrecision(6))),
    String(w.lengths[i]),
  ];
  const weightRows = w.lengths.map((_, i) => [...lead(i), ...w.columns.map((c) => (c.relative ? rel(c.relative[i]!) : '—'))]);
  const n = w.lengths.length;
  const scaled = (x: number | null) => total(x === null ? null : x * n);
  const totalRows = w.lengths.map((_, i) => [...lead(i), ...w.columns.map((c) => (c.totals ? scaled(c.totals[i]!) : '—'))]);
  const sums = w.columns.map((c) => (c.totals ? scaled(c.totals.reduce<number>((a, b) => a + (b ?? 0), 0)) : '—'));
  const name = Math.max(...names.map((n) => n.length));
  return `${[
    '',
    `weights: the weight of each token of a completion in the applied update, × the global token mean's (1 / ${w.tokens}), ` +
      `under each framework's shipped default loss normaliser (trl-grpo: TRL's loss_type grpo, ms-swift's default)`,
    `assumes ${WEIGHTS_ASSUMPTION}; ${lengthsLine(w)}`,
    '',
    ...table(heads, weightRows, null),
    ...perSample,
    '',
    `totals: advantage × weight × tokens × n (n = ${n}), what each completion adds to the update (the framework's default advantages; ` +
      'with a token mean and equal tokens, the advantage itself; Σ: the batch in all)',
    '',
    ...table(heads, totalRows, ['', '', '', 'Σ', ...sums]),
    '',
    ...w.columns.map((c) => columnLine(c, name)),
  ].join('\n')}\n`;
}
