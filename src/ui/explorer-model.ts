// What the explorer shows for a state, read from the core: the layout (or the core's error and
// the last valid layout, so the view is never blank), the followed gather, its regrouped rows,
// demonstration rewards and the framework's advantages. Glue only: every number comes from
// src/core. Layouts are memoised by configuration so moving through the story costs nothing.
import type { ConfigError } from '../core/errors.ts';
import { buildLayout, defaultConfig } from '../core/samplers/index.ts';
import { checkView } from './view-budget.ts';
import { gathers } from '../core/layout/gather.ts';
import { regroup } from '../core/layout/regroup.ts';
import { copiesOf } from '../core/layout/copies.ts';
import { layoutStats, type LayoutStats } from '../core/layout/stats.ts';
import { advantagesOfRegroup } from '../core/grpo/advantages.ts';
import { gatherFacts } from '../core/layout/gather-facts.ts';
import { frameworkDefaults } from '../core/grpo/framework-defaults.ts';
import { regroupMethods } from '../core/layout/regroup.ts';
import { toyRewards } from '../core/grpo/toy-rewards.ts';
import type { CopyPlace, Gather, Layout, LayoutConfig, RegroupRow } from '../core/layout/types.ts';
import type { ExplorerState } from './url-state.ts';
import type { CaptionContext, GatherLoader } from './story.ts';
import { loaderFacts } from '../core/frameworks/flow-grpo/loader-facts.ts';
import { promptColours } from './palette.ts';
import { advantageErrorWords } from './core-text.ts';
import { M } from './i18n/index.ts';

export interface ExplorerView {
  /** The layout drawn: the state's, or the last valid one while the state's config is invalid. */
  layout: Layout;
  /** The core's complaint about the state's config, or the page's when it is too big to draw here. */
  error: ConfigError | null;
  stats: LayoutStats;
  gathers: Gather[];
  gatherIndex: number;
  gather: Gather;
  rows: RegroupRow[];
  /** One reward and one advantage per gathered sample (gathered order). */
  rewards: number[];
  advantages: number[] | null;
  /** Why advantages cannot be computed for this regrouping (e.g. view(-1, k) on a ragged count), in the page's words. */
  advantageError: string | null;
  colours: Map<number, string>;
  caption: CaptionContext;
  /** Every copy of the selected prompt over the whole layout. */
  copies: CopyPlace[];
  /** The same draws under the state's `compare` regrouping, or null. */
  compare: ComparedView | null;
}

/** A second regrouping of the followed gather, with how it differs from the first. */
export interface ComparedView {
  regroup: ExplorerState['regroup'];
  rows: RegroupRow[];
  advantages: number[] | null;
  advantageError: string | null;
  mixedRows: number;
  /** Samples whose advantage differs between the two regroupings (|Δ| > 1e-9), and the largest |Δ|. */
  differing: number;
  maxDifference: number;
  /** One sentence naming the difference, from the counts above (rows and advantages: from the advantages phase on). */
  text: string;
  /** The same sentence about the rows only, for the phases before the advantages exist. */
  rowsText: string;
}

function compareView(
  state: ExplorerState,
  gather: Gather,
  rewards: number[],
  k: number,
  first: { advantages: number[] | null },
  framework: string,
): ComparedView | null {
  if (state.compare === null) return null;
  const rows = regroup(gather, state.compare, k);
  const { advantages, error } = advantagesOf({ ...state, regroup: state.compare }, gather, rewards, k);
  let differing = 0;
  let maxDifference = 0;
  if (advantages && first.advantages) {
    advantages.forEach((a, i) => {
      const d = Math.abs(a - first.advantages![i]!);
      if (d > 1e-9 || Number.isNaN(d)) differing++;
      if (d > maxDifference) maxDifference = d;
    });
  }
  const mixedRows = rows.filter((r) => r.mixed).length;
  const T = M().model;
  const name = T.methodName[state.compare];
  const own = T.methodName[state.regroup];
  const rowsPart = mixedRows > 0 ? T.rowsMixed(name, framework, mixedRows, rows.length) : T.rowsKept(name, framework, rows.length);
  const rowsText = T.rowsText(rowsPart);
  const text =
    error !== null
      ? T.withError(rowsPart, error)
      : first.advantages === null
        ? T.noneToCompare(rowsPart, own)
        : differing > 0
          ? T.differ(rowsPart, differing, rewards.length, own, maxDifference.toFixed(3), mixedRows > 0)
          : T.equal(rowsPart, own);
  return { regroup: state.compare, rows, advantages, advantageError: error, mixedRows, differing, maxDifference, text, rowsText };
}

const layouts = new Map<string, { layout: Layout; stats: LayoutStats }>();

/** The layout and statistics of a config (memoised; throws the core's ConfigError). */
export function layoutOf(config: LayoutConfig): { layout: Layout; stats: LayoutStats } {
  const key = JSON.stringify(config);
  let hit = layouts.get(key);
  if (!hit) {
    const layout = buildLayout(config);
    hit = { layout, stats: layoutStats(layout) };
    if (layouts.size > 24) layouts.clear();
    layouts.set(key, hit);
  }
  return hit;
}

/** The core's advantages for the state's regrouping, or why they cannot be computed. */
function advantagesOf(
  state: ExplorerState,
  gather: Gather,
  rewards: number[],
  k: number,
): { advantages: number[] | null; error: string | null } {
  try {
    return { advantages: advantagesOfRegroup(state.regroup, gather, rewards, k, state.scale), error: null };
  } catch (e) {
    return { advantages: null, error: advantageErrorWords(e) };
  }
}

/** The "what if" note when `regroup` is not what the sampler's framework does; null when it is. */
export function whatIf(sampler: LayoutConfig['sampler'], regroup: ExplorerState['regroup']): string | null {
  const fw = frameworkDefaults[sampler];
  if (!fw || fw.regroup === regroup) return null;
  const label = M().core.regroup[regroup] ?? regroupMethods.find((m) => m.method === regroup)?.label ?? regroup;
  return M().model.whatIf(label, fw.framework, M().core.does[sampler]);
}

/** What flow_grpo's loader did to the steps of one gather (the core's loaderFacts, restricted to them). */
function gatherLoader(layout: Layout, stepIndices: readonly number[]): GatherLoader | null {
  const facts = loaderFacts(layout);
  if (!facts) return null;
  const inGather = new Set(stepIndices);
  const N = layout.config.batchesPerEpoch;
  const epochs = new Set(stepIndices.map((t) => Math.floor(t / N)));
  return {
    numWorkers: layout.config.numWorkers,
    prefetchFactor: layout.config.prefetchFactor,
    acceleratePrepare: layout.config.acceleratePrepare === 1,
    lookAhead: facts.lookAhead,
    idealised: facts.idealised,
    repeats: facts.repeats
      .filter((r) => inGather.has(r.step) && inGather.has(r.sameAs))
      .map((r) => ({ step: r.step % N, sameAs: r.sameAs % N })),
    bigGroups: facts.bigGroups.filter((g) => epochs.has(g.epoch)).length,
  };
}

/** Reads everything the explorer draws for `state`; `fallback` is the last config that was valid. */
export function deriveView(state: ExplorerState, fallback: LayoutConfig = defaultConfig): ExplorerView {
  // Checked before anything is built: an invalid or oversized configuration shows the last valid layout.
  const error: ConfigError | null = checkView(state.config);
  const built = layoutOf(error === null ? state.config : fallback);
  const { layout, stats } = built;
  const all = gathers(layout);
  const gatherIndex = Math.min(Math.max(0, state.gather), all.length - 1);
  const gather = all[gatherIndex]!;
  const k = layout.config.k;
  const rows = regroup(gather, state.regroup, k);
  const promptIds = gather.samples.map((s) => s.promptId);
  const rewards = toyRewards(state.rewards, layout.config.seed, gatherIndex, promptIds);
  const { advantages, error: advantageError } = advantagesOf(state, gather, rewards, k);
  const tiedGroups = rows.filter((r) => r.members.length > 1 && r.members.every((i) => rewards[i] === rewards[r.members[0]!])).length;
  const caption: CaptionContext = {
    config: layout.config,
    steps: gather.stepIndices.length,
    gatherIndex,
    gatherCount: all.length,
    gatherScope: layout.gatherScope,
    samples: gather.samples.length,
    perRank: gather.samples.length / layout.config.ranks,
    prompts: new Set(promptIds).size,
    regroup: state.regroup,
    groups: rows.length,
    mixedGroups: rows.filter((r) => r.mixed).length,
    facts: gatherFacts(gather, k),
    offSizeGroups: rows.filter((r) => r.offSize).length,
    tiedGroups,
    rewards: state.rewards,
    scale: state.scale,
    whatIf: whatIf(layout.config.sampler, state.regroup),
    loader: gatherLoader(layout, gather.stepIndices),
  };
  return {
    layout,
    error,
    stats,
    gathers: all,
    gatherIndex,
    gather,
    rows,
    rewards,
    advantages,
    advantageError,
    colours: promptColours(promptIds),
    caption,
    copies: state.prompt === null ? [] : copiesOf(layout, state.prompt),
    compare: compareView(
      state,
      gather,
      rewards,
      k,
      { advantages },
      frameworkDefaults[layout.config.sampler]?.framework ?? layout.config.sampler,
    ),
  };
}
