// The one place that decides which loss runs for a LossKind: TRL's GRPO family or the seed-003
// pairwise ranking loss. Generic over the data (Float32Array for the CPU reference and the
// WebGPU backend, GPU buffers for the fused step) and over what the ops return (results, promises
// of results, or prepared dispatches), so `grpo-sandbox loss` (src/cli/loss.ts), the training step
// (src/train/step.ts's optimizerStep, every micro-step of it, plain or accumulated; its ops run the
// pairwise loss over groups gathered from every rank) and the fused WebGPU step (src/gpu/fused-step.ts,
// which prepares the loss's dispatch) share it.
import type { GrpoLossSettings, LossSettings } from '../core/grpo/loss.ts';
import type { TokenShape } from './cpu/grpoLoss.ts';

/** A batch for either loss, over data D. */
export interface LossInput<D> {
  shape: TokenShape;
  logp: D;
  oldLogp: D;
  /** Reference log-probabilities (null: none, only allowed while beta is 0). */
  refLogp: D | null;
  mask: D;
  /** Per row; the GRPO losses read them (null when only rewards are known). */
  advantages: D | null;
  /** Per row; the pairwise loss ranks by them (null when only advantages are known). */
  rewards: D | null;
  settings: LossSettings;
}

/**
 * A batch whose advantages may be a function, called only when the chosen loss reads them: the
 * training loop's scheme advantages, which the pairwise loss never reads and whose grouping rules
 * need not fit a pairwise run.
 */
export type LazyLossInput<D> = Omit<LossInput<D>, 'advantages'> & { advantages: D | null | (() => D) };

/** The two loss ops with the CPU reference's argument order, over data D; G and P are what each returns. */
export interface LossOps<D, G, P> {
  grpoLoss(logp: D, oldLogp: D, refLogp: D | null, mask: D, advantages: D, shape: TokenShape, s: GrpoLossSettings): G;
  pairwiseLoss(logp: D, mask: D, rewards: D, shape: TokenShape & { groupSize: number }): P;
}

/** Runs (or prepares) the loss that `input.settings.lossType` names. */
export function computeLoss<D, G, P>(ops: LossOps<D, G, P>, input: LazyLossInput<D>): G | P {
  const { lossType, groupSize, ...trl } = input.settings;
  if (lossType === 'pairwise') {
    if (input.rewards === null) throw new TypeError('the pairwise loss needs rewards');
    return ops.pairwiseLoss(input.logp, input.mask, input.rewards, { ...input.shape, groupSize });
  }
  if (input.advantages === null) throw new TypeError(`the ${lossType} loss needs advantages`);
  // D is data (arrays, GPU buffers), never a function, so a function here is the lazy form.
  const advantages = typeof input.advantages === 'function' ? (input.advantages as () => D)() : input.advantages;
  return ops.grpoLoss(input.logp, input.oldLogp, input.refLogp, input.mask, advantages, input.shape, { ...trl, lossType });
}
