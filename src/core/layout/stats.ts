// Counts that explain a layout: seed-000's arithmetic and how the copies are spread over ranks.
import { gathers } from './gather.ts';
import { regroup } from './regroup.ts';
import type { Layout, TrainingCounts } from './types.ts';

/** A prompt drawn more than once within one epoch. */
export interface RepeatedPrompt {
  epoch: number;
  promptId: number;
  /** How many draws (groups of k) of it the epoch holds. */
  draws: number;
  /** Indices into layout.steps holding its copies. */
  stepIndices: number[];
}

export interface LayoutStats {
  /** All ranks together per layout step: ranks × perRankPerBatch (seed-000: 16). */
  samplesPerBatch: number;
  /** Prompt draws per step: samplesPerBatch / k (seed-000: 4); fractional for flow-grpo-lcm when k does not divide it. */
  uniquePromptsPerBatch: number;
  /** seed-000: 32. */
  samplesPerEpoch: number;
  /** Prompt draws per epoch: samplesPerEpoch / k (seed-000: 8); a prompt drawn twice counts twice. */
  uniquePromptsPerEpoch: number;
  /** Samples one rank receives per step (what a per-rank `shape[0]` shows; seed-000: 2). */
  perRankPerBatch: number;
  /** Samples one rank concatenates over an epoch (seed-000: 4). */
  perRankPerEpoch: number;
  stepsPerEpoch: number;
  totalSteps: number;
  /** Number of all-gathers and the samples each returns. */
  gathers: number;
  samplesPerGather: number;
  /** Distinct prompt ids seen in each epoch (uniquePromptsPerEpoch minus repeats). */
  distinctPromptsPerEpoch: number[];
  /** Draws (groups of k copies) over the whole layout. */
  groups: number;
  /** [c] = how many (group, rank) pairs have c copies of the group on that rank, c = 0 … maxPossible. */
  copiesPerRankHistogram: number[];
  /** [s] = how many groups have their copies on exactly s ranks (index 0 unused). */
  ranksSpannedHistogram: number[];
  meanRanksSpanned: number;
  /** Most copies of one group found on one rank (0 … min(k, perRankPerBatch) for flow-grpo). */
  maxCopiesOnOneRank: number;
  /** Prompts drawn more than once in one epoch (flow_grpo: they form 2k groups by prompt id). */
  promptsDrawnTwice: RepeatedPrompt[];
  /** Prompt-id groups (flow_grpo's regrouping) whose size is not k, over all gathers. */
  offSizePromptGroups: number;
  /** Rows of view(-1, k) (TRL's regrouping) over all gathers, and how many mix prompts or are short. */
  viewRows: number;
  mixedViewRows: number;
  offSizeViewRows: number;
  /** Generation batches, micro-steps and optimizer steps per epoch and in total, as the framework's loop counts them. */
  counts: TrainingCounts;
  /** counts.total.optimizerSteps: the number of weight updates the whole run makes (per process). */
  optimizerSteps: number;
}

/** Computes the statistics of a layout (counts over all steps, epochs and gathers). */
export function layoutStats(layout: Layout): LayoutStats {
  const { config, steps } = layout;
  const k = config.k;
  const ranks = config.ranks;
  const perRankPerBatch = steps[0]?.ranks[0]?.length ?? 0;
  const samplesPerBatch = ranks * perRankPerBatch;
  const stepsPerEpoch = config.batchesPerEpoch;
  const samplesPerEpoch = stepsPerEpoch * samplesPerBatch;
  const all = gathers(layout);

  // Groups = per-draw uids; count each group's copies per rank. Sparse (only the ranks a group
  // touches): an array as long as `ranks` per group made 10^4 ranks × 10^4 groups run out of memory.
  const perGroup = new Map<string, Map<number, number>>();
  for (const g of all) {
    for (const s of g.samples) {
      let counts = perGroup.get(s.uid);
      if (!counts) perGroup.set(s.uid, (counts = new Map()));
      counts.set(s.rank, (counts.get(s.rank) ?? 0) + 1);
    }
  }
  const maxPossible = Math.min(k, perRankPerBatch * (layout.drawScope === 'epoch' ? stepsPerEpoch : 1));
  const copiesPerRankHistogram = new Array<number>(maxPossible + 1).fill(0);
  const ranksSpannedHistogram = new Array<number>(Math.min(k, ranks) + 1).fill(0);
  let maxCopiesOnOneRank = 0;
  let spannedSum = 0;
  for (const counts of perGroup.values()) {
    // The ranks this group does not touch hold 0 copies of it.
    copiesPerRankHistogram[0]! += ranks - counts.size;
    for (const c of counts.values()) {
      copiesPerRankHistogram[c] = (copiesPerRankHistogram[c] ?? 0) + 1;
      maxCopiesOnOneRank = Math.max(maxCopiesOnOneRank, c);
    }
    ranksSpannedHistogram[counts.size] = (ranksSpannedHistogram[counts.size] ?? 0) + 1;
    spannedSum += counts.size;
  }

  // Draws per prompt per epoch, from the uids (one uid = one draw).
  const drawsByEpoch = new Map<number, Map<number, { uids: Set<string>; steps: Set<number> }>>();
  for (const g of all) {
    for (const s of g.samples) {
      const epoch = steps[s.stepIndex]!.epoch;
      let prompts = drawsByEpoch.get(epoch);
      if (!prompts) drawsByEpoch.set(epoch, (prompts = new Map()));
      let entry = prompts.get(s.promptId);
      if (!entry) prompts.set(s.promptId, (entry = { uids: new Set(), steps: new Set() }));
      entry.uids.add(s.uid);
      entry.steps.add(s.stepIndex);
    }
  }
  const promptsDrawnTwice: RepeatedPrompt[] = [];
  const distinctPromptsPerEpoch: number[] = [];
  for (const [epoch, prompts] of [...drawsByEpoch.entries()].sort((a, b) => a[0] - b[0])) {
    distinctPromptsPerEpoch.push(prompts.size);
    for (const [promptId, e] of [...prompts.entries()].sort((a, b) => a[0] - b[0])) {
      if (e.uids.size > 1) promptsDrawnTwice.push({ epoch, promptId, draws: e.uids.size, stepIndices: [...e.steps].sort((a, b) => a - b) });
    }
  }

  let offSizePromptGroups = 0;
  let viewRows = 0;
  let mixedViewRows = 0;
  let offSizeViewRows = 0;
  for (const g of all) {
    offSizePromptGroups += regroup(g, 'prompt-id', k).filter((r) => r.offSize).length;
    const rows = regroup(g, 'view', k);
    viewRows += rows.length;
    mixedViewRows += rows.filter((r) => r.mixed).length;
    offSizeViewRows += rows.filter((r) => r.offSize).length;
  }

  return {
    samplesPerBatch,
    uniquePromptsPerBatch: samplesPerBatch / k,
    samplesPerEpoch,
    uniquePromptsPerEpoch: samplesPerEpoch / k,
    perRankPerBatch,
    perRankPerEpoch: perRankPerBatch * stepsPerEpoch,
    stepsPerEpoch,
    totalSteps: steps.length,
    gathers: all.length,
    samplesPerGather: all[0]?.samples.length ?? 0,
    distinctPromptsPerEpoch,
    groups: perGroup.size,
    copiesPerRankHistogram,
    ranksSpannedHistogram,
    meanRanksSpanned: perGroup.size ? spannedSum / perGroup.size : 0,
    maxCopiesOnOneRank,
    promptsDrawnTwice,
    offSizePromptGroups,
    viewRows,
    mixedViewRows,
    offSizeViewRows,
    counts: layout.counts,
    optimizerSteps: layout.counts.total.optimizerSteps,
  };
}
