// How big a layout is, by arithmetic alone (no layout built): what a front end checks against
// its own budget before it asks for a layout that it could not hold or draw.
import type { LayoutConfig } from '../layout/types.ts';
import { samplers } from './index.ts';

export interface LayoutSize {
  ranks: number;
  /** Samples one rank receives per layout step (the sampler's own, e.g. derived for trl). */
  perRankPerStep: number;
  /** Layout steps one all-gather covers (the epoch's for flow_grpo, one otherwise). */
  stepsPerGather: number;
  samplesPerGather: number;
  gathers: number;
  /** Samples over the whole layout (all epochs). */
  samples: number;
}

/** The size of the layout of a valid configuration (call validateConfig first). */
export function layoutSize(config: LayoutConfig): LayoutSize {
  const spec = samplers[config.sampler];
  const eff = spec.effective(config);
  const perRankPerStep = spec.perRankPerStep(eff);
  const stepsPerGather = spec.gatherScope === 'epoch' ? eff.batchesPerEpoch : 1;
  const samplesPerGather = eff.ranks * perRankPerStep * stepsPerGather;
  const totalSteps = eff.epochs * eff.batchesPerEpoch;
  return {
    ranks: eff.ranks,
    perRankPerStep,
    stepsPerGather,
    samplesPerGather,
    gathers: totalSteps / stepsPerGather,
    samples: totalSteps * eff.ranks * perRankPerStep,
  };
}
