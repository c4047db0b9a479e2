// <grpo-framework>'s English words (the `framework` section of en.ts; framework-zh.ts has the same shape).
// The frameworks' own keys, titles, notes, warnings and errors are not here: the view shows them as written.
import type { BudgetRule } from '../../core/frameworks/budget.ts';

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const list = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? ''));

export const frameworkEn = {
  title: 'A framework read from its own config',
  framework: 'framework',
  pinned: (repo: string, commit: string, date: string) => `modelled from ${repo} @ ${commit} (${date})`,
  presets: 'its shipped example configs:',
  noPresets: 'It ships no example config the sandbox restates.',
  defaults: 'shipped defaults',
  keys: (n: number) => `The framework's keys (${n}), as its config names them`,
  shippedDefault: (value: string) => `default ${value}`,
  fromConfig: 'from the config',
  fromField: 'set here',
  sandboxOnly: 'sandbox only',
  unset: 'unset',
  paste: 'Paste your own config',
  pasteHint: (format: string) => `in the framework's own format (${format}); the fields above then override it`,
  formats: {
    yaml: 'YAML',
    'yaml-defaults': 'YAML, its defaults: parent not read here',
    toml: 'TOML',
    argv: 'the launch command line',
    kwargs: 'JSON or YAML keyword arguments',
  } as Record<string, string>,
  read: 'read it',
  clear: 'forget it',
  readKeys: (source: string, keys: readonly string[]) =>
    `${source}: read ${plural(keys.length, 'key')}${keys.length ? `: ${keys.join(', ')}` : ''}.`,
  ignoredKeys: (keys: readonly string[]) => `Ignored ${plural(keys.length, 'key')} the sandbox does not model: ${keys.join(', ')}.`,
  pastedSource: 'the pasted config',
  parents: (files: readonly string[]) =>
    `Its defaults: names ${list(files)}, which the page cannot open: only the pasted keys are read, the rest stay at the framework's shipped defaults.`,
  layoutHeading: 'Where each prompt’s copies go',
  layoutLegend:
    'A row per data-parallel rank, a column per training step; each tile is one sample, labelled by its prompt id. ' +
    'Tap a tile (or hover it) to light up its prompt’s copies.',
  steps: (from: number, to: number, total: number) => `steps ${from}–${to} of ${total}`,
  earlier: '◀ earlier steps',
  later: 'later steps ▶',
  stepLabel: (index: number, epoch: number, step: number) => `step ${index} (epoch ${epoch}, step ${step})`,
  rank: (r: number) => `rank ${r}`,
  more: (n: number) => `+ ${n} more`,
  moreRanks: (n: number) => `+ ${plural(n, 'more rank')} not drawn`,
  tile: (prompt: number, rank: number, slot: number) => `prompt ${prompt}: rank ${rank}, sample ${slot} of its batch`,
  pickHint: 'Tap or hover a tile to see where its prompt’s copies sit.',
  copies: (prompt: number, at: readonly { step: number; total: number; ranks: readonly { rank: number; copies: number }[] }[]) =>
    at.length === 0
      ? `P${prompt} has no copy in the steps shown.`
      : `${at
          .map(
            (a) =>
              `P${prompt}'s ${plural(a.total, 'copy', 'copies')} in step ${a.step} sit on ${a.ranks.length === 1 ? 'rank' : 'ranks'} ` +
              list(a.ranks.map((r) => (a.ranks.length === 1 ? `${r.rank}` : `${r.rank} (${r.copies})`))),
          )
          .join('; ')}.`,
  clearPick: 'clear',
  pickPrompt: 'or type a prompt id:',
  packingHeading: (step: number) => `Packing: the micro-batches of step ${step}`,
  packingLegend:
    'A column per rank, a strip per micro-batch; each bar is one sample, as long as its tokens (prompt + completion). ' +
    'The dashed line is the budget; hatched strips are micro-batches a rank runs with no sample, because every rank runs as many as the busiest one.',
  switchesLabel: 'packing switch:',
  on: 'on',
  off: 'off',
  budget: (tokens: number, from: string, rule: BudgetRule) =>
    rule === 'count'
      ? `Budget: ${tokens} tokens (${from}); it sets how many micro-batches a rank runs, and Karmarkar–Karp then balances them, so one may pass the line.`
      : `Budget: ${tokens} tokens per micro-batch (${from})${rule === 'soft' ? ', a soft cap: one long sample may pass it' : ''}.`,
  budgetLine: (tokens: number) => `budget: ${tokens} tokens`,
  noBudget: 'No token budget with these settings: micro-batches are cut by sample count.',
  microBatches: (n: number) => plural(n, 'micro-batch', 'micro-batches'),
  padding: (n: number) => `+${n} padding`,
  paddingStrip: 'padding: no sample',
  micro: (m: number) => `mb ${m}`,
  bar: (prompt: number | null, sample: number, tokens: number, micro: number, rank: number) =>
    `${prompt === null ? '' : `prompt ${prompt}, `}sample ${sample}: ${tokens} tokens, micro-batch ${micro} of rank ${rank}`,
  moreMicro: (n: number) => `+ ${plural(n, 'more micro-batch', 'more micro-batches')}`,
  moreRanksPacked: (n: number) => `+ ${plural(n, 'more rank')} not drawn`,
  synced: (most: number, padded: readonly number[]) =>
    `Every rank runs ${plural(most, 'micro-batch', 'micro-batches')} (the data-parallel maximum)` +
    (padded.length
      ? `; ${padded.length === 1 ? 'rank' : 'ranks'} ${list(padded.map(String))} step on padding.`
      : '; no rank steps on padding.'),
  packerOff: 'With these settings the framework does not pack: each rank trains on its samples in the order above.',
  noLengths: 'This step carries no token counts (its dispatch does not read them), so there is nothing to pack here.',
  packingAbsent: 'The framework has no token budget or packing to show:',
  counts: 'Derived from the keys: counts in the framework’s words',
  warnings: 'What the framework prints as a warning, verbatim',
  notes: 'Notes',
  error: (m: string) => `Cannot lay out these settings: ${m}`,
};
