// The story the explorer tells, phase by phase: an id (used in the URL), a short title, and
// a caption shown before the tiles move ("text, then the action"). Captions only restate
// numbers the core computed; they decide nothing.
import type { LayoutConfig, RegroupMethod } from '../core/layout/types.ts';
import type { ScaleRewards } from '../core/grpo/advantages.ts';
import type { RewardSource } from '../core/grpo/toy-rewards.ts';

export const phaseIds = ['sample', 'scatter', 'accumulate', 'gather', 'regroup', 'advantages', 'slice'] as const;
export type PhaseId = (typeof phaseIds)[number];

export const phaseTitles: Record<PhaseId, string> = {
  sample: 'Sample',
  scatter: 'Scatter to ranks',
  accumulate: 'Each rank accumulates',
  gather: 'All-gather (rank-major)',
  regroup: 'Regroup',
  advantages: 'Advantages per group',
  slice: 'Slice back to ranks',
};

/** The numbers a caption needs, all read from the layout, its gather and the regrouped rows. */
export interface CaptionContext {
  config: LayoutConfig;
  /** Steps in the followed gather, and which gather of how many. */
  steps: number;
  gatherIndex: number;
  gatherCount: number;
  gatherScope: 'epoch' | 'step';
  /** Samples in the gather (all ranks), and per rank. */
  samples: number;
  perRank: number;
  /** Distinct prompts in the gather. */
  prompts: number;
  regroup: RegroupMethod;
  groups: number;
  mixedGroups: number;
  /** Most copies of one group on one rank in the whole layout (the core's layoutStats). */
  maxCopiesOnOneRank: number;
  offSizeGroups: number;
  tiedGroups: number;
  rewards: RewardSource;
  scale: ScaleRewards;
}

const regroupText: Record<RegroupMethod, string> = {
  'prompt-id': "by prompt id, as flow_grpo's PerPromptStatTracker does (it groups by prompt string)",
  view: 'with rewards.view(-1, k), as TRL does: every k consecutive gathered samples form a row, whatever prompts they hold',
  uid: 'by uid, as verl does: the copies of one draw of a prompt share a uid',
};

const advantageText: Record<RegroupMethod, (scale: ScaleRewards) => string> = {
  'prompt-id': () => 'flow_grpo: (r − mean of the prompt) / (std of all gathered rewards + 1e-4), numpy std (ddof 0)',
  view: (scale) =>
    scale === 'none'
      ? 'TRL with scale_rewards="none" (Dr. GRPO): r − mean of the row, no division'
      : `TRL: (r − mean of the row) / (${scale === 'group' ? 'unbiased std of the row' : 'unbiased std of the whole batch'} + 1e-4)`,
  uid: () => 'verl: (r − mean of the uid) / (unbiased std + 1e-6); a lone sample gets mean 0, std 1',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the scatter did to the groups, from the layout's statistics (never assumed from the sampler). */
function scatterOutcome(k: number, maxOnOneRank: number): string {
  if (maxOnOneRank >= k) return `Here a rank can hold all ${k} copies of a group, so those copies are together before any gather.`;
  if (maxOnOneRank <= 1) return `Watch the ${k} copies of a prompt land on ${k} different ranks: no rank holds two copies of a group.`;
  return `Watch the ${k} copies of a prompt spread over several ranks (up to ${maxOnOneRank} on one rank here): no rank holds a whole group.`;
}

/** The caption of a phase: what is about to happen, with this configuration's numbers. */
export function caption(phase: PhaseId, c: CaptionContext): string {
  const { ranks: W, batch: B, k } = c.config;
  const perStep = W * B;
  switch (phase) {
    case 'sample':
      return (
        `Each step the sampler draws prompts and makes k = ${k} copies of each: ${W} ranks × ${B} slots = ${perStep} samples per step` +
        (perStep % k === 0 ? `, ${perStep / k} prompts × ${k} copies` : '') +
        `. Shown here before they are dealt out, copies side by side (${plural(c.steps, 'step')} in this gather).`
      );
    case 'scatter':
      return `The samples are dealt to ranks: rank r takes slots [r·${B}, (r+1)·${B}) of the step's order. ${scatterOutcome(k, c.maxCopiesOnOneRank)}`;
    case 'accumulate':
      return c.steps > 1
        ? `Each rank concatenates its ${c.steps} batches: ${c.steps} × ${B} = ${c.perRank} samples per rank. Still no rank can compute a group's mean on its own.`
        : `The gather covers one step (${c.gatherScope} scope), so each rank holds just its ${c.perRank} samples of this step.`;
    case 'gather':
      return `All-gather: every rank receives the ${c.samples} samples concatenated rank-major — rank 0's ${c.perRank}, then rank 1's, … The gathered index of a sample is rank × ${c.perRank} + its position on the rank.`;
    case 'regroup':
      return (
        `Regroup ${regroupText[c.regroup]}: ${plural(c.groups, 'group')} from ${plural(c.prompts, 'distinct prompt')}` +
        (c.mixedGroups > 0 ? `; ${c.mixedGroups} mix different prompts (flagged red) — the advantages of those rows are wrong` : '') +
        (c.offSizeGroups > 0 ? `; ${c.offSizeGroups} have a size other than k = ${k} (flagged)` : '') +
        '.'
      );
    case 'advantages':
      return (
        `Rewards come from ${c.rewards === 'random' ? 'seeded uniform noise' : 'a toy pass/fail reward model (each prompt has a pass rate)'}; advantages per group by ${advantageText[c.regroup](c.scale)}.` +
        (c.tiedGroups > 0 ? ` ${plural(c.tiedGroups, 'group')} tie (std 0): advantage 0, no learning signal.` : '')
      );
    case 'slice':
      return `Slice back: rank r takes gathered[r·${c.perRank}, (r+1)·${c.perRank}) — exactly the samples it produced, now carrying their advantages (blue below the group's mean, orange above).`;
  }
}
