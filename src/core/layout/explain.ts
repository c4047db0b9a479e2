// seed-000's explanation, in plain words, for any layout: the counts, where copies go, where they meet.
import { samplers } from '../samplers/index.ts';
import { loaderSentences } from '../frameworks/flow-grpo/loader-facts.ts';
import type { LayoutStats } from './stats.ts';
import type { Layout } from './types.ts';

function range(hist: number[]): string {
  const used = hist.map((n, i) => (n > 0 ? i : -1)).filter((i) => i >= 0);
  if (used.length === 0) return '0';
  const lo = used[0]!;
  const hi = used[used.length - 1]!;
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Sentences explaining the layout's numbers (the seed-000 walk-through, generalised to any configuration). */
export function explainLayout(layout: Layout, stats: LayoutStats): string[] {
  const { config } = layout;
  const { k, ranks } = config;
  const stepWord = samplers[layout.sampler].stepNoun;
  const lines: string[] = [];
  const perPrompt = Number.isInteger(stats.uniquePromptsPerBatch)
    ? `${stats.uniquePromptsPerBatch} prompts`
    : `${stats.uniquePromptsPerBatch.toFixed(2)} prompts' worth`;
  lines.push(
    `Per ${stepWord}: ranks × samples per rank = ${ranks} × ${stats.perRankPerBatch} = ${stats.samplesPerBatch} samples = ${perPrompt} × k=${k} copies.`,
  );
  const distinct = stats.distinctPromptsPerEpoch[0] ?? 0;
  lines.push(
    `Per epoch: ${plural(stats.stepsPerEpoch, stepWord, `${stepWord}es`)} × ${stats.samplesPerBatch} = ${stats.samplesPerEpoch} samples, ` +
      `${stats.uniquePromptsPerEpoch} prompt draws` +
      (distinct !== stats.uniquePromptsPerEpoch
        ? ` (${distinct} distinct prompts in epoch 0: some were drawn twice).`
        : ` (${distinct} distinct prompts).`),
  );
  lines.push(
    `Each rank receives ${plural(stats.perRankPerBatch, 'sample')} per ${stepWord}: a tensor of shape [${stats.perRankPerBatch}, …] printed on ` +
      `one rank is one ${stepWord} on one rank, and that is normal.`,
  );
  const spanned = range(stats.ranksSpannedHistogram);
  if (spanned === '1') {
    lines.push(
      `All ${k} copies of each prompt sit on one rank, in consecutive slots` +
        (layout.sampler === 'contiguous' ? ', so each group can be scored on its rank without communication.' : '.'),
    );
  } else {
    lines.push(
      `The ${k} copies of a prompt sit on ${spanned} ranks here (mean ${stats.meanRanksSpanned.toFixed(2)}); one rank holds ` +
        `${range(stats.copiesPerRankHistogram)} copies of a given prompt, at most ${stats.maxCopiesOnOneRank}.`,
    );
  }
  if (layout.gatherScope === 'epoch') {
    lines.push(
      `Each rank concatenates its ${stats.stepsPerEpoch} ${stepWord}es (${stats.perRankPerEpoch} samples per rank per epoch); only the ` +
        `all-gather brings the ${stats.samplesPerGather} samples together, in rank-major order, where the ${k} copies of each prompt finally meet ` +
        `and the per-prompt advantage can be computed.`,
    );
  } else if (layout.sampler === 'contiguous') {
    lines.push(
      `Each ${stepWord}'s all-gather (rank-major, ${stats.samplesPerGather} samples) only serves logging here: the groups are already complete on their ranks.`,
    );
  } else {
    lines.push(
      `Each ${stepWord}'s all-gather returns its ${stats.samplesPerGather} samples in rank-major order (rank 0's block, then rank 1's, …); that ` +
        `is where the ${k} copies of each prompt meet.`,
    );
  }
  // flow_grpo: what the published script's loader does, beside the loop the seed-000 document assumes.
  lines.push(...loaderSentences(layout));
  const twice = stats.promptsDrawnTwice;
  if (twice.length > 0) {
    const shown = twice
      .slice(0, 6)
      .map((t) => `p${t.promptId} (epoch ${t.epoch}, ${t.draws}×)`)
      .join(', ');
    lines.push(
      `${plural(twice.length, 'prompt')} ${twice.length === 1 ? 'was' : 'were'} drawn more than once within an epoch: ` +
        `${shown}${twice.length > 6 ? ', …' : ''}. ` +
        (layout.gatherScope === 'epoch'
          ? `Grouping by prompt over the epoch (flow_grpo) makes ${twice.length === 1 ? 'it a group' : 'them groups'} of ${2 * k} or more; a ` +
            `per-draw uid (verl) keeps groups of ${k}.`
          : `A per-draw uid (verl) keeps each draw its own group of ${k}.`),
    );
  } else {
    lines.push(`No prompt was drawn twice within an epoch, so grouping by prompt id gives groups of exactly ${k}.`);
  }
  if (stats.mixedViewRows > 0) {
    lines.push(
      `view(-1, ${k}) over the gathered order (TRL's regrouping) mixes prompts in ${stats.mixedViewRows} of ${stats.viewRows} rows: it is only ` +
        `right when copies are consecutive.`,
    );
  } else if (stats.offSizeViewRows === 0) {
    lines.push(`view(-1, ${k}) over the gathered order puts each prompt's copies in one row: copies are consecutive.`);
  }
  return lines;
}
