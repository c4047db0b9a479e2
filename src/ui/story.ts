// The story the explorer tells, phase by phase: an id (used in the URL), a short title, and
// a caption shown before the tiles move ("text, then the action"). Captions only restate
// numbers the core computed; they decide nothing.
import type { LayoutConfig, RegroupMethod } from '../core/layout/types.ts';
import type { ScaleRewards } from '../core/grpo/advantages.ts';
import type { RewardSource } from '../core/grpo/toy-rewards.ts';
import type { GatherFacts } from '../core/layout/gather-facts.ts';

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
  /** What the scatter and the accumulation did to the gather's groups (the core's gatherFacts). */
  facts: GatherFacts;
  offSizeGroups: number;
  tiedGroups: number;
  rewards: RewardSource;
  scale: ScaleRewards;
  /** When the regrouping is not the sampler's framework's: what that framework does instead. */
  whatIf: string | null;
}

const regroupText: Record<RegroupMethod, string> = {
  'prompt-id': "by prompt id, as flow_grpo's PerPromptStatTracker does (it groups by prompt string)",
  view: 'with rewards.view(-1, k), as TRL does: every k consecutive gathered samples form a row, whatever prompts they hold',
  uid: 'by uid, as verl does: the copies of one draw of a prompt share a uid',
  local: 'on each rank, k consecutive samples per group, as DanceGRPO does (no gather needed when a rank holds whole groups)',
};

const advantageText: Record<RegroupMethod, (scale: ScaleRewards) => string> = {
  'prompt-id': () => 'flow_grpo: (r − mean of the prompt) / (std of all gathered rewards + 1e-4), numpy std (ddof 0)',
  view: (scale) =>
    scale === 'none'
      ? 'TRL with scale_rewards="none" (Dr. GRPO): r − mean of the row, no division'
      : `TRL: (r − mean of the row) / (${scale === 'group' ? 'unbiased std of the row' : 'unbiased std of the whole batch'} + 1e-4)`,
  uid: () => 'verl: (r − mean of the uid) / (unbiased std + 1e-6); a lone sample gets mean 0, std 1',
  local: () => "DanceGRPO: (r − mean of the rank's group) / (unbiased std + 1e-8), computed on each rank",
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the sampler's steps hold, from the gather's facts: whole groups per step, or groups that straddle steps. */
function sampleOutcome(c: CaptionContext): string {
  const k = c.config.k;
  const f = c.facts;
  const first = f.steps[0]!;
  if (f.drawsAcrossSteps === 0) {
    const same = f.steps.every((s) => s.draws === first.draws);
    return same
      ? `, ${plural(first.draws, 'prompt')} × ${k} copies each step`
      : `; the steps hold ${f.steps.map((s) => s.draws).join(', ')} prompts × ${k} copies`;
  }
  return (
    `; step ${first.stepIndex} holds copies of ${plural(first.draws, 'prompt')}, and ${f.drawsAcrossSteps} of the gather's ` +
    `${plural(f.draws, 'group')} have copies in more than one step, so a step does not hold whole groups`
  );
}

/** What the scatter did to the groups, from the gather's facts (never assumed from the sampler). */
function scatterOutcome(c: CaptionContext): string {
  const k = c.config.k;
  const most = c.facts.maxCopiesOnOneRankInStep;
  if (k === 1) return 'With k = 1 every group is a single sample.';
  if (most >= k) return `Here a rank can receive all ${k} copies of a group in one step, so those copies are together before any gather.`;
  if (most <= 1) {
    const whole = c.facts.drawsAcrossSteps === 0;
    return whole
      ? `Watch the ${k} copies of a prompt land on ${k} different ranks: no rank receives two copies of a group in one step.`
      : 'Watch the copies of a prompt land on different ranks: no rank receives two copies of a group in one step.';
  }
  return `Watch the ${k} copies of a prompt spread over several ranks (up to ${most} on one rank in one step): no rank receives a whole group.`;
}

/** Whether a rank can compute a group's mean on its own after accumulating, from the gather's facts. */
function accumulateOutcome(c: CaptionContext): string {
  const f = c.facts;
  if (c.config.k === 1) return 'With k = 1 a group is one sample, so its mean is the sample itself.';
  if (f.drawsWholeOnOneRank === f.draws)
    return `Every group now sits whole on one rank, so each rank could compute its groups' means on its own.`;
  if (f.drawsWholeOnOneRank > 0)
    return (
      `${f.drawsWholeOnOneRank} of the ${plural(f.draws, 'group')} sit whole on one rank (that rank could compute their mean alone); the others ` +
      `are spread over ranks.`
    );
  if (f.maxCopiesOnOneRank >= 2)
    return (
      `Some ranks hold several copies of a group (up to ${f.maxCopiesOnOneRank}), but no rank holds a whole group, so no rank can compute a ` +
      `group's mean on its own.`
    );
  return `No rank holds two copies of one group, so no rank can compute a group's mean on its own.`;
}

/** The caption of a phase: what is about to happen, with this configuration's numbers. */
export function caption(phase: PhaseId, c: CaptionContext): string {
  const { ranks: W, k } = c.config;
  // Slots per rank per step as the layout has them (a sampler may derive its own from the settings).
  const perStep = c.facts.steps[0]!.samples;
  const B = perStep / W;
  switch (phase) {
    case 'sample':
      return (
        `Each step the sampler draws prompts and makes k = ${k} copies of each: ${plural(W, 'rank')} × ${plural(B, 'slot')} = ${perStep} samples per step` +
        sampleOutcome(c) +
        `. Shown here before they are dealt out, copies side by side (${plural(c.steps, 'step')} in this gather).`
      );
    case 'scatter':
      return `The samples are dealt to ranks: rank r takes slots [r·${B}, (r+1)·${B}) of the step's order. ${scatterOutcome(c)}`;
    case 'accumulate':
      return c.steps > 1
        ? `Each rank concatenates its ${c.steps} batches: ${c.steps} × ${B} = ${c.perRank} samples per rank. ${accumulateOutcome(c)}`
        : `The gather covers one step (${c.gatherScope} scope), so each rank holds just its ${c.perRank} samples of this step. ${accumulateOutcome(c)}`;
    case 'gather':
      return W === 1
        ? `All-gather over a single rank: the gathered order is the rank's own ${c.samples} samples, gathered index = position on the rank.`
        : `All-gather: every rank receives the ${c.samples} samples concatenated rank-major — rank 0's ${c.perRank}, then rank 1's, … The gathered ` +
            `index of a sample is rank × ${c.perRank} + its position on the rank.`;
    case 'regroup':
      return (
        `Regroup ${regroupText[c.regroup]}: ${plural(c.groups, 'group')} from ${plural(c.prompts, 'distinct prompt')}` +
        (c.mixedGroups > 0 ? `; ${c.mixedGroups} mix different prompts (flagged red) — the advantages of those rows are wrong` : '') +
        (c.offSizeGroups > 0 ? `; ${c.offSizeGroups} have a size other than k = ${k} (flagged)` : '') +
        '.' +
        (c.whatIf ? ` ${c.whatIf}` : '')
      );
    case 'advantages':
      return (
        `Rewards come from ${c.rewards === 'random' ? 'seeded uniform noise' : 'a toy pass/fail reward model (each prompt has a pass rate)'}; ` +
        `advantages per group by ${advantageText[c.regroup](c.scale)}.` +
        (c.tiedGroups > 0 ? ` ${plural(c.tiedGroups, 'group')} tie (std 0): advantage 0, no learning signal.` : '') +
        (c.whatIf ? ` ${c.whatIf}` : '')
      );
    case 'slice':
      return (
        `Slice back: rank r takes gathered[r·${c.perRank}, (r+1)·${c.perRank}) — exactly the samples it produced, now carrying their advantages ` +
        `(blue below the group's mean, orange above).`
      );
  }
}
