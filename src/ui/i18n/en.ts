// The English catalogue: every word the browser views show, by section. Entries with numbers or
// names are functions (their parameters are the template's; plurals are decided here, per
// language). zh-CN.ts has exactly the same shape (the type `Catalogue` makes a missing or extra
// key a type error, and test/ui/i18n-catalogue.test.ts checks the same keys and parameters).
// The default language: the explorer's tests assert these words, so they are the page's words
// as they were before the catalogues.
import { plural as corePlural } from '../../core/dynamic/messages.ts';
import type { RegroupMethod, SamplerName } from '../../core/layout/types.ts';
import type { RowsMaker } from '../../core/messages/errors.ts';
import { frameworkDefaults } from '../../core/grpo/framework-defaults.ts';
import { LAYOUT_SETTINGS, type LayoutParam } from '../../core/settings.ts';
import { POLICY_ABOUT, type Policy } from '../../core/dynamic/types.ts';
import type { ViewName } from '../views.ts';
import type { DropReason, LengthDistribution } from '../../core/async/types.ts';
import type { GroupFate } from '../async/async-trace.ts';
import {
  type CaptionFacts,
  captionText,
  type ConclusionFacts,
  conclusionText,
  type HeadlineFacts,
  headlineText,
} from '../../core/schedule/explain.ts';
import type { SeriesLabel } from '../../train/metrics.ts';
import { frameworkEn } from './framework-en.ts';

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
/** "4 groups of 8" or "2 groups of 8 and 4 groups of 4" (sizes as groupSizes gives them). */
const groupsWords = (sizes: [number, number][]) => {
  const parts = sizes.map(([size, n]) => `${plural(n, 'group')} of ${size}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'no groups');
};

const regroupText: Record<RegroupMethod, string> = {
  'prompt-id': "by prompt id, as flow_grpo's PerPromptStatTracker does (it groups by prompt string)",
  view: 'with rewards.view(-1, k), as TRL does: every k consecutive gathered samples form a row, whatever prompts they hold',
  uid: 'by uid, as verl does: the copies of one draw of a prompt share a uid',
  local: 'on each rank, k consecutive samples per group, as DanceGRPO does (no gather needed when a rank holds whole groups)',
};

/** Why a group was dropped, in a tooltip (the list under the figure counts them: async.why). */
const DROP_REASONS: Record<DropReason, string> = {
  'stale-at-consumption': 'too stale when the trainer pulled it',
  evicted: 'evicted from the buffer at a weight update',
  'aborted-in-flight': 'aborted while generating, at a weight update',
  'outside-step-window': 'outside the steps the trainer takes from',
};

const tooBig = (why: string) => `Too big for this page: ${why}. The overview shows it as a heatmap; for tiles, pick smaller numbers.`;

/** Where a value the page could not read was given: the page's link, or an embedded element's attributes. */
export type Where = 'link' | 'attributes';
const inWhere = (where: Where) => (where === 'link' ? 'in the link' : 'in the attributes');

export const en = {
  /**
   * The page's own messages said as facts (a message id and its parameters, as the core says its
   * own: src/ui/core-text.ts renders both): the explorer's view budget (src/ui/view-budget.ts).
   */
  pageFacts: {
    'view.too-many-ranks': (p: { ranks: string; most: string }) =>
      tooBig(`${p.ranks} ranks are more rows than the page draws (at most ${p.most})`),
    'view.too-many-tiles': (p: {
      ranks: string;
      one: boolean;
      perRank: string;
      stepsPerGather: string | null;
      tiles: string;
      most: string;
    }) =>
      tooBig(
        `${p.ranks} rank${p.one ? '' : 's'} × ${p.perRank} samples per rank per step` +
          (p.stepsPerGather === null ? '' : ` × ${p.stepsPerGather} steps per gather`) +
          ` = ${p.tiles} tiles in one gather, more than the ${p.most} tiles the page draws`,
      ),
    'view.too-many-samples': (p: { gathers: string; perGather: string; samples: string; most: string }) =>
      tooBig(`${p.gathers} gathers × ${p.perGather} = ${p.samples} samples in the whole layout, more than the ${p.most} the page builds`),
  },
  lang: {
    label: 'language',
    switchTo: 'show this page in Chinese',
    unknown: (raw: string) => `“lang=${raw}” in the link is not a language this page speaks (en, zh-CN); showing English.`,
    /** The lead-in before core text that has no translation yet (never used in English). */
    original: 'original text: ',
    /** The tab's title: the explorer's (as index.html has it), and each view's (as the `view` URL value names it). */
    pageTitle: 'grpo-sandbox · where the k copies go',
    toExplorer: '← the explorer: where the k copies go',
    /** Above a figure or table wider than its box (src/ui/scroll-hint.ts). */
    scrollHint: '↔ wider than the screen: scroll sideways for the rest',
    viewTitles: {
      train: 'train',
      schedule: 'schedule',
      dynamic: 'dynamic',
      steps: 'steps',
      async: 'asynchronous GRPO',
      advantages: 'advantages',
      framework: 'frameworks',
    } as Record<ViewName, string>,
  },
  explorer: {
    subtitle: '· where the k copies of a prompt go, and how they meet again',
    copyLink: 'copy link',
    projector: 'projector',
    projectorTitle: 'tiles twice as large, for a projector or the back of a room (zoom=2 in the link)',
    copyLinkTitle: 'copy a link to exactly this view',
    linkCopied: 'link copied',
    copyAddressBar: 'copy the address bar',
    /** The line under the statistics: the `grpo-sandbox layout` command that prints this layout, and its copy button. */
    commandLead: 'In a terminal, the same layout:',
    copyCommand: 'copy',
    copyCommandTitle: 'copy the command that prints this layout’s numbers',
    commandCopied: 'copied',
    copyCommandBelow: 'select it to copy',
    noticeTitle: 'Some of the link could not be read:',
    dismiss: 'dismiss',
    /** A caption's place in the story: phase i of n (the tour panel counts its own steps, so the word says which). */
    phaseOf: (i: number, n: number) => `phase ${i} of ${n}`,
    gatherOf: (i: number, n: number) => ` · gather ${i} of ${n}`,
    openFull: 'open in the explorer ↗',
    toViews: 'Train the controller in this page (rank Web Workers) →',
    tableSummary: 'The followed gather as a table (rank × step)',
    tableRank: 'rank',
    tableStep: (s: number) => `step ${s}`,
    tableRankRow: (r: number) => `rank ${r}`,
    firstRanks: (shown: number, ranks: number) => `First ${shown} of ${ranks} ranks.`,
    stale: (label: string) => `Showing the last valid layout${label}.`,
    fixes: 'Fixes: ',
    regrouped: (label: string) => `regrouped ${label}`,
  },
  notices: {
    notOneOf: (where: Where, param: string, value: string, allowed: string, fallback: string) =>
      `“${param}=${value}” ${inWhere(where)} is not one of ${allowed}; showing ${fallback}.`,
    notPreset: (where: Where, name: string, presets: string) =>
      `“preset=${name}” ${inWhere(where)} is not a preset (${presets}); starting from the default.`,
    notNumber: (where: Where, param: string, raw: string, stays: string) =>
      `“${param}=${raw}” ${inWhere(where)} is not a number; ${param} stays ${stays}.`,
    speed: (where: Where, raw: string) => `“speed=${raw}” ${inWhere(where)} is not a speed between 0 and 8; playing at 1×.`,
    zoom: (where: Where, raw: string, valid: string) => `“zoom=${raw}” ${inWhere(where)} is not a picture size (${valid}); showing 1×.`,
    prompt: (where: Where, raw: string) => `“prompt=${raw}” ${inWhere(where)} is not a prompt id (0, 1, 2, …); nothing is highlighted.`,
    gather: (where: Where, raw: string) => `“gather=${raw}” ${inWhere(where)} is not a gather number; following the first gather.`,
  },
  phases: {
    sample: 'Sample',
    scatter: 'Scatter to ranks',
    accumulate: 'Each rank accumulates',
    gather: 'All-gather (rank-major)',
    regroup: 'Regroup',
    advantages: 'Advantages per group',
    slice: 'Slice back to ranks',
  },
  story: {
    regroupText,
    advPromptId: 'flow_grpo: (r − mean of the prompt) / (std of all gathered rewards + 1e-4), numpy std (ddof 0)',
    advViewNone: 'TRL with scale_rewards="none" (Dr. GRPO): r − mean of the row, no division',
    advView: (group: boolean) =>
      `TRL: (r − mean of the row) / (${group ? 'unbiased std of the row' : 'unbiased std of the whole batch'} + 1e-4)`,
    advUid: 'verl: (r − mean of the uid) / (unbiased std + 1e-6); a lone sample gets mean 0, std 1',
    advLocal: "DanceGRPO: (r − mean of the rank's group) / (unbiased std + 1e-8), computed on each rank",
    sampleSame: (draws: number, k: number) => `, ${plural(draws, 'prompt')} × ${k} copies each step`,
    loaderIdeal:
      ' The loop reads each batch as its set_epoch call seeds it: the idealised loop the seed-000 document assumes (flow_grpo’s ' +
      'published script reads the sampler through a prefetching DataLoader and accelerate: the loader settings show it).',
    loaderPair: (step: number, sameAs: number) => `step ${step} gets step ${sameAs}’s batch`,
    loaderText: (workers: number, prefetch: number, prepared: boolean) =>
      `DataLoader(num_workers=${workers}${workers > 0 ? `, prefetch_factor=${prefetch}` : ''}) ` +
      (prepared ? 'through accelerator.prepare' : 'not prepared by accelerate'),
    loaderRepeats: (loader: string, ahead: number, pairs: string, big: number, k: number) =>
      ` As flow_grpo’s published script runs it (${loader}), ${plural(ahead, 'index batch', 'index batches')} are drawn before ` +
      `their set_epoch call: here ${pairs}, so ${plural(big, 'prompt group')} ${big === 1 ? 'holds' : 'hold'} ${2 * k} or more ` +
      `samples in PerPromptStatTracker. The seed-000 document expected a new draw every step.`,
    loaderShifted: (loader: string, ahead: number) =>
      ` As flow_grpo’s published script runs it (${loader}), each step receives the batch set_epoch(t − ${ahead}) seeds, not ` +
      `its own, as the seed-000 document expected.`,
    sampleVaried: (draws: string, k: number) => `; the steps hold ${draws} prompts × ${k} copies`,
    sampleAcross: (step: number, draws: number, across: number, groups: number) =>
      `; step ${step} holds copies of ${plural(draws, 'prompt')}, and ${across} of the gather's ` +
      `${plural(groups, 'group')} have copies in more than one step, so a step does not hold whole groups`,
    scatterK1: 'With k = 1 every group is a single sample.',
    scatterTogether: (k: number) =>
      `Here a rank can receive all ${k} copies of a group in one step, so those copies are together before any gather.`,
    scatterApartWhole: (k: number) =>
      `Watch the ${k} copies of a prompt land on ${k} different ranks: no rank receives two copies of a group in one step.`,
    scatterApart: 'Watch the copies of a prompt land on different ranks: no rank receives two copies of a group in one step.',
    scatterSpread: (k: number, most: number) =>
      `Watch the ${k} copies of a prompt spread over several ranks (up to ${most} on one rank in one step): no rank receives a whole group.`,
    accK1: 'With k = 1 a group is one sample, so its mean is the sample itself.',
    accAllWhole: `Every group now sits whole on one rank, so each rank could compute its groups' means on its own.`,
    accSomeWhole: (whole: number, groups: number) =>
      `${whole} of the ${plural(groups, 'group')} sit whole on one rank (that rank could compute their mean alone); the others ` +
      `are spread over ranks.`,
    accSeveral: (most: number) =>
      `Some ranks hold several copies of a group (up to ${most}), but no rank holds a whole group, so no rank can compute a ` +
      `group's mean on its own.`,
    accNone: `No rank holds two copies of one group, so no rank can compute a group's mean on its own.`,
    sample: (k: number, W: number, B: number, perStep: number, outcome: string, steps: number) =>
      `Each step the sampler draws prompts and makes k = ${k} copies of each: ${plural(W, 'rank')} × ${plural(B, 'slot')} = ${perStep} samples per step` +
      outcome +
      `. Shown here before they are dealt out, copies side by side (${plural(steps, 'step')} in this gather).`,
    scatter: (B: number, outcome: string) =>
      `The samples are dealt to ranks: rank r takes slots [r·${B}, (r+1)·${B}) of the step's order. ${outcome}`,
    accumulate: (steps: number, B: number, perRank: number, outcome: string) =>
      `Each rank concatenates its ${steps} batches: ${steps} × ${B} = ${perRank} samples per rank. ${outcome}`,
    accumulateOne: (scope: string, perRank: number, outcome: string) =>
      `The gather covers one step (${scope} scope), so each rank holds just its ${perRank} samples of this step. ${outcome}`,
    gatherOne: (samples: number) =>
      `All-gather over a single rank: the gathered order is the rank's own ${samples} samples, gathered index = position on the rank.`,
    gather: (samples: number, perRank: number) =>
      `All-gather: every rank receives the ${samples} samples concatenated rank-major — rank 0's ${perRank}, then rank 1's, … The gathered ` +
      `index of a sample is rank × ${perRank} + its position on the rank.`,
    regroup: (how: string, groups: number, prompts: number) =>
      `Regroup ${how}: ${plural(groups, 'group')} from ${plural(prompts, 'distinct prompt')}`,
    regroupMixed: (n: number) => `; ${n} mix different prompts (flagged red) — the advantages of those rows are wrong`,
    regroupOffSize: (n: number, k: number) => `; ${n} have a size other than k = ${k} (flagged)`,
    rewardsRandom: 'seeded uniform noise',
    rewardsModel: 'a toy pass/fail reward model (each prompt has a pass rate)',
    advantages: (source: string, how: string) => `Rewards come from ${source}; advantages per group by ${how}.`,
    tied: (n: number) => ` ${plural(n, 'group')} tie (std 0): advantage 0, no learning signal.`,
    slice: (perRank: number) =>
      `Slice back: rank r takes gathered[r·${perRank}, (r+1)·${perRank}) — exactly the samples it produced, now carrying their advantages ` +
      `(blue below the group's mean, orange above).`,
    scopeEpoch: 'epoch',
    scopeStep: 'step',
  },
  model: {
    methodName: {
      'prompt-id': "flow_grpo's grouping by prompt id",
      view: "TRL's view(-1, k)",
      uid: "verl's grouping by uid",
      local: "DanceGRPO's local groups",
    } as Record<RegroupMethod, string>,
    rowsMixed: (name: string, framework: string, mixed: number, rows: number) =>
      `${name} on ${framework}'s gather mixes prompts in ${mixed} of ${rows} rows`,
    rowsKept: (name: string, framework: string, rows: number) =>
      `${name} on ${framework}'s gather keeps every row to one prompt (${rows} rows)`,
    rowsText: (rowsPart: string) =>
      `${rowsPart}; the two pictures' advantages are compared in the advantages phase, once they are computed.`,
    withError: (rowsPart: string, error: string) => `${rowsPart}. ${error}`,
    noneToCompare: (rowsPart: string, name: string) => `${rowsPart}; ${name} has no advantages here to compare with.`,
    differ: (rowsPart: string, differing: number, total: number, name: string, max: string, wrong: boolean) =>
      `${rowsPart}; ${differing} of ${total} advantages differ from ${name}'s (largest difference ${max})${wrong ? ', so they come out wrong' : ''}.`,
    equal: (rowsPart: string, name: string) => `${rowsPart}; the advantages equal ${name}'s.`,
    whatIf: (label: string, framework: string, does: string) =>
      `What if: this regroups ${label} on a ${framework} layout; ${framework} itself ${does}.`,
    noAdvantagesRows: (who: string, k: string, where: string, count: string) =>
      `No advantages for this regrouping: ${who} needs rows of k = ${k} samples, but ${where} ${count}, which is not a multiple of ${k}.`,
    /** Who cuts the rewards into rows of k (the core's RowsMaker), and what holds the samples. */
    rowMakers: {
      'trl-view': { who: "TRL's rewards.view(-1, k)", where: 'the gather holds' },
      'dance-local': { who: "DanceGRPO's local groups", where: 'a rank holds' },
    } as Record<RowsMaker, { who: string; where: string }>,
    noSliceBack: (samples: string, ranks: string) =>
      `No advantages to slice back: the ${samples} gathered samples do not split evenly over ${ranks} ranks.`,
    noAdvantages: (why: string) => `No advantages for this regrouping: ${why}`,
    gotNaN: 'got an empty or non-numeric value',
  },
  /** The core's names for things (src/core: settings table, presets, frameworks, regroupings) in this language. */
  core: {
    /** Each layout setting's label and hint (the core's English: its settings table); every setting has its words. */
    settings: Object.fromEntries(LAYOUT_SETTINGS.map((s) => [s.param, { label: s.label, hint: s.hint }])) as Record<
      LayoutParam,
      { label: string; hint: string }
    >,
    presets: {} as Record<string, string>,
    /** What each sampler's framework does after sampling (the core's English: frameworkDefaults); every sampler has its words. */
    does: Object.fromEntries(Object.entries(frameworkDefaults).map(([sampler, f]) => [sampler, f.does])) as Record<SamplerName, string>,
    regroup: {
      'prompt-id': 'by prompt id over the gather (flow_grpo PerPromptStatTracker)',
      view: 'view(-1, k) over the gathered order (TRL)',
      uid: 'by per-draw uid (verl)',
      local: 'k consecutive samples on each rank, no gather (DanceGRPO)',
    } as Record<RegroupMethod, string>,
  },
  config: {
    title: 'Configuration',
    preset: 'preset',
    custom: 'custom',
    sampler: 'sampler',
    otherFrameworks: 'Frameworks read from their own config (each in its own view):',
    tryFix: 'try:',
    showingLast: 'Showing the last valid layout meanwhile.',
    loaderNote: (loader: string, expected: [number, number][], real: [number, number][], pairs: string[]) =>
      `The seed-000 document expects a new draw at every step: per epoch ${groupsWords(expected)}. flow_grpo's published ` +
      `train_sd3.py reads the sampler through ${loader}, and with these settings ` +
      (pairs.length > 0 ? `${pairs.join(', ')}, so ` : '') +
      `PerPromptStatTracker sees ${groupsWords(real)} per epoch. ` +
      "Loader workers 0 and accelerate prepare 0 give the document's loop.",
  },
  follow: {
    title: 'What to follow',
    gatherRange: (n: number) => `gather (1 … ${n})`,
    gather: 'gather',
    gatherOption: (i: number, epoch: number, steps: readonly number[]) =>
      `${i}: epoch ${epoch}${steps.length === 1 ? `, step ${steps[0]}` : `, steps ${steps[0]}–${steps.at(-1)}`}`,
    regroup: 'regroup after the gather',
    short: {
      'prompt-id': 'by prompt id (flow_grpo)',
      view: 'view(-1, k) rows (TRL)',
      uid: 'by uid (verl)',
      local: 'on each rank, no gather (DanceGRPO)',
    } as Record<RegroupMethod, string>,
    whatIfLead: 'What if',
    whatIf: (framework: string, does: string) => ` — not what ${framework} does: it ${does}.`,
    useDefault: (framework: string) => `use ${framework}'s`,
    compare: 'compare side by side with',
    nothing: 'nothing',
    rewards: 'rewards',
    random: 'random (seeded uniform)',
    model: 'toy reward model (pass / fail)',
    scale: 'TRL scale_rewards',
  },
  controls: {
    toolbar: 'story controls',
    back: 'step back',
    backTitle: 'step back (←)',
    play: 'play',
    pause: 'pause',
    playTitle: 'play / pause (space)',
    playButton: '▶ play',
    pauseButton: '❚❚ pause',
    forward: 'step forward',
    forwardTitle: 'step forward (→)',
    phases: 'phases',
    jump: (title: string, n: number) => `jump to ${title} (${n})`,
    speed: 'speed',
    keys: (n: number) => `keys: space play/pause · ← → step · 1–${n} jump · + − speed · Esc clear highlight`,
  },
  stats: {
    title: 'Statistics (whole layout)',
    rows: {
      'samples-per-batch': 'samples per batch (all ranks)',
      'prompts-per-batch': 'prompt draws per batch',
      'samples-per-epoch': 'samples per epoch',
      'prompts-per-epoch': 'prompt draws per epoch',
      'per-rank-per-batch': 'per rank per batch',
      'per-rank-per-epoch': 'per rank per epoch',
      steps: 'steps per epoch · total',
      gathers: 'all-gathers × samples',
      'mean-ranks-spanned': 'ranks a group spans (mean)',
      'max-copies-on-rank': 'most copies of a group on one rank',
      'drawn-twice': 'prompts drawn twice in an epoch',
      'off-size-prompt-groups': 'prompt-id groups of size ≠ k',
      'mixed-view-rows': "if regrouped with TRL's view(-1, k): rows mixing prompts",
    },
    /** The trainer's own counts (layout.counts), per process: per epoch · in all. */
    counts: {
      title: 'As the training loop counts (per process): per epoch · in all',
      'generation-batches': 'generation batches',
      'micro-steps': 'micro-steps (forward/backward)',
      'optimizer-steps': 'optimizer steps (weight updates)',
    },
    of: (a: number, b: number) => `${a} of ${b}`,
    histogram: 'groups by number of ranks spanned',
    ranks: (n: number) => `${n} rank${n === 1 ? '' : 's'}`,
  },
  copies: {
    title: 'Copies of a prompt',
    promptId: 'prompt id',
    highlight: 'highlight prompt id',
    clear: 'clear',
    hint: "Hover over a tile to highlight a prompt's copies; click or tap it (or type an id) to keep them highlighted.",
    notDrawn: (p: number) => `Prompt ${p} is not drawn in this layout.`,
    summary: (p: number, n: number, inFollowed: number) =>
      `prompt ${p}: ${plural(n, 'copy', 'copies')} in the layout,\n              ${inFollowed} in the followed gather`,
    head: ['step', 'rank', 'slot', 'gather', 'gathered #'],
    reward: 'reward',
    advantage: 'advantage',
  },
  quiz: {
    title: 'Predict, then reveal',
    reveal: 'reveal',
    ranks: 'ranks',
    answer: 'your answer',
    yes: 'yes',
    no: 'no',
    positions: 'gathered positions',
    placeholder: 'e.g. 3, 17, 30',
    rank: (r: number) => `rank ${r}`,
    askRanks: (p: number, typed: boolean) =>
      `Which ranks will hold the copies of P${p} after the scatter?` +
      (typed ? ' Type rank numbers, then reveal.' : ' Pick ranks, then reveal.'),
    askMean: (rank: number, p: number, copies: number) =>
      `Once each rank has accumulated its samples, can rank ${rank} compute the mean of P${p}'s group ` +
      `(the ${plural(copies, 'copy', 'copies')} of one draw) on its own, without the gather?`,
    askPositions: (last: number, p: number) =>
      `At which gathered positions (0 … ${last}) will the copies of P${p} sit after the all-gather? Type them, then reveal.`,
    where: (r: number, n: number) => `rank ${r}${n > 1 ? ` (${n} copies)` : ''}`,
    ranksResult: (p: number, where: string, hits: number, ranks: number, misses: number) =>
      `P${p}'s copies are on ${where}. You picked ${hits} of those ${plural(ranks, 'rank')}` +
      `${misses > 0 ? ` and ${misses} that ${misses === 1 ? 'holds' : 'hold'} none` : ''}.`,
    right: 'Right: ',
    notQuite: 'Not quite: ',
    meanYes: (copies: number, rank: number) =>
      `yes, all ${plural(copies, 'copy', 'copies')} of that draw sit on rank ${rank}, so it can compute their mean alone.`,
    meanNo: (rank: number, onRank: number, copies: number, others: string) =>
      `no, rank ${rank} holds ${onRank} of the ${plural(copies, 'copy', 'copies')}; the others are on ${others}, so the mean needs the gather.`,
    positionsResult: (p: number, positions: readonly number[], perRank: number, hits: number, misses: number) =>
      `P${p}'s copies sit at gathered ${positions.length === 1 ? 'position' : 'positions'} ${positions.join(', ')} ` +
      `(rank × ${perRank} + position on the rank). You named ${hits} of those ${positions.length}` +
      `${misses > 0 ? ` and ${misses} that ${misses === 1 ? 'holds' : 'hold'} other samples` : ''}.`,
    list: (items: string[]) => items.join(', '),
  },
  canvas: {
    aria: (n: number, phase: string) =>
      `${n} samples of the followed gather, phase ${phase}; arrow keys move between tiles, Enter pins a prompt`,
    tile: (p: number, rank: number, step: number, slot: number, i: number) =>
      `prompt ${p} · rank ${rank} · step ${step} · slot ${slot} · gathered #${i}`,
    reward: (r: string) => ` · reward ${r}`,
    advantage: (a: string) => ` · advantage ${a}`,
    /** The key under the picture while tiles are coloured by prompt (a few prompts; a phone drops the tiles' labels). */
    colourKey: 'colour = prompt:',
    advantageKey: 'colour = advantage:',
    advantageRange: (low: string, high: string) => `here from ${low} to ${high}`,
  },
  overview: {
    title: 'Overview',
    building: (stage: string) => `Too many tiles to draw one by one; building an overview in the background: ${stage}…`,
    startingWorker: 'starting a worker',
    drawing: 'drawing the permutations (the same PyTorch generator as the CLI)',
    counting: (prompts: string, ranks: string) => `counting copies of ${prompts} prompts on ${ranks} ranks`,
    heading: (gather: number, count: string, zoom: string, samples: string) =>
      `Overview of gather ${gather} of ${count}${zoom} (${samples} samples)`,
    zoom: (from: string, to: string, steps: readonly number[]) =>
      ` · ranks ${from}–${to}, ${steps.length === 1 ? `step ${steps[0]}` : `steps ${steps[0]}–${steps.at(-1)}`}`,
    form: 'choose what the overview shows',
    gather: (n: string) => `gather (1 … ${n})`,
    ranksFrom: 'ranks from',
    stepsFrom: 'steps from',
    to: 'to',
    show: 'show',
    whole: 'whole gather',
    heatmap: (zoomable: boolean) =>
      `heatmap: rows are ranks, columns are prompt ids, darker means more copies${zoomable ? '; click a row to zoom into its ranks' : ''}`,
    rankAxis: (from: string, to: string, perRow: number) => `↓ ranks ${from} … ${to}${perRow > 1 ? ` (${perRow} per row)` : ''}`,
    promptAxis: (last: string, perCol: string | null) => `prompt ids 0 … ${last} → ${perCol !== null ? `(${perCol} per column)` : ''}`,
    samples: (zoomed: boolean) => `samples ${zoomed ? 'in the window' : 'in the gather'}`,
    prompts: 'distinct prompts',
    ranksPerPrompt: 'ranks a prompt reaches (mean)',
    maxOnRank: 'most copies of a prompt on one rank',
    steps: (zoomed: boolean) => `steps ${zoomed ? 'in the window' : 'in the gather'}`,
    empty: (zoomed: boolean) => `This ${zoomed ? 'window' : 'gather'} is empty.`,
  },
  train: {
    title: 'Train the controller in the page',
    /** What a form field's value stands for in this run, beside the field (a `0` or a TRL version alone says nothing). */
    derived: {
      spgFromGa: (ga: number) => `0 = gradient accumulation (${ga}), as TRL does`,
      spgNotRead: (sampler: string) => `read by the trl sampler only: ${sampler} generates one micro-batch per optimizer step`,
      frameworkIdle:
        'its loss normaliser applies to micro-steps; with gradient accumulation 1 and 1 iteration there are none: no effect here',
      frameworkUsed: (micro: number) => `its loss normaliser weights each of the ${micro} micro-steps of an optimizer step`,
    },
    intro:
      'The same loop as grpo-sandbox train: every rank is a Web Worker of this page (with its own WebGPU device when the backend ' +
      'asks for one and the browser has it); rewards and prompt ids are all-gathered, gradients all-reduced, Adam applied.',
    start: 'Start',
    stop: 'Stop',
    reset: 'Reset',
    preset: 'preset',
    noPreset: '(none)',
    exportJsonl: 'metrics.jsonl',
    exportCsv: 'metrics.csv',
    runLink: 'link to this run',
    idle: 'Not started.',
    starting: (ranks: number) => `Starting ${ranks} rank worker${ranks === 1 ? '' : 's'}…`,
    running: (step: number, steps: number, device: string) => `Training: step ${step} of ${steps} on ${device}.`,
    stopping: 'Stopping after this step…',
    done: (step: number, steps: number, stopped: boolean) => (stopped ? `Stopped at step ${step} of ${steps}.` : `Done: ${steps} steps.`),
    failed: (message: string) => `The run failed: ${message}`,
    last: (step: number, reward: number, fraction: number) =>
      `step ${step}: reward ${reward.toFixed(4)}, ${(100 * fraction).toFixed(1)}% of optimum`,
    stepsPerSecond: (rate: number) => `${rate.toFixed(1)} steps/s`,
    device: (ranks: number, device: string) => `${ranks} rank worker${ranks === 1 ? '' : 's'} on ${device}`,
    cpuFallback: (reason: string) => `WebGPU unavailable (${reason}): training on the CPU instead.`,
    charts: {
      reward: 'reward (mean, std)',
      optimum: '% of the optimum',
      loss: 'loss',
      kl: 'KL to the initial policy',
      /** Shown instead of the KL chart when the run has no reference model. */
      klOff: 'no reference model: β = 0',
      entropy: 'entropy per head (nats)',
      zeroStd: 'zero-std fraction (tied groups)',
      advantage: 'advantage spread (std over the batch)',
      gradNorm: 'gradient norm (before clipping)',
      clip: 'clip fraction',
      /** Shown instead of the clip chart: the training step makes one pass per generation. */
      clipOff: 'nothing to clip: one optimisation pass per generation keeps the ratio at 1',
      /** Beside the loss chart. */
      lossNote:
        'The loss is ~0 by construction: on-policy (one pass per generation) the ratio is 1, so the loss is minus the mean ' +
        'advantage, and advantages are centred within each group; what trains is its gradient, Σ A·∇log π (see the gradient norm).',
      budget: 'reward per budget band: greedy policy vs optimum',
      /** Legend labels in other languages (English: the labels as the charts name them; zh-CN: every SeriesLabel). */
      series: {} as Partial<Record<SeriesLabel, string>>,
    },
    policyTitle: 'Learned policy per latency budget (greedy) next to the optimum',
    /** A configuration in the policy table: crops of the image tier, insertion position p, MoE top-K, active blocks. */
    configText: (c: { crops: number; p: number; topK: number; blocks: number }) =>
      `crops ${c.crops} · p ${c.p} · top-${c.topK} · ${c.blocks} blocks`,
    policyPending: 'Evaluating the learned policy on every prompt of the bank (in a worker)…',
    policyNone: 'Shown when a run ends or is stopped.',
    policyHead: [
      'budget',
      'prompts',
      'policy: most common choice',
      'latency ms',
      'reward',
      'optimum: most common choice',
      'latency ms',
      'reward',
    ],
    randomFraction: (f: number) => `The uniform random policy reaches ${(100 * f).toFixed(1)}% of the optimum on this bank.`,
    isolation: {
      title: 'Training needs cross-origin isolation',
      insecure: 'the page is not a secure context (serve it over https or from localhost)',
      coop: (got: string | null) =>
        `the page was served ${got ? `with Cross-Origin-Opener-Policy: ${got}` : 'without a Cross-Origin-Opener-Policy header'} (needs same-origin)`,
      coep: (got: string | null) =>
        `the page was served ${got ? `with Cross-Origin-Embedder-Policy: ${got}` : 'without a Cross-Origin-Embedder-Policy header'} ` +
        '(needs require-corp or credentialless)',
      unread:
        "the page's headers could not be read; it needs Cross-Origin-Opener-Policy: same-origin and " +
        'Cross-Origin-Embedder-Policy: require-corp (or credentialless)',
      frame: 'an embedding page or frame is not cross-origin isolated itself (each ancestor needs the same two headers)',
      why: 'The ranks share their collectives through a SharedArrayBuffer, which browsers only give a cross-origin isolated page. ',
      missing: (list: string[]) => `Missing: ${list.join('; ')}. `,
      fix: '`npm start` and `npm run preview` send both headers (vite.config.ts).',
    },
  },
  schedule: {
    title: 'How the expanded batch runs on the ranks',
    settings: 'Settings',
    preset: 'preset',
    ranks: 'ranks',
    batch: 'batch',
    k: 'k (group)',
    alpha: 'alpha',
    maxBatch: 'max-batch',
    latency: 'latency',
    constant: 'constant T',
    controller: 'controller task',
    configTime: 'config-time (ms, empty: T)',
    policy: 'policy',
    uniform: 'uniform',
    trained: 'trained (checkpoint)',
    seed: 'seed',
    runFiles: 'trained run: checkpoint.json + config.json',
    runLoaded: (name: string) => `trained policy: ${name}`,
    computing: "computing the trained policy's tables…",
    hoverHint: 'Hover over or tap a launch to see its configurations.',
    legendIdle: 'idle (hatched)',
    legendGather: 'all-gather',
    sample: (s: number) => `sample ${s}`,
    moreSamples: (n: number) => `… ${n} more samples`,
    table: 'Comparison',
    scheme: 'scheme',
    makespan: 'makespan',
    speedup: 'speed-up vs serial-dp',
    idle: 'idle per rank',
    launches: 'launches',
    peak: 'peak batch',
    captions: 'Why each scheme takes what it takes',
    error: (m: string) => `Cannot draw this schedule: ${m}`,
    rank: (r: number) => `rank ${r}`,
    ganttAria: (schemes: string) => `Gantt charts: ${schemes} (ranks × time, one time scale)`,
    idleTitle: (rank: number, pct: number, of: string) => `rank ${rank} idle ${pct}% of ${of}`,
    /** The headline, captions and conclusion from the core's facts (in English: the core's own text, as the CLI prints it). */
    explain: {
      headline: (f: HeadlineFacts) => headlineText(f),
      caption: (f: CaptionFacts) => captionText(f),
      conclusion: (f: ConclusionFacts) => conclusionText(f),
    },
    /** A preset's story by preset name (English: the core's description, so empty here). */
    presetIntro: {} as Record<string, string>,
  },
  dynamic: {
    title: 'Dynamic sampling, step by step',
    settings: 'Settings',
    preset: 'preset',
    none: 'none (random rewards)',
    policy: 'policy',
    policyLegend: 'shortage policy — what the ranks do when the pool is still short after the last resample:',
    deviceFix: 'device-fix',
    presetFixes: 'as the preset runs it',
    on: 'on (.to(device))',
    off: 'off',
    p: 'p (success probability)',
    ranks: 'ranks',
    perRank: 'per-rank',
    k: 'k',
    maxResample: 'max-resample-times',
    seed: 'seed',
    prev: '◀ back',
    next: 'next ▶',
    play: 'play',
    pause: 'pause',
    stepOf: (i: number, n: number, what: string) => `stage ${i + 1} of ${n} of the training step: ${what}`,
    /** The preset's story when another policy is selected: it is the preset's policy's story. */
    presetOtherPolicy: (preset: string, own: string) => `${preset} as the scenario tells it, with its own policy (${own}): `,
    slicesStep: 'each rank takes its slice',
    trainStep: 'the train step: stack the slice, gather it',
    inPage: 'Picture: the protocol run in this page (one thread, W concurrent copies meeting in each gather; src/core/dynamic).',
    workers: (n: number) =>
      `Train step: ${corePlural(n, 'rank')} as Web Workers sharing one SharedArrayBuffer (src/ranks), the program grpo-sandbox dynamic runs.`,
    running: 'running on the rank workers…',
    waiting: 'the rank workers start when this view is scrolled into sight',
    notRun: (why: string) => `The train step did not run on real ranks. ${why}`,
    planMatches: (n: number) => `check: all ${n} worker ranks made identical decisions, the same as the in-page protocol`,
    planDiffers: "check: THE WORKERS' PLAN DIFFERS FROM THE IN-PAGE ONE (a bug: please report it)",
    ranksDisagree: 'check: RANKS DISAGREE (a bug: please report it)',
    runHeader: (i: number, fix: boolean) => `— run ${i}: device fix ${fix ? 'on' : 'off'} —`,
    trainLine: (fix: boolean, rebalance: boolean) =>
      `train step: each rank torch.stack(rewards of its slice)${fix ? ' after .to(rank.device)' : ' (tensors not moved)'}, then ${
        rebalance ? 'allGatherVariable' : 'allGather'
      } for the loss`,
    stacked: (r: number, shape: number[], device: string, origins: string[], rows: number) =>
      `rank ${r}: stacked [${shape.join(', ')}] on ${device} (slice was on ${origins.join(', ') || 'no device'}); gathered ${corePlural(rows, 'row')}`,
    ok: (n: number) => `ok: the step trained on ${n === 1 ? 'its one rank' : `all ${n} ranks`}`,
    failedTrain:
      "the simulated run failed; every worker is stopped. In the sandbox's own words, at once (a real NCCL run would hang until its watchdog fires):",
    failedTrainOwn: 'the simulated run failed; every worker is stopped:',
    failedGeneration:
      'the simulated run failed in the generation loop, before any slice is taken or the train step runs; every worker is stopped:',
    failedCollect: 'the simulated run failed while collecting, before any slice was taken; every worker is stopped:',
    eventLine: (
      label: string,
      generated: number,
      groups: number,
      flat: number,
      added: string,
      byRank: number[],
      pool: number,
      target: number,
    ) =>
      `${label}: ${generated} generated, ${corePlural(groups, 'group')}, ${flat} flat → ${added} (by rank: ${byRank.join(' ')}) → pool ${pool}/${target}`,
    shortage: (s: number, t: number) => `Shortage: ${s}/${t}`,
    sweep: 'Sparsity sweep: share of flat groups, theory p^G + (1 − p)^G against simulation',
    runSweep: 'run the sweep',
    sweepRunning: (u: number, t: number) => `sweep running in a worker: ${u}/${t} steps`,
    sweepDone: (steps: number, ms: number) =>
      `${corePlural(steps, 'step')} in ${(ms / 1000).toFixed(1)} s (in a worker; the page stays responsive)`,
    sweepAbout: (policy: string, trials: number, k: number, ranks: number, perRank: number) =>
      `${trials} single steps per p of ${ranks} ranks × ${perRank} (k = ${k}, random binary rewards), policy ${policy}; ` +
      'short = pool still short after the last resample (theory: binomial).',
    error: (m: string) => `Cannot run this step: ${m}`,
    /** What each shortage policy does (the core's English: POLICY_ABOUT); every policy has its words. */
    policyAbout: POLICY_ABOUT as Record<Policy, string>,
    /** A preset's description by preset name (English: the core's, so empty here). */
    presetAbout: {} as Record<string, string>,
    /** How a preset's reward draws were chosen (its k among them): the core's English (DynamicPreset.draws) unless translated. */
    presetDraws: {} as Record<string, string>,
    addedValid: (n: number) => `${n} valid`,
  },
  isolation: {
    insecure:
      'This view needs SharedArrayBuffer, which browsers give only to secure pages: open it over https (or from localhost), ' +
      'and serve it with the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp.',
    frame:
      'This view needs SharedArrayBuffer, but it runs inside an iframe that is not cross-origin isolated. The page around the frame must be ' +
      'served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp, the framed page with ' +
      'Cross-Origin-Embedder-Policy: require-corp (and Cross-Origin-Resource-Policy: cross-origin when it comes from another site), and the ' +
      '<iframe> tag needs allow="cross-origin-isolated".',
    page:
      'This view needs SharedArrayBuffer, but this page is not cross-origin isolated: serve it with the headers ' +
      'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp (every script and image it loads from ' +
      'another site then needs Cross-Origin-Resource-Policy or CORS).',
    noSab:
      'This view needs SharedArrayBuffer, which this browser does not provide even though the page is cross-origin isolated; ' +
      'try a current Chrome, Edge, Firefox or Safari.',
  },
  steps: {
    title: 'What one optimizer step sees: micro-batches, policy versions and each completion’s weight',
    framework: 'framework',
    loss: 'loss',
    ranks: 'ranks',
    batch: 'batch',
    ga: 'grad. accumulation',
    spg: 'steps per generation',
    iters: 'iterations (μ)',
    spgDerived: 'empty = gradient accumulation, as TRL does',
    frameworkHint: 'the version whose micro-batching and loss normaliser the steps follow',
    lossHint: 'the loss type (its normaliser is what differs between versions)',
    meta: (framework: string, loss: string) => `${framework}, loss ${loss}: `,
    legend:
      'One row per rank, one block per micro-step (colour: the policy version that generated its completions; hatched: trained ' +
      'off-policy). Bars: each completion’s weight ÷ the global token mean’s (dashed line = 1). Above each optimizer step: the size of ' +
      'its update against the global token mean’s (Σ weight × tokens; ×1.00: the same size). With a mouse, hover over a block for its normaliser.',
    more: (n: number) => `… ${n} more optimizer steps (grpo-sandbox steps --json has all).`,
    findings: 'Findings',
    error: (m: string) => `Cannot show these steps: ${m}`,
    figure: {
      rank: (r: number) => `rank ${r}`,
      step: (i: number) => `step ${i}`,
      neverApplied: 'never applied',
      block: (micro: number, rank: number, policy: number, train: number, normaliser: string) =>
        `micro-step ${micro}, rank ${rank}: generated by policy ${policy}, trained at ${train}; normaliser ${normaliser}`,
      bar: (completion: number, tokens: number, ratio: string) =>
        `completion ${completion}: ${tokens} tokens, weight × ${ratio} of the token mean's`,
    },
    /** verl's micro-batches of one optimizer step as token bars (use_dynamic_bsz on or off); the figure's other words are the framework view's. */
    packing: {
      heading: (step: number) => `Token bars: each rank’s micro-batches of optimizer step ${step}`,
      switchLabel: 'verl’s switch:',
      legend:
        'A column per rank, a strip per micro-batch of this optimizer step; each bar is one completion, as long as its seqlen (prompt + ' +
        'response tokens, what ppo_max_token_len_per_gpu counts). The dashed line is the budget. Tap a bar (or hover it) to light its ' +
        'prompt’s copies.',
      bySamples: (micro: number) =>
        `use_dynamic_bsz off: each rank cuts its mini-batch in order into micro-batches of ppo_micro_batch_size_per_gpu = ${plural(micro, 'completion')}, ` +
        'whatever their tokens.',
      ownCounts: (budget: number, counts: readonly number[]) =>
        `Each rank’s own count, min(completions, ⌈tokens / ${budget}⌉): ${counts.map((c, r) => `rank ${r} ${c}`).join(', ')}; verl runs ` +
        'the ranks’ largest on every rank (dist.all_reduce MAX), split by Karmarkar–Karp.',
      pickHint: 'Tap a bar to light its prompt’s copies.',
      copies: (prompt: number, places: readonly { rank: number; micro: readonly number[]; copies: number }[]) =>
        places.length === 0
          ? `P${prompt} has no copy in this optimizer step.`
          : `P${prompt}’s ${plural(
              places.reduce((a, p) => a + p.copies, 0),
              'copy',
              'copies',
            )} in this optimizer step: ${places
              .map((p) => `rank ${p.rank} in ${p.micro.length === 1 ? 'micro-batch' : 'micro-batches'} ${p.micro.join(', ')}`)
              .join('; ')}.`,
      clear: 'clear',
      bar: (prompt: number | null, completion: number, tokens: number, micro: number, rank: number) =>
        `${prompt === null ? '' : `prompt ${prompt}, `}completion ${completion}: ${tokens} tokens (prompt + response), micro-batch ${micro} of rank ${rank}`,
      earlier: '← earlier step',
      later: 'later step →',
      stepOf: (step: number, steps: number) => `optimizer step ${step} of 0–${steps - 1}`,
    },
  },
  async: {
    title: 'Asynchronous GRPO: which policy version made what each step trains on',
    framework: 'framework',
    /** The staleness bound's shipped value, after the slider's label (the framework's own key). */
    shipped: (value: string) => `(shipped default ${value})`,
    noBound: (framework: string) =>
      `${framework} has no staleness setting to slide: it has no version control, so nothing bounds how old a trained completion may be.`,
    derived: 'derived',
    knobs: {
      'gen-workers': 'generation workers',
      concurrency: 'completions per worker',
      'train-batch-size': 'prompts per step',
      k: 'k (completions per prompt)',
      steps: 'trainer steps',
      seed: 'seed',
      lengths: 'completion lengths',
    },
    lengthNames: {
      bimodal: 'bimodal (¼ of prompts hard and long)',
      uniform: 'uniform (64–1023 tokens)',
      'long-tail': 'long tail (exponential)',
    } as Record<LengthDistribution, string>,
    legend:
      'Top: the trainer’s steps, and the time it waited for a batch (hatched). Each dashed line is a weight update at a ' +
      'step’s end, labelled with the policy version the generators take there. Below: one lane per generation slot; each ' +
      'bar is one completion, coloured by the policy version that decoded it (two colours: an update reached it while it ' +
      'was being generated). Faded: never trained; outlined in red with ✕: its group was dropped. With a mouse, hover over ' +
      'a bar for its prompt, versions and what became of it.',
    versions: 'policy version:',
    idleKey: 'trainer waiting',
    droppedKey: 'dropped',
    run: (steps: number, seconds: string, trained: number, meanLag: string, maxLag: number, idle: string) =>
      `${plural(steps, 'trainer step')} in ${seconds} s trained ${plural(trained, 'completion')} at a mean lag of ${meanLag} ` +
      `(max ${maxLag}); the trainer waited ${idle} s of that time for its batches (hatched).`,
    lagIs: (framework: string) => `Lag is ${framework}’s own definition: `,
    dropsNone: 'Nothing was dropped: every group generated was trained or is still waiting at the end.',
    dropped: (n: number) => `Dropped: ${plural(n, 'group')} (red ✕), none put back in the queue:`,
    why: {
      'stale-at-consumption': (n: number) => `${n} too stale when the trainer pulled ${n === 1 ? 'it' : 'them'}`,
      evicted: (n: number) => `${n} evicted from the buffer at a weight update, finished but outside the window`,
      'aborted-in-flight': (n: number) => `${n} aborted while still generating, below the window at a weight update`,
      'outside-step-window': (n: number) => `${n} outside the steps the trainer takes from`,
    } as Record<DropReason, (n: number) => string>,
    firstDrop: (prompt: number, version: number) => `The first: prompt ${prompt}, when the trainer was at v${version}: `,
    bias: (trained: string, generated: string, bias: string) =>
      `Length bias: the trained completions average ${trained} tokens against ${generated} for all finished ones (${bias}).`,
    hard: (trained: number, generated: number) => ` Hard prompts: ${trained} of ${generated} finished completions trained.`,
    commandLead: 'In a terminal:',
    tableTitle: 'Every framework at its shipped settings, on this workload',
    columns: ['framework', 'setting', 'mean lag', 'max lag', 'dropped', 'completions/s', 'trainer idle s', 'length bias', 'hard trained'],
    inFigure: (framework: string) => `${framework} (in the figure)`,
    noVersionControl: 'no version control',
    tableNote:
      'Lag is each framework’s own definition, so the same number means different things in two rows. Length bias: the mean ' +
      'length of trained completions against all finished ones; hard trained: completions of hard prompts trained / finished.',
    error: (m: string) => `Cannot run this simulation: ${m}`,
    figure: {
      trainer: 'trainer',
      worker: (w: number) => `worker ${w}`,
      step: (t: number) => `step ${t}`,
      idle: 'idle',
      update: (v: number) => `v${v}`,
      seconds: 'time (s)',
      stepTitle: (t: number, version: number, completions: number, byVersion: string, waited: string) =>
        `step ${t}, at version ${version}: trains ${plural(completions, 'completion')} (by version ${byVersion}); waited ${waited} s for its batch`,
      idleTitle: (t: number, waited: string) => `the trainer waits ${waited} s for step ${t}'s batch`,
      barTitle: (prompt: number, completion: number, tokens: number, from: string, to: string, versions: string, fate: string) =>
        `prompt ${prompt}, completion ${completion}: ${tokens} tokens, ${from}–${to} s, decoded by ${versions}; ${fate}`,
      fate: (f: GroupFate) =>
        f.kind === 'trained'
          ? `trained in step ${f.step} (lag ${f.lag})`
          : f.kind === 'dropped'
            ? `dropped at v${f.atVersion}, ${DROP_REASONS[f.why]}: “${f.detail}”`
            : 'not trained by the last step',
      lanesShown: (shown: number, slots: number) => `The first ${shown} of ${slots} lanes.`,
    },
  },
  advantages: {
    title: 'Every framework’s advantages for one batch of rewards',
    rewards: 'rewards',
    prompts: 'prompt ids',
    k: 'k (completions per prompt)',
    variants: 'every variant, not only each framework’s default',
    legend:
      'One row per scheme, one column per completion with its index, prompt id and reward above it; a line separates one prompt’s ' +
      'completions from the next. Each cell is that completion’s advantage: blue above 0, red below, grey where the framework gets NaN. ' +
      'A ! after a scheme: that framework would flag this batch (listed below the figure).',
    defaults: 'Rows: each framework’s shipped default scheme.',
    all: 'Rows: every scheme of every framework.',
    badNumber: (field: string, text: string) => `${field}: “${text}” is not a number`,
    error: (m: string) => `Cannot compare these rewards: ${m}`,
    flagged: 'What the frameworks refuse or flag',
    refuses: 'refuses this batch: ',
    mixed: (k: number, runs: string) => `its runs of k = ${k} by position mix prompts: ${runs}.`,
    run: (group: number, from: number, to: number, ids: string) => `run ${group} (positions ${from}–${to}) holds prompts ${ids}`,
    nothingFlagged: 'No framework refuses or flags this batch.',
    perScheme: 'Per scheme',
    grouping: {
      position: 'groups by position (runs of k)',
      uid: 'groups by uid (one per draw of a prompt)',
      'prompt-content': 'groups by prompt content',
      'group-object': 'groups by the group object it dispatched',
      batch: 'normalises the whole batch as one group',
    } as Record<string, string>,
    summary: (best: number, bestA: string, worst: number, worstA: string, zero: number, n: number) =>
      `highest reward (#${best}) ${bestA}, lowest (#${worst}) ${worstA}; ${zero} of ${n} advantages are 0`,
    figure: { completion: 'completion', prompt: 'prompt', reward: 'reward', refused: 'refuses this batch' },
    weights: {
      title: 'What each completion’s tokens weigh in the update',
      lengths: 'completion tokens (empty: seeded)',
      assumption:
        'Each framework’s shipped default loss normaliser (trl-grpo: TRL’s loss_type grpo, which is ms-swift’s default), read from ' +
        'the optimizer step that steps --framework builds for this batch: one rank, the whole batch one optimizer step, ' +
        'micro-batches as each framework cuts them by default.',
      given: 'Completion tokens as given.',
      seeded: (seed: number, low: number, high: number) =>
        `No completion tokens given: drawn as steps draws them, uniform in ${low}…${high} (seed ${seed}).`,
      weightLegend:
        'Each cell: the weight of one token of that completion × the global token mean’s (1 / every token of the batch). ' +
        '1: every token weighs the same (a token mean); amber above 1, teal below. A per-sequence mean gives a short completion’s tokens more weight. ' +
        'Rows marked per sample (flow_grpo, DanceGRPO: diffusion trainers, whose loss has no tokens): the weight of the whole sample × the number of ' +
        'samples (1: the per-sample mean).',
      totalLegend: (n: number) =>
        `Each cell: what the completion adds to the update, advantage × weight × tokens × ${n}, blue above 0, red below. ` +
        'Under a token mean a long completion adds more than a short one with the same advantage; under a per-sequence mean each adds its advantage alone. ' +
        `Rows marked per sample: advantage × weight × ${n}.`,
      loss: 'loss',
      switched: ' (a switch, not the default)',
      normaliser: 'normaliser: ',
      figure: {
        completion: 'completion',
        prompt: 'prompt',
        tokens: 'tokens',
        refused: 'refuses this batch',
        perSample: 'per sample',
        perToken: 'per token',
      },
    },
  },
  framework: frameworkEn,
  embed: {
    waiting: 'The layout picture is drawn when you scroll to it.',
    attributes: 'Some attributes could not be read:',
    stale: 'Showing the last valid layout.',
    open: 'open in the explorer ↗',
    next: (phase: string) => `next: ${phase} ▶`,
    again: '↺ from the start',
    regrouped: (label: string) => `regrouped ${label}`,
  },
  exportControl: {
    label: 'Figure for slides',
    width: 'width (px)',
    height: 'height (px)',
    saved: (name: string) => `saved ${name}`,
  },
  figureExport: {
    nothing: 'This view has no picture to export yet (it draws once it has started).',
    size: 'A figure size is a whole number of pixels from 16 to 8192 on each side.',
    png: 'The browser could not encode the PNG.',
  },
  scene: {
    step: (s: number) => `step ${s}`,
    rank: (r: number) => `rank ${r}`,
    concatenated: (steps: number, perRank: number) => `each rank: ${steps} step${steps === 1 ? '' : 's'} concatenated = ${perRank} samples`,
    gathered: (n: number) => `gathered order, rank-major: #0 … #${n - 1} (reading order)`,
    mixes: (prompts: string) => `✗ mixes ${prompts}`,
    size: (n: number) => `size ${n} ≠ k`,
    groups: (n: number) => `${n} groups`,
    advantage: 'advantage: blue < 0 < orange',
    slice: (perRank: number) => `rank r ← gathered[r·${perRank}, (r+1)·${perRank})`,
  },
  dynamicFig: {
    groups: (label: string) => `${label}: every rank's groups, gathered (valid: rewards differ; flat: all tie)`,
    rank: (r: number) => `rank ${r}`,
    valid: 'valid',
    flat: 'flat',
    groupTitle: (group: string, origin: number, rewards: number[], valid: boolean) =>
      `group ${group} from rank ${origin}: rewards ${rewards.join(', ')} → ${valid ? 'valid' : 'flat'}`,
    pool: (pool: number, target: number) => `pool ${pool}/${target}`,
    slices: "each rank's slice, coloured by the rank each sample came from",
    slice: (from: number | null, to: number | null, source: string) => (from === null ? `(${source})` : `[${from}:${to}]`),
    size: (n: number, of: number) => (n === of ? `${n}` : `${n} of ${of}`),
    origin: (r: number) => `from rank ${r}`,
    originKey: 'colour = the rank that generated the sample:',
    byDesign: 'sizes differ by one by design',
    noSlices: 'no slice is taken: the framework raised in its generation loop',
    initial: 'initial batch',
    round: (d: number) => `round ${d}`,
    resample: (d: number) => `resample ${d}`,
    aria: (label: string) => `dynamic sampling, ${label}`,
  },
  tours: {
    /** The tour panel's and menu's own words. */
    ui: {
      tour: 'Tour',
      tours: 'tours',
      stepOf: (i: number, n: number) => `step ${i} of ${n}`,
      back: '◀ back',
      next: 'next ▶',
      close: 'close the tour (Esc)',
      end: 'End of the tour.',
      keys: '← → step, Esc closes',
      fold: 'fold the tour to its header',
      unfold: "show the step's text",
      unknown: (name: string, names: readonly string[]) => `There is no tour “${name}”; the tours are ${names.join(', ')}.`,
    },
    /** Each tour's title and its steps' captions, in order, by tour id (src/ui/tour/tours.ts holds the steps themselves). */
    titles: {
      'seed-000': 'where the k copies of a prompt go',
      'seed-001': 'the expanded batch and how it runs',
      'seed-002': 'dynamic sampling when 3 resamples are not enough',
      'seed-003': 'training the two-stage controller',
      'seed-004': 'tensors from different devices after a cross-rank pool',
      advantages: 'what one completion’s reward becomes under each framework’s advantage',
      'trl-5619': 'TRL #5619: dapo’s update size and steps_per_generation',
      'async-grpo': 'why asynchronous training is off-policy, and what each framework does about it',
      packing: 'packing: which micro-batch a copy lands in',
    } as Record<string, string>,
    steps: {
      'seed-000': [
        "flow_grpo's DistributedKRepeatSampler: 8 ranks × train_batch_size 2 = 16 samples per batch. With k = 4 copies " +
          'per prompt, each batch draws 16 / 4 = 4 prompts and repeats each of them 4 times.',
        "The 16 samples of each step are scattered over the 8 ranks, 2 each, in the order of the seed's permutation: a " +
          "prompt's 4 copies land on 3 or 4 ranks, and one rank can hold two of them (P13 sits twice on rank 3). The seed " +
          'document expects set_epoch(epoch × 2 + i) to make every batch a new draw, but the real script (train_sd3.py) ' +
          'reads the sampler through DataLoader(num_workers=1) prepared by accelerate, one iterator made before the loop: ' +
          '3 index batches are drawn before their set_epoch call, so both steps here, 0 and 1, get set_epoch(0)’s batch: ' +
          'the two columns are the same draw. That is what a real run of this configuration gets.',
        'Follow prompt 13, highlighted: in each step two of its 4 copies sit on rank 3 (the loader hands out that batch ' +
          'twice, so the epoch holds 8 copies, 4 of them on rank 3). A diagram with one copy per GPU is only an illustration — a ' +
          'rank can hold anywhere from 0 to min(k, batch) = 2 copies of a prompt. A rank that prints the shape of its own ' +
          'batch sees only its 2 samples, and that is normal.',
        'Each rank appends its batches and concatenates them: 2 batches × 2 = 4 samples per rank per epoch, still only ' + 'its own.',
        'accelerator.gather brings the 32 samples of the epoch together in rank-major order. Only now do the copies of ' +
          'each prompt meet: here 4 prompts, each drawn twice (8 copies), where the document expected 8 prompts × 4 ' +
          'copies.',
        "flow_grpo's PerPromptStatTracker regroups the gathered samples by prompt, wherever they were generated: in the " +
          'real run each group holds 8 samples (2k), because the same batch came twice.',
        'This step sets the “loader workers” and “accelerate prepare” settings to 0, to show the loop the document ' +
          'assumes: num_workers 0 and no accelerator.prepare, so each batch is drawn after its set_epoch call. The epoch ' +
          'now holds 8 different prompts and every group has exactly 4 copies. Both back at 1 give the real script.',
        'Each sample’s advantage is its reward minus its group’s mean reward, so the copies had to meet first; it divides by the ' +
          'std of all gathered rewards (flow_grpo’s global_std). Each tile’s colour is its advantage: the key under the ' +
          'picture gives the scale and the lowest and highest value.',
        'Back to the ranks: rank r takes gathered[4r, 4r + 4), exactly the 4 samples it generated, now with their ' +
          'advantages. Each rank trains on its own samples; the groups existed only in the gathered view.',
      ],
      'seed-001': [
        'expanded_batch_size = batch_size × group_size: batch 4 × group 5 = 20 configurations (Sample1 → Config1-1 … ' +
          'Config1-5, …). repeat_interleave expands the inputs from (4, seq) to (20, seq).',
        "The ideal layout: each of the 4 ranks holds its own sample's 5 configurations.",
        'How the 20 configurations execute, one Gantt chart per scheme on one time scale (ranks × time). One ' +
          "configuration takes T; today's loop runs them one at a time with batch 1, all on GPU 0.",
        'Side by side: serial-dp takes 20T while ranks 1–3 sit idle; each GPU running its own sample (per-rank-serial) ' +
          'takes 5T — a 4× speed-up (20T / 5T), the one the scenario expects.',
        'All five schemes, with batching that is not free: α = 0.5, so a batch of 5 takes T·(0.5 + 0.5·5) = 3T. ' +
          'per-rank-batched runs each sample in one launch.',
        "Configurations are not equally costly: latencies from the controller task (each configuration's prefill " +
          'latency, drawn from the uniform policy, in ms). The bars now differ in length, and so do the makespans and ' +
          'idle fractions.',
      ],
      'seed-002': [
        'seed-002: 4 GPUs, each needs local_target = 16 samples, so global_target = 64. ms-swift builds on TRL: ' +
          'contiguous groups, one all-gather of the 64.',
        'Dynamic sampling (DAPO-style): a group whose rewards all tie (std = 0) carries no signal and is dropped. ' +
          'Initial batch: 48 of 64 valid. This view uses groups of k = 2, not 4: whole groups are kept or dropped, and ' +
          'only groups of 2 can add exactly the 2 samples of the last resample.',
        'The ranks resample, at most max_resample_times = 3: +8 (56/64), +4 (60/64), +2 (62/64). Still 2 short of 64.',
        'The current slicing of the 62-sample pool: rank r takes [16r, min(16(r+1), 62)), so ranks 0–2 get 16 and rank ' +
          '3 gets 14. Each cell is coloured by the rank that generated it.',
        'The train step on 4 rank Web Workers: the unequal batches break the gather. The sandbox names the shape mismatch ' +
          'at once ([16, 1] against [14, 1]); a real run hangs on NCCL until its watchdog fires, and raises on gloo.',
        'Fix 1 (recommended): when short, every rank falls back to its original batch — equal sizes, the step trains, ' +
          'but the flat groups are trained on too.',
        'Fix 3: local_target = floor(62 / 4) = 15, and the first 62 mod 4 = 2 ranks take one more: 16, 16, 15, 15. ' +
          'Every valid sample is used; the gather must accept sizes that differ by one.',
      ],
      'seed-003': [
        'seed-003: batch size 1, group_size = 5. For each input the two-stage controller samples 5 configurations ' +
          '(tier, insertion position, MoE top-K, active blocks), each independently by softmax then multinomial.',
        "One rank holds the whole group, so the 5 rewards are compared at once. The seed's loss: for every pair with " +
          'reward_i > reward_j, −log σ(log π_i − log π_j).',
        "The training dashboard with seed-003's settings: the seed controller (d_model 2048), one rank, 5 " +
          'configurations per step, the pairwise loss; here a short run of 30 steps on the cpu backend, which every ' +
          'browser has (webgpu is the other choice). The run starts now: the rank trains in a Web Worker and the reward ' +
          'chart fills step by step.',
        'The page draws reward, % of the optimum, loss, entropy per head and the zero-std fraction as the run goes; ' +
          'the KL and clip-fraction charts say why they stay empty here (β = 0, one pass per generation).',
        'When the run ends, the learned policy per latency budget is set against the optimum. The standard GRPO losses ' +
          'are one setting away: change loss and start again.',
      ],
      'seed-004': [
        'seed-004: 4 ranks × 16 samples, a global pool of 64 sliced back to the ranks as [0:16] [16:32] [32:48] ' + '[48:64].',
        'Dynamic sampling across ranks: every rank fetches, generates and scores together. Initial batch: 56 of 64 ' +
          'valid. This view uses groups of k = 8, not 4, so each rank’s slice of 16 holds the 2 groups the scenario ' +
          'describes.',
        'One resample adds 8, all generated on rank 1: global_pool = 64/64. The synchronisation works.',
        "gather_object collected every rank's samples into one pool, each tensor still on its source device: rank 2's " +
          'slice [32:48] holds 8 samples produced on rank 3 (cells coloured by origin rank).',
        'torch.stack([s["rewards_per_func"] for s in my_samples]) on the rank workers: the device error a real run ' +
          'gives ("Expected all tensors to be on the same device…").',
        'The fix (the fourth in the scenario’s history of fixes): move every tensor to the current rank’s device before ' +
          'stacking (.to(device), a no-op when already there). Every rank stacks [16, 1] and the step trains.',
      ],
      'async-grpo': [
        'AReaL at its shipped rollout.max_head_offpolicyness = 0 admits one batch of prompts per policy version, so generation ' +
          'waits for each weight update. Every trainer step trains only completions of its own version (one colour per step, lag 0), ' +
          'and the trainer spends most of the run waiting for its batch (hatched): 269.0 s of 349.0 s.',
        'With rollout.max_head_offpolicyness = 2 generation runs up to 2 versions ahead instead of waiting for each update: the ' +
          'trainer waits 37.1 s instead of 269.0 s, and the run takes 117.1 s. The price: a step now trains on completions made by older ' +
          'policies, so batches mix colours, and a bar of two colours was being generated when a weight update reached it (AReaL ' +
          'updates in flight). That is why asynchronous GRPO is off-policy. The bound counts rollouts run ahead, not each one’s ' +
          'age: the max lag under the figure is 4, above 2.',
        'TRL’s async trainer never pauses its generators; it drops at consumption instead: a group whose version trails the ' +
          'trainer’s by more than max_staleness is thrown away when the trainer pulls it. At max_staleness = 1, 18 groups are ' +
          'dropped (red ✕ in the figure, listed here), and not one of the 57 finished completions of hard prompts is trained: long ' +
          'completions arrive late, so they are the stale ones. The trained completions average 291 tokens against 874 generated ' +
          '(−66.7%): the data is biased toward short answers.',
        'NeMo RL’s shipped default, the windowed sampler with max_staleness_versions = 1, enforces its window at each weight ' +
          'update: 9 finished groups outside it are evicted and 17 still generating below it are aborted. None of the 15 finished ' +
          'hard completions is trained. “Max staleness 1” names a different rule here than TRL’s max_staleness 1 did.',
        'The table runs the same workload under every framework’s rule at its shipped settings. AReaL and ROLL ship synchronous: ' +
          'lag 0, and the trainer idles longest (269.0 s). prime-rl, open-instruct, SkyRL and slime drop nothing and train at a max ' +
          'lag of 5. Lag is each framework’s own definition: compare the rows by what they drop and what they train, not by the ' +
          'word “staleness”.',
      ],
      packing: [
        'NeMo RL on 2 data-parallel ranks, 4 prompts × 4 copies = 16 samples per step, with sequence packing switched off ' +
          '(policy.sequence_packing.enabled false). shard_by_batch_size hands each rank a contiguous half: rank 0 trains on ' +
          'the copies of P82 and P1019, rank 1 on those of P522 and P735.',
        'Without packing, each rank cuts its 8 samples into micro-batches of policy.train_micro_batch_size = 4 samples, in ' +
          'order: rank 0’s micro-batch 0 holds all 4 copies of P82. The bars are the samples’ token counts (synthetic, ' +
          'seeded); each strip is as long as its samples’ tokens.',
        'Switch policy.sequence_packing.enabled on (NeMo RL’s shipped setting): the step’s samples are packed by length into ' +
          'bins of at most 2048 tokens (the dashed line: max_total_sequence_length × train_micro_batch_size), and bin j goes ' +
          'to rank j % 2. P82’s 4 copies now sit in three different micro-batches of rank 0, and rank 0 trains on 9 samples, ' +
          'rank 1 on 7.',
        'Both ranks still run 3 micro-batches: the count is synchronised, so rank 1’s last micro-batch holds a single ' +
          'sample. Which micro-batch a copy lands in now depends on its length and its neighbours’, not on its position.',
        'verl packs differently (the steps view): the verl sampler on 2 ranks, 4 prompts × 4 copies, 8 completions per rank, ' +
          'with actor.use_dynamic_bsz on. Each rank’s 8 completions (4561 and 4562 tokens, prompt + response) are cut into ' +
          'min(8, ⌈tokens / 2048⌉) = 3 micro-batches by Karmarkar–Karp, where the switch off gives 2 of ' +
          'ppo_micro_batch_size_per_gpu = 4. P15’s two copies on rank 1 now share micro-batch 1; off, they sat in micro-batches 0 and 1.',
      ],
      advantages: [
        'Twelve completions of four prompts (the rows above the cells: completion, prompt, reward). Follow completion 9: ' +
          'prompt 2, reward 0, while its two siblings scored 1. verl’s default GRPO groups it with them by uid and ' +
          'divides by their unbiased std: (0 − 0.67) / 0.58 = −1.15.',
        'The group decides it. TRL’s view(-1, k) takes positions 8–11 as a group: prompt 2’s three completions and prompt ' +
          '3’s only one (flagged under the figure), so completion 9 gets −0.87 and prompt 3’s completion 11, alone under ' +
          'verl (0), gets −0.87 too. flow_grpo groups by prompt id but divides by the std of all 12 rewards: −1.35.',
        'Dividing by the std or not: verl with norm_adv_by_std_in_grpo false (Dr. GRPO) keeps r − mean = −0.67. TRL’s ' +
          'async scorer divides by numpy’s std (ddof 0, 0.47, not 0.58): −1.41. Prompt 0’s four equal rewards give 0 under ' +
          'all three.',
        'eps: completion 9 now scores 0.999, a thousandth under its siblings, so its group’s std is 0.00047. TRL’s async ' +
          'scorer adds 1e-8 to it and still gives −1.41, as for a failure; flow_grpo’s tracker with a per-prompt std adds 1e-4, ' +
          'a fifth of the std, and gives −1.17. Same rewards, same std, only eps differs.',
        'Leave-one-out (rewards back to the first batch): NeMo RL’s default compares completion 9 with the mean of the ' +
          'other two (1) and divides by their std only where it is above 0 (here 0): −1.00, against −1.15 without it. ' +
          'SkyRL’s rloo gives −1.00 too. Prompt 1’s lone success (completion 4) gets 1.00 instead of 1.50.',
        'slime normalises rows of n = 4 only when the batch holds n × rollout_batch_size = 16 completions; these 12 make it ' +
          'treat the whole batch as one group (flagged under the figure): completion 9 gets −1.13, and prompt 0’s four equal ' +
          'rewards, 0 under verl, get +0.81 each, a push for completions that taught nothing.',
      ],
      'trl-5619': [
        'TRL 1.9.0, loss dapo: 2 ranks × 2 completions per micro-step, gradient_accumulation_steps 2, so every ' +
          'optimizer step trains on 8 completions. With steps_per_generation 4, a generation batch spans two optimizer ' +
          'steps, and dapo divides every micro-step by the tokens of the whole generation batch: each update is about ' +
          'half the global token mean’s (GA / spg = 0.5).',
        'The same 8 completions per optimizer step, now with steps_per_generation 2 = GA: the generation batch is the ' +
          'accumulation window, and every update has exactly the token mean’s size (× 1). Same global batch, a different ' +
          'learning rate: TRL #5619.',
        'TRL 1.13.0 (PR #6024) rescales the normaliser by GA / steps_per_generation: with steps_per_generation 4 the ' +
          'updates are back at the token mean’s size, within a few per cent (each half of the generation batch has its ' +
          'own token count; the fix assumes they are equal).',
        'And with steps_per_generation 2 nothing changed: × 1 as before. Hatched blocks (steps_per_generation 4) are ' +
          'micro-steps trained one optimizer step after their completions were generated: off-policy, whatever the loss.',
      ],
    } as Record<string, string[]>,
  },
};

/** The shape every language's catalogue has (zh-CN.ts is typed with it). */
export type Catalogue = typeof en;
