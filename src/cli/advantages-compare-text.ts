// The text of `grpo-sandbox advantages --compare`: one row per completion (its prompt id and
// reward), one column per scheme, three summary rows, then a line per scheme saying whose it is,
// how it groups, and what it refuses or flags. Draws what core/grpo/compare.ts computed.
import type { CompareInput, Comparison, CompareWarning, Grouping } from '../core/grpo/compare.ts';
import { ZERO } from '../core/grpo/compare.ts';

/** How a scheme puts completions into groups, in the words `advantages --compare` and `layout --sampler HOME` print. */
export const GROUPING: Record<Grouping, string> = {
  position: 'groups by position (runs of k)',
  uid: 'groups by uid (one per draw of a prompt)',
  'prompt-content': 'groups by prompt content',
  'group-object': 'groups by the group object it dispatched',
  batch: 'normalises the whole batch as one group',
};

/** At most this many mixed groups are named per scheme. */
const NAMED = 3;

/** A number as the table prints it: advantages to 3 decimals, with their sign. */
const cell = (a: number | null) => (a === null ? 'NaN' : (Object.is(a, -0) || Math.abs(a) < 5e-4 ? 0 : a).toFixed(3));
/** A reward as given, to at most 6 significant digits. */
const reward = (r: number) => String(Number(r.toPrecision(6)));

function warningText(w: CompareWarning, k: number): string {
  if (w.kind === 'framework') return w.text;
  const named = w.groups
    .slice(0, NAMED)
    .map((g) => `group ${g.group} (positions ${g.positions.join('–')}) holds ${g.promptIds.join(',')}`)
    .join('; ');
  const more = w.groups.length > NAMED ? `; and ${w.groups.length - NAMED} more` : '';
  return `MIXED: ${w.groups.length} run(s) of k=${k} hold more than one prompt id: ${named}${more}`;
}

export function renderComparison(input: CompareInput, c: Comparison): string {
  const n = input.rewards.length;
  const prompts = new Set(input.promptIds).size;
  const head = ['#', 'prompt', 'reward', ...c.columns.map((col) => col.scheme)];
  const rows = input.rewards.map((r, i) => [
    String(i),
    String(input.promptIds[i]),
    reward(r),
    ...c.columns.map((col) => (col.advantages ? cell(col.advantages[i]!) : '—')),
  ]);
  const foot: [string, string[]][] = c.columns.length
    ? [
        [`best #${c.best}`, c.columns.map((col) => (col.summary ? cell(col.summary.best) : '—'))],
        [`worst #${c.worst}`, c.columns.map((col) => (col.summary ? cell(col.summary.worst) : '—'))],
        [`|A|<${ZERO.toExponential(0)}`, c.columns.map((col) => (col.summary ? String(col.summary.zero) : '—'))],
      ]
    : [];
  const widths = head.map((h, j) =>
    Math.max(h.length, ...rows.map((row) => row[j]!.length), ...foot.map(([, v]) => (j < 3 ? 0 : v[j - 3]!.length))),
  );
  // A summary row's label spans the first three columns.
  const labelWidth = Math.max(widths[0]! + widths[1]! + widths[2]! + 4, ...foot.map(([label]) => label.length));
  widths[2] = labelWidth - widths[0]! - widths[1]! - 4;
  const line = (row: string[]) => row.map((x, j) => x.padStart(widths[j]!)).join('  ');
  const footLine = ([label, values]: [string, string[]]) =>
    [label.padEnd(labelWidth), ...values.map((x, j) => x.padStart(widths[j + 3]!))].join('  ');
  const out = [
    `advantages --compare: ${n} completions of ${prompts} prompts, k=${input.k}; one column per scheme, advantages to 3 decimals ` +
      '(NaN: the framework divides 0 by 0; —: it refuses this batch)',
    '',
    line(head),
    ...rows.map(line),
    '-'.repeat(widths.reduce((a, b) => a + b + 2, -2)),
    ...foot.map(footLine),
    '',
    `best, worst: the advantage of the first completion with the highest and the lowest reward; |A|<${ZERO.toExponential(0)}: ` +
      'how many advantages are 0 (to within 1e-6): completions whose policy-gradient term vanishes.',
    '',
  ];
  const name = Math.max(...c.columns.map((col) => col.scheme.length));
  for (const col of c.columns) {
    const what = col.refused ? `refuses this batch: ${col.refused}` : GROUPING[col.grouping];
    out.push(`${col.scheme.padEnd(name)}  ${col.framework} ${col.version}, ${what}`);
    for (const w of col.warnings) out.push(`${' '.repeat(name)}  ! ${warningText(w, input.k)}`);
  }
  return `${out.join('\n')}\n`;
}
