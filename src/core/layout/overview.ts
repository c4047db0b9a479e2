// The overview of a layout too big to draw sample by sample: for one gather, a heatmap of how
// many copies each block of ranks holds of each block of prompt ids (rank × prompt, binned), and
// the few counts that say how copies spread. Plain loops over layout.steps with numeric keys, so
// 10^6 samples take well under a second (no per-sample objects or strings).
import type { Layout } from './types.ts';

export interface LayoutOverview {
  ranks: number;
  datasetSize: number;
  /** Layout steps the gather covers. */
  stepIndices: number[];
  samples: number;
  /** Heatmap: rows × cols cells, row-major; row r covers ranks [r·ranksPerRow, (r+1)·ranksPerRow), col c prompt ids [c·promptsPerCol, …). */
  rows: number;
  cols: number;
  ranksPerRow: number;
  promptsPerCol: number;
  counts: Uint32Array;
  maxCount: number;
  /** Distinct prompts in the gather. */
  prompts: number;
  /** Most copies of one prompt on one rank in the gather, and the mean number of ranks a prompt's copies reach. */
  maxCopiesOnOneRank: number;
  meanRanksPerPrompt: number;
}

/** Overview of the `gatherIndex`-th gather (per epoch or per step, as the layout gathers), at most maxRows × maxCols cells. */
export function layoutOverview(layout: Layout, gatherIndex: number, maxRows = 256, maxCols = 512): LayoutOverview {
  const { ranks, datasetSize } = layout.config;
  const stepIndices: number[] = [];
  if (layout.gatherScope === 'step') stepIndices.push(Math.min(gatherIndex, layout.steps.length - 1));
  else {
    const epochs = [...new Set(layout.steps.map((s) => s.epoch))];
    const epoch = epochs[Math.min(gatherIndex, epochs.length - 1)];
    layout.steps.forEach((s, i) => {
      if (s.epoch === epoch) stepIndices.push(i);
    });
  }
  const ranksPerRow = Math.ceil(ranks / maxRows);
  const promptsPerCol = Math.ceil(datasetSize / maxCols);
  const rows = Math.ceil(ranks / ranksPerRow);
  const cols = Math.ceil(datasetSize / promptsPerCol);
  const counts = new Uint32Array(rows * cols);
  const onRank = new Map<number, number>(); // prompt · ranks + rank → copies
  let samples = 0;
  for (const si of stepIndices) {
    const step = layout.steps[si]!;
    for (let r = 0; r < step.ranks.length; r++) {
      const row = Math.floor(r / ranksPerRow) * cols;
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
    stepIndices,
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
