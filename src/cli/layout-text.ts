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
import { flowGrpoSeeds } from '../core/samplers/flow-grpo.ts';
import { samplers, VERL_ONLY_FIELDS } from '../core/samplers/index.ts';
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

/**
 * flow_grpo's loop calls set_epoch(t) before step t, but its loader may hand over a batch drawn before
 * that call: the seed of the batch printed (per rank where they differ), as the loader model says.
 */
function flowGrpoSeedNote(seed: number, stepIndex: number, seeds: number[]): string {
  const plus = (n: number) => `manual_seed(${seed} + ${n})`;
  const distinct = [...new Set(seeds)];
  if (distinct.length === 1 && distinct[0] === stepIndex) return `; set_epoch(${stepIndex}) → ${plus(stepIndex)}`;
  if (distinct.length === 1) {
    const e = distinct[0]!;
    return `; set_epoch(${stepIndex}) is called, but the loader hands over the batch set_epoch(${e}) seeded: ${plus(e)}`;
  }
  const ranks = distinct.map((e) => `ranks ${rangesText(seeds.flatMap((x, r) => (x === e ? [r] : [])))} set_epoch(${e})'s (${plus(e)})`);
  return `; set_epoch(${stepIndex}) is called, but the loader hands over earlier batches: ${ranks.join(', ')}`;
}

/** "0–3,6" for ascending rank indices. */
function rangesText(ranks: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ranks.length; ) {
    let j = i;
    while (j + 1 < ranks.length && ranks[j + 1] === ranks[j]! + 1) j++;
    parts.push(j > i ? `${ranks[i]}–${ranks[j]}` : String(ranks[i]));
    i = j + 1;
  }
  return parts.join(',');
}

/** Which generator seed produced a step, in the framework's own terms ('' when nothing new is seeded). */
function seedNote(layout: Layout, stepIndex: number, seeds: number[][] | null): string {
  const { config } = layout;
  const step = layout.steps[stepIndex]!;
  const plus = (n: number) => `manual_seed(${config.seed} + ${n})`;
  switch (layout.sampler) {
    case 'flow-grpo':
      return flowGrpoSeedNote(config.seed, stepIndex, seeds![stepIndex]!);
    case 'trl':
      return stepIndex === 0 ? `; RepeatSampler seeded ${config.seed} once` : '';
    case 'verl':
      return step.step === 0 ? `; randperm ${step.epoch} from the RandomSampler's generator, seeded ${config.seed} once` : '';
    case 'dance-grpo':
      return step.step === 0 ? `; set_epoch(0) → ${plus(0)} again for pass ${step.epoch}` : '';
    default:
      return step.step === 0 ? `; ${plus(step.epoch)} for epoch ${step.epoch}` : '';
  }
}

/** The whole text report for a layout. */
export function renderLayout(layout: Layout, stats: LayoutStats, presetName?: string): string {
  const { config } = layout;
  const p = (id: number) => `p${id}`;
  const out: string[] = [];
  // Only the settings this sampler reads (the others are refused when given).
  const ignored = samplers[layout.sampler].ignores;
  const readsVerl = layout.sampler === 'verl';
  const settings = LAYOUT_SETTINGS.filter(
    (s) =>
      s.kind !== 'sampler' &&
      (!(s.field in ignored) || s.field === 'batchesPerEpoch') &&
      (readsVerl || !(VERL_ONLY_FIELDS as readonly string[]).includes(s.field)),
  ).map((s) => `${s.flag}=${config[s.field]}`);
  out.push(`${layout.sampler}: ${samplers[layout.sampler].title}${presetName ? `  [preset ${presetName}]` : ''}`);
  out.push(`settings: ${settings.join(' ')}`);
  for (const note of layout.notes) out.push(`note: ${say(note)}`);

  const all = gathers(layout);
  // Which pass each rank's batch comes from, as flow_grpo's loader hands them over.
  const seeds = layout.sampler === 'flow-grpo' ? flowGrpoSeeds(config, 'flow-grpo') : null;
  const stepWord = layout.sampler === 'trl' ? 'generation batch' : 'batch';
  for (const g of all) {
    for (const stepIndex of g.stepIndices) {
      const step = layout.steps[stepIndex]!;
      out.push(
        '',
        `epoch ${step.epoch}, ${stepWord} ${step.step}  (step ${stepIndex}${seedNote(layout, stepIndex, seeds)}; rows = ranks, columns = slots)`,
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
