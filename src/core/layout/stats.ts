// Counts that explain a layout: seed-000's arithmetic and how the copies are spread over ranks.
import { gathers } from './gather.ts';
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

  // Groups = per-draw uids. Each sample gets its group's index; the groups' samples are then
  // visited group by group (a counting sort), counting copies per rank in one ranks-long scratch
  // array: only the ranks a group touches are counted (an array per group made 10^4 ranks × 10^4
  // groups run out of memory), with no map per group.
  const groupIndex = new Map<string, number>();
  const groupPrompt: number[] = [];
  const groupEpoch: number[] = [];
  let samples = 0;
  for (const g of all) samples += g.samples.length;
  const groupOf = new Int32Array(samples);
  const rankOf = new Int32Array(samples);
  const stepOf = new Int32Array(samples);
  let n = 0;
  for (const g of all) {
    for (const s of g.samples) {
      let gi = groupIndex.get(s.uid);
      if (gi === undefined) {
        gi = groupPrompt.length;
        groupIndex.set(s.uid, gi);
        groupPrompt.push(s.promptId);
        groupEpoch.push(steps[s.stepIndex]!.epoch);
      }
      groupOf[n] = gi;
      rankOf[n] = s.rank;
      stepOf[n] = s.stepIndex;
      n++;
    }
  }
  const groups = groupPrompt.length;
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < samples; i++) start[groupOf[i]! + 1]! += 1;
  for (let gi = 0; gi < groups; gi++) start[gi + 1]! += start[gi]!;
  const byGroup = new Int32Array(samples);
  const fill = start.slice(0, groups);
  for (let i = 0; i < samples; i++) byGroup[fill[groupOf[i]!]!++] = i;

  const maxPossible = Math.min(k, perRankPerBatch * (layout.drawScope === 'epoch' ? stepsPerEpoch : 1));
  const copiesPerRankHistogram = new Array<number>(maxPossible + 1).fill(0);
  const ranksSpannedHistogram = new Array<number>(Math.min(k, ranks) + 1).fill(0);
  let maxCopiesOnOneRank = 0;
  let spannedSum = 0;
  const copiesOnRank = new Int32Array(ranks);
  const touched: number[] = [];
  for (let gi = 0; gi < groups; gi++) {
    touched.length = 0;
    for (let j = start[gi]!; j < start[gi + 1]!; j++) {
      const r = rankOf[byGroup[j]!]!;
      if (copiesOnRank[r] === 0) touched.push(r);
      copiesOnRank[r]! += 1;
    }
    // The ranks this group does not touch hold 0 copies of it.
    copiesPerRankHistogram[0]! += ranks - touched.length;
    for (const r of touched) {
      const c = copiesOnRank[r]!;
      copiesPerRankHistogram[c] = (copiesPerRankHistogram[c] ?? 0) + 1;
      maxCopiesOnOneRank = Math.max(maxCopiesOnOneRank, c);
      copiesOnRank[r] = 0;
    }
    ranksSpannedHistogram[touched.length] = (ranksSpannedHistogram[touched.length] ?? 0) + 1;
    spannedSum += touched.length;
  }

  // Draws per prompt per epoch: one group (uid) is one draw, within one epoch.
  const drawsByEpoch = new Map<number, Map<number, number[]>>();
  for (let gi = 0; gi < groups; gi++) {
    let prompts = drawsByEpoch.get(groupEpoch[gi]!);
    if (!prompts) drawsByEpoch.set(groupEpoch[gi]!, (prompts = new Map()));
    const draws = prompts.get(groupPrompt[gi]!);
    if (draws) draws.push(gi);
    else prompts.set(groupPrompt[gi]!, [gi]);
  }
  const promptsDrawnTwice: RepeatedPrompt[] = [];
  const distinctPromptsPerEpoch: number[] = [];
  for (const [epoch, prompts] of [...drawsByEpoch.entries()].sort((a, b) => a[0] - b[0])) {
    distinctPromptsPerEpoch.push(prompts.size);
    for (const [promptId, draws] of [...prompts.entries()].sort((a, b) => a[0] - b[0])) {
      if (draws.length < 2) continue;
      const stepIndices = new Set<number>();
      for (const gi of draws) for (let j = start[gi]!; j < start[gi + 1]!; j++) stepIndices.add(stepOf[byGroup[j]!]!);
      promptsDrawnTwice.push({ epoch, promptId, draws: draws.length, stepIndices: [...stepIndices].sort((a, b) => a - b) });
    }
  }

  // flow_grpo's prompt-id groups and TRL's view(-1, k) rows, counted without building the rows (regroup.ts builds them).
  let offSizePromptGroups = 0;
  let viewRows = 0;
  let mixedViewRows = 0;
  let offSizeViewRows = 0;
  for (const g of all) {
    const perPrompt = new Map<number, number>();
    for (const s of g.samples) perPrompt.set(s.promptId, (perPrompt.get(s.promptId) ?? 0) + 1);
    for (const size of perPrompt.values()) if (size !== k) offSizePromptGroups++;
    const count = g.samples.length;
    for (let begin = 0; begin < count; begin += k) {
      viewRows++;
      const end = Math.min(count, begin + k);
      if (end - begin !== k) offSizeViewRows++;
      const first = g.samples[begin]!.promptId;
      for (let i = begin + 1; i < end; i++) {
        if (g.samples[i]!.promptId !== first) {
          mixedViewRows++;
          break;
        }
      }
    }
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
    groups,
    copiesPerRankHistogram,
    ranksSpannedHistogram,
    meanRanksSpanned: groups ? spannedSum / groups : 0,
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
