// The overview of a layout too big to draw sample by sample: for one gather, a heatmap of how
// many copies each block of ranks holds of each block of prompt ids (rank × prompt, binned), and
// the few counts that say how copies spread. A window of ranks and of the gather's steps zooms
// in: the heatmap is re-binned over the window only, and the counts are the window's. Plain loops over layout.steps with numeric keys, so
// 10^6 samples take well under a second (no per-sample objects or strings).
import type { Layout } from './types.ts';

/** A zoom: ranks [rankFrom, rankTo) and the gather's steps [stepFrom, stepTo) (positions in the gather, not layout step indices). */
export interface OverviewWindow {
  rankFrom: number;
  rankTo: number;
  stepFrom: number;
  stepTo: number;
}

export interface LayoutOverview {
  ranks: number;
  datasetSize: number;
  /** The gather shown (clamped to the layout's) and how many gathers the layout has. */
  gatherIndex: number;
  gatherCount: number;
  /** Layout steps the gather covers; those of the window shown, and the window (clamped; the whole gather when none was asked for). */
  gatherSteps: number[];
  stepIndices: number[];
  window: OverviewWindow;
  /** Samples in the window (the whole gather when not zoomed). */
  samples: number;
  /** Heatmap: rows × cols cells, row-major; row r covers ranks [rankFrom + r·ranksPerRow, …), col c prompt ids [c·promptsPerCol, …). */
  rows: number;
  cols: number;
  ranksPerRow: number;
  promptsPerCol: number;
  counts: Uint32Array;
  maxCount: number;
  /** Distinct prompts in the window. */
  prompts: number;
  /** Most copies of one prompt on one rank in the window, and the mean number of ranks (of the window) a prompt's copies reach. */
  maxCopiesOnOneRank: number;
  meanRanksPerPrompt: number;
}

const clampInt = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Number.isFinite(v) ? Math.trunc(v) : lo));

/**
 * Overview of the `gatherIndex`-th gather (per epoch or per step, as the layout gathers), at most
 * maxRows × maxCols cells; `zoom` narrows it to a window of ranks and of the gather's steps
 * (clamped to what exists; an empty range widens to one rank or step).
 */
export function layoutOverview(
  layout: Layout,
  gatherIndex: number,
  maxRows = 256,
  maxCols = 512,
  zoom?: Partial<OverviewWindow>,
): LayoutOverview {
  const { ranks, datasetSize } = layout.config;
  const gatherSteps: number[] = [];
  let gatherCount: number;
  let gather: number;
  if (layout.gatherScope === 'step') {
    gatherCount = layout.steps.length;
    gather = clampInt(gatherIndex, 0, gatherCount - 1);
    gatherSteps.push(gather);
  } else {
    const epochs = [...new Set(layout.steps.map((s) => s.epoch))];
    gatherCount = epochs.length;
    gather = clampInt(gatherIndex, 0, gatherCount - 1);
    layout.steps.forEach((s, i) => {
      if (s.epoch === epochs[gather]) gatherSteps.push(i);
    });
  }
  const rankFrom = clampInt(zoom?.rankFrom ?? 0, 0, ranks - 1);
  const rankTo = clampInt(zoom?.rankTo ?? ranks, rankFrom + 1, ranks);
  const stepFrom = clampInt(zoom?.stepFrom ?? 0, 0, gatherSteps.length - 1);
  const stepTo = clampInt(zoom?.stepTo ?? gatherSteps.length, stepFrom + 1, gatherSteps.length);
  const stepIndices = gatherSteps.slice(stepFrom, stepTo);
  const shownRanks = rankTo - rankFrom;
  const ranksPerRow = Math.ceil(shownRanks / maxRows);
  const promptsPerCol = Math.ceil(datasetSize / maxCols);
  const rows = Math.ceil(shownRanks / ranksPerRow);
  const cols = Math.ceil(datasetSize / promptsPerCol);
  const counts = new Uint32Array(rows * cols);
  const onRank = new Map<number, number>(); // prompt · ranks + rank → copies
  let samples = 0;
  for (const si of stepIndices) {
    const step = layout.steps[si]!;
    for (let r = rankFrom; r < rankTo; r++) {
      const row = Math.floor((r - rankFrom) / ranksPerRow) * cols;
      for (const p of step.ranks[r]!) {
        counts[row + Math.floor(p / promptsPerCol)]! += 1;
        const key = p * ranks + r;
        onRank.set(key, (onRank.get(key) ?? 0) + 1);
        samples++;
      }
    }
  }
  let maxCount = 0;
  for (const c of counts) maxCount = Math.max(maxCount, c);
  let maxCopiesOnOneRank = 0;
  const ranksOfPrompt = new Map<number, number>();
  for (const [key, n] of onRank) {
    maxCopiesOnOneRank = Math.max(maxCopiesOnOneRank, n);
    const p = Math.floor(key / ranks);
    ranksOfPrompt.set(p, (ranksOfPrompt.get(p) ?? 0) + 1);
  }
  let spanned = 0;
  for (const n of ranksOfPrompt.values()) spanned += n;
  return {
    ranks,
    datasetSize,
    gatherIndex: gather,
    gatherCount,
    gatherSteps,
    stepIndices,
    window: { rankFrom, rankTo, stepFrom, stepTo },
    samples,
    rows,
    cols,
    ranksPerRow,
    promptsPerCol,
    counts,
    maxCount,
    prompts: ranksOfPrompt.size,
    maxCopiesOnOneRank,
    meanRanksPerPrompt: ranksOfPrompt.size ? spanned / ranksOfPrompt.size : 0,
  };
}
