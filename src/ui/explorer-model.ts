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
import type { CaptionContext } from './story.ts';
import { promptColours } from './palette.ts';

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
  /** Why advantages cannot be computed for this regrouping (e.g. view(-1, k) on a ragged count). */
  advantageError: string | null;
  colours: Map<number, string>;
  caption: CaptionContext;
  /** Every copy of the selected prompt over the whole layout. */
  copies: CopyPlace[];
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
    return { advantages: null, error: (e as Error).message };
  }
}

/** The "what if" note when `regroup` is not what the sampler's framework does; null when it is. */
export function whatIf(sampler: LayoutConfig['sampler'], regroup: ExplorerState['regroup']): string | null {
  const fw = frameworkDefaults[sampler];
  if (!fw || fw.regroup === regroup) return null;
  const label = regroupMethods.find((m) => m.method === regroup)?.label ?? regroup;
  return `What if: this regroups ${label} on a ${fw.framework} layout; ${fw.framework} itself ${fw.does}.`;
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
  };
}
