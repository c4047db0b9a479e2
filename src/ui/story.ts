// The story the explorer tells, phase by phase: an id (used in the URL), a short title, and
// a caption shown before the tiles move ("text, then the action"). Captions only restate
// numbers the core computed; they decide nothing.
import type { LayoutConfig, RegroupMethod } from '../core/layout/types.ts';
import type { ScaleRewards } from '../core/grpo/advantages.ts';
import type { RewardSource } from '../core/grpo/toy-rewards.ts';
import type { GatherFacts } from '../core/layout/gather-facts.ts';
import { lang, M, section } from './i18n/index.ts';

export const phaseIds = ['sample', 'scatter', 'accumulate', 'gather', 'regroup', 'advantages', 'slice'] as const;
export type PhaseId = (typeof phaseIds)[number];

/** Each phase's short title in the page's language (read at render time: the language can switch). */
export const phaseTitles: Record<PhaseId, string> = section('phases');

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
  /** flow_grpo's loader in this gather (the core's loaderFacts), or null for samplers without one. */
  loader: GatherLoader | null;
}

/** What flow_grpo's published loader did to the followed gather. */
export interface GatherLoader {
  numWorkers: number;
  prefetchFactor: number;
  acceleratePrepare: boolean;
  /** Index batches drawn ahead of their set_epoch call. */
  lookAhead: number;
  /** The layout is the idealised loop's (the loop reads each batch as set_epoch seeds it). */
  idealised: boolean;
  /** Steps of this gather (within the epoch) that receive an earlier step's batch. */
  repeats: { step: number; sameAs: number }[];
  /** Prompt groups of this gather with more than k samples. */
  bigGroups: number;
}

/** What the loader did, for the sample caption (flow_grpo only). */
function loaderOutcome(c: CaptionContext): string {
  const L = c.loader;
  if (!L) return '';
  const S = M().story;
  if (L.idealised) return L.lookAhead === 0 ? S.loaderIdeal : '';
  const pairs = L.repeats.map((r) => S.loaderPair(r.step, r.sameAs)).join(lang() === 'en' ? ', ' : '，');
  const text = S.loaderText(L.numWorkers, L.prefetchFactor, L.acceleratePrepare);
  return pairs ? S.loaderRepeats(text, L.lookAhead, pairs, L.bigGroups, c.config.k) : S.loaderShifted(text, L.lookAhead);
}

function advantageText(regroup: RegroupMethod, scale: ScaleRewards): string {
  const S = M().story;
  if (regroup === 'prompt-id') return S.advPromptId;
  if (regroup === 'view') return scale === 'none' ? S.advViewNone : S.advView(scale === 'group');
  return regroup === 'uid' ? S.advUid : S.advLocal;
}

/** What the sampler's steps hold, from the gather's facts: whole groups per step, or groups that straddle steps. */
function sampleOutcome(c: CaptionContext): string {
  const S = M().story;
  const k = c.config.k;
  const f = c.facts;
  const first = f.steps[0]!;
  if (f.drawsAcrossSteps === 0) {
    const same = f.steps.every((s) => s.draws === first.draws);
    return same ? S.sampleSame(first.draws, k) : S.sampleVaried(f.steps.map((s) => s.draws).join(', '), k);
  }
  return S.sampleAcross(first.stepIndex, first.draws, f.drawsAcrossSteps, f.draws);
}

/** What the scatter did to the groups, from the gather's facts (never assumed from the sampler). */
function scatterOutcome(c: CaptionContext): string {
  const S = M().story;
  const k = c.config.k;
  const most = c.facts.maxCopiesOnOneRankInStep;
  if (k === 1) return S.scatterK1;
  if (most >= k) return S.scatterTogether(k);
  if (most <= 1) return c.facts.drawsAcrossSteps === 0 ? S.scatterApartWhole(k) : S.scatterApart;
  return S.scatterSpread(k, most);
}

/** Whether a rank can compute a group's mean on its own after accumulating, from the gather's facts. */
function accumulateOutcome(c: CaptionContext): string {
  const S = M().story;
  const f = c.facts;
  if (c.config.k === 1) return S.accK1;
  if (f.drawsWholeOnOneRank === f.draws) return S.accAllWhole;
  if (f.drawsWholeOnOneRank > 0) return S.accSomeWhole(f.drawsWholeOnOneRank, f.draws);
  if (f.maxCopiesOnOneRank >= 2) return S.accSeveral(f.maxCopiesOnOneRank);
  return S.accNone;
}

/** The caption of a phase: what is about to happen, with this configuration's numbers (templates of the page's language). */
export function caption(phase: PhaseId, c: CaptionContext): string {
  const S = M().story;
  const { ranks: W, k } = c.config;
  // Slots per rank per step as the layout has them (a sampler may derive its own from the settings).
  const perStep = c.facts.steps[0]!.samples;
  const B = perStep / W;
  switch (phase) {
    case 'sample':
      return S.sample(k, W, B, perStep, sampleOutcome(c), c.steps) + loaderOutcome(c);
    case 'scatter':
      return S.scatter(B, scatterOutcome(c));
    case 'accumulate':
      return c.steps > 1
        ? S.accumulate(c.steps, B, c.perRank, accumulateOutcome(c))
        : S.accumulateOne(c.gatherScope === 'epoch' ? S.scopeEpoch : S.scopeStep, c.perRank, accumulateOutcome(c));
    case 'gather':
      return W === 1 ? S.gatherOne(c.samples) : S.gather(c.samples, c.perRank);
    case 'regroup':
      return (
        S.regroup(S.regroupText[c.regroup], c.groups, c.prompts) +
        (c.mixedGroups > 0 ? S.regroupMixed(c.mixedGroups) : '') +
        (c.offSizeGroups > 0 ? S.regroupOffSize(c.offSizeGroups, k) : '') +
        (lang() === 'en' ? '.' : '。') +
        (c.whatIf ? ` ${c.whatIf}` : '')
      );
    case 'advantages':
      return (
        S.advantages(c.rewards === 'random' ? S.rewardsRandom : S.rewardsModel, advantageText(c.regroup, c.scale)) +
        (c.tiedGroups > 0 ? S.tied(c.tiedGroups) : '') +
        (c.whatIf ? ` ${c.whatIf}` : '')
      );
    case 'slice':
      return S.slice(c.perRank);
  }
}
