// Text rendering of a layout for `grpo-sandbox layout`: per-step tables, copies, gathers,
// regroup views, statistics and the seed-000 explanation.
import {
  copiesOf,
  explainLayout,
  gathers,
  promptsOfStep,
  regroup,
  regroupMethods,
  type Layout,
  type LayoutStats,
} from '../core/layout/index.ts';
import { ownedElsewhere, samplers } from '../core/samplers/index.ts';
import { LAYOUT_SETTINGS } from '../core/settings.ts';
import { say } from '../core/messages/index.ts';

/** Appends `lines` to `out` one by one (`out.push(...lines)` overflows the call stack on long reports). */
function append(out: string[], lines: string[]): void {
  for (const line of lines) out.push(line);
}

/** Renders rows of cells as left-aligned columns. */
function table(rows: string[][], indent = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((row) => indent + row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  '));
}

/** Wraps space-separated items to lines of about `width` characters. */
function wrap(items: string[], indent: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && indent.length + line.length + 1 + item.length > width) {
      lines.push(indent + line);
      line = item;
    } else line = line ? `${line} ${item}` : item;
  }
  if (line) lines.push(indent + line);
  return lines;
}

/** The whole text report for a layout. */
export function renderLayout(layout: Layout, stats: LayoutStats, presetName?: string): string {
  const { config } = layout;
  const p = (id: number) => `p${id}`;
  const out: string[] = [];
  // Only the settings this sampler reads (the others are refused when given).
  const spec = samplers[layout.sampler];
  const settings = LAYOUT_SETTINGS.filter(
    (s) =>
      s.kind !== 'sampler' && (!(s.field in spec.ignores) || s.field === 'batchesPerEpoch') && !ownedElsewhere(layout.sampler, s.field),
  ).map((s) => `${s.flag}=${config[s.field]}`);
  out.push(`${layout.sampler}: ${spec.title}${presetName ? `  [preset ${presetName}]` : ''}`);
  out.push(`settings: ${settings.join(' ')}`);
  for (const note of layout.notes) out.push(`note: ${say(note)}`);

  const all = gathers(layout);
  const seedNote = spec.seedNotes(layout);
  const stepWord = spec.stepNoun;
  for (const g of all) {
    for (const stepIndex of g.stepIndices) {
      const step = layout.steps[stepIndex]!;
      out.push(
        '',
        `epoch ${step.epoch}, ${stepWord} ${step.step}  (step ${stepIndex}${seedNote(stepIndex)}; rows = ranks, columns = slots)`,
      );
      const slots = step.ranks[0]?.length ?? 0;
      const rows = [['', ...Array.from({ length: slots }, (_, s) => `s${s}`)]];
      step.ranks.forEach((ids, r) => rows.push([`rank ${r}`, ...ids.map(p)]));
      append(out, table(rows));
      out.push(
        `  copies of each prompt (rank.slot → position in the ${layout.gatherScope === 'epoch' ? `epoch ${step.epoch}` : 'step'} gather):`,
      );
      const copyRows = promptsOfStep(layout, stepIndex).map((id) => {
        const places = copiesOf(layout, id, stepIndex);
        const ranks = [...new Set(places.map((c) => c.rank))];
        return [
          p(id),
          ...places.map((c) => `r${c.rank}.${c.slot}→${c.gatheredIndex}`),
          `(${ranks.length === 1 ? 'rank' : 'ranks'} ${ranks.join(',')})`,
        ];
      });
      append(out, table(copyRows, '    '));
    }

    const first = g.stepIndices[0]!;
    const last = g.stepIndices[g.stepIndices.length - 1]!;
    const span = first === last ? `step ${first}` : `steps ${first}–${last}`;
    out.push('', `gather of epoch ${g.epoch}, ${span}: ${g.samples.length} samples, rank-major`);
    if (g.stepIndices.length > 1) {
      out.push(`  each rank concatenates its ${stepWord}es first:`);
      const rows = Array.from({ length: config.ranks }, (_, r) => [
        `rank ${r}`,
        g.stepIndices.map((si) => layout.steps[si]!.ranks[r]!.map(p).join(' ')).join(' | '),
      ]);
      append(out, table(rows, '    '));
    }
    out.push('  gathered order (position:prompt):');
    append(
      out,
      wrap(
        g.samples.map((s, i) => `${i}:${p(s.promptId)}`),
        '    ',
      ),
    );
    for (const { method, label } of regroupMethods) {
      const rows = regroup(g, method, config.k);
      const flagged = rows.filter((r) => r.mixed || r.offSize).length;
      out.push(`  regroup ${label}: ${rows.length} groups${flagged ? `, ${flagged} flagged` : ''}`);
      const items = rows.map((r) => {
        const flags = [r.mixed ? 'MIXED' : '', r.offSize ? `SIZE ${r.members.length}≠${config.k}` : ''].filter(Boolean).join(',');
        const body = method === 'view' ? r.promptIds.map(p).join(' ') : r.members.join(',');
        const key = method === 'view' ? `row ${r.key}` : r.key;
        return `[${key}: ${body}${flags ? ` !${flags}` : ''}]`;
      });
      append(out, wrap(items, '    '));
    }
  }

  out.push('', 'statistics');
  const statRows: [string, string][] = [
    [`samples per ${stepWord}`, String(stats.samplesPerBatch)],
    [
      `prompts per ${stepWord}`,
      Number.isInteger(stats.uniquePromptsPerBatch) ? String(stats.uniquePromptsPerBatch) : stats.uniquePromptsPerBatch.toFixed(3),
    ],
    ['samples per epoch', String(stats.samplesPerEpoch)],
    ['prompt draws per epoch', String(stats.uniquePromptsPerEpoch)],
    ['distinct prompts per epoch', stats.distinctPromptsPerEpoch.join(', ')],
    [`samples per rank per ${stepWord} / per epoch`, `${stats.perRankPerBatch} / ${stats.perRankPerEpoch}`],
    ['steps per epoch / in all', `${stats.stepsPerEpoch} / ${stats.totalSteps}`],
    ['gathers × samples each', `${stats.gathers} × ${stats.samplesPerGather}`],
    ['groups (draws) in all', String(stats.groups)],
    ['copies of a group on one rank: [0, 1, …] →', `[${stats.copiesPerRankHistogram.join(', ')}] (rank, group) pairs`],
    [
      'ranks spanned by a group: [0, 1, …] →',
      `[${stats.ranksSpannedHistogram.join(', ')}] groups, mean ${stats.meanRanksSpanned.toFixed(2)}`,
    ],
    ['max copies of one group on one rank', String(stats.maxCopiesOnOneRank)],
    [
      'prompts drawn twice within an epoch',
      stats.promptsDrawnTwice.length ? stats.promptsDrawnTwice.map((t) => `p${t.promptId}@e${t.epoch}×${t.draws}`).join(' ') : 'none',
    ],
    ['prompt-id groups of size ≠ k', String(stats.offSizePromptGroups)],
    [`view(-1, ${config.k}) rows mixed / short / all`, `${stats.mixedViewRows} / ${stats.offSizeViewRows} / ${stats.viewRows}`],
  ];
  append(out, table(statRows.map(([a, b]) => [a, b])));
  const { perEpoch, total } = stats.counts;
  out.push('', 'step counts (per process, as the training loop counts them: per epoch / in all)');
  append(
    out,
    table([
      ['generation batches', `${perEpoch.generationBatches} / ${total.generationBatches}`],
      ['micro-steps', `${perEpoch.microSteps} / ${total.microSteps}`],
      ['optimizer steps', `${perEpoch.optimizerSteps} / ${total.optimizerSteps}`],
    ]),
  );
  for (const line of stats.counts.factors)
    append(
      out,
      wrap(line.split(' '), '  ', 100).map((l, i) => (i === 0 ? `- ${l.slice(2)}` : l)),
    );
  out.push('', 'what this shows');
  for (const line of explainLayout(layout, stats))
    append(
      out,
      wrap(line.split(' '), '  ', 100).map((l, i) => (i === 0 ? `- ${l.slice(2)}` : l)),
    );
  return `${out.join('\n')}\n`;
}
