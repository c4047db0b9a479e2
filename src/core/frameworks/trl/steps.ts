// TRL's loss normalisers as each pinned version computes them (GRPOTrainer._compute_loss): the step-framework specs of `grpo-sandbox steps` and `train`. A
// normaliser gives the factor multiplying d(per-token loss) of each token of one rank's micro-batch
// in that micro-step's backward; accelerate then averages the gradient over the W ranks.
import type { SamplerName } from '../../layout/types.ts';
import { constant, perRow, sum, unknownLoss } from '../../steps/normalisers.ts';
import type { FrameworkSpec, Normaliser, NormaliserContext } from '../../steps/types.ts';
import { trlSchedule } from './steps-schedule.ts';

/** TRL's grpo, bnpo and dr_grpo (unchanged between the two TRL versions), and ms-swift's (Trainer divides by the window). */
export function perMicroBatch(loss: string, c: NormaliserContext): Normaliser | null {
  const B = c.rows.length;
  const T = sum(c.rows);
  if (loss === 'grpo') {
    return perRow((i) => 1 / (Math.max(1, c.rows[i]!) * B * c.window), { kind: 'completion-mean', B, ga: c.window });
  }
  if (loss === 'bnpo') return constant(1 / (Math.max(1, T) * c.window), { kind: 'micro-tokens', tokens: T, ga: c.window });
  if (loss === 'dr_grpo') {
    return constant(1 / (B * c.maxLength * c.window), { kind: 'constant-length', B, maxLength: c.maxLength, ga: c.window });
  }
  return null;
}

export const TRL_LOSSES = ['grpo', 'bnpo', 'dr_grpo', 'dapo'] as const;

/** The layouts TRL's versions (and the trainers built on its GRPOTrainer) train: the trl sampler's. */
export const trainsTrlLayouts = (s: SamplerName) => s === 'trl';

export const trl113: FrameworkSpec = {
  name: 'trl-1.13.0',
  pinnedTo: 'trl 1.13.0, trl/trainer/grpo_trainer.py GRPOTrainer._compute_loss (with transformers 5.18.0 Trainer, accelerate 1.15.0)',
  checkedBy: 'run: a real GRPOTrainer under torchrun (test/fixtures/golden-steps-trl.json)',
  schedule: trlSchedule,
  losses: TRL_LOSSES,
  defaultLoss: 'dapo',
  unit: 'token',
  accepts: trainsTrlLayouts,
  defaultFor: ['trl'],
  updateCauses: {},
  normaliser(loss, c) {
    const own = perMicroBatch(loss, c);
    if (own) return own;
    if (loss !== 'dapo') unknownLoss(this.name, loss);
    // num_items_in_batch spans the generation batch; rescaled to one accumulation window.
    const n = (Math.max(1, c.generationTokens) / c.ranks) * (c.window / c.stepsPerGeneration);
    return constant(1 / n, {
      kind: 'generation-rescaled',
      generationTokens: c.generationTokens,
      ranks: c.ranks,
      ga: c.window,
      spg: c.stepsPerGeneration,
    });
  },
};

const trlBefore: FrameworkSpec = {
  ...trl113,
  name: 'trl-1.9.0',
  pinnedTo:
    'trl 1.9.0 (tag v1.9.0, 35def3e; main at f2cd577 still has the same code), trl/trainer/grpo_trainer.py _compute_loss: dapo divides ' +
    'by num_items_in_batch / num_processes only, without the rescale by GA / steps_per_generation that PR #6024 added (in 1.13.0)',
  checkedBy:
    'grpo/bnpo/dr_grpo: v1.9.0 reads as 1.13.0, which the fixture runs; dapo: transcription of v1.9.0 (not installed here, not run)',
  defaultFor: [],
  updateCauses: { dapo: 'trl-1.9.0-dapo' },
  normaliser(loss, c) {
    const own = perMicroBatch(loss, c);
    if (own) return own;
    if (loss !== 'dapo') unknownLoss(this.name, loss);
    return constant(c.ranks / Math.max(1, c.generationTokens), {
      kind: 'generation',
      generationTokens: c.generationTokens,
      ranks: c.ranks,
    });
  },
};

/** TRL before dapo (added in 0.20): grpo, bnpo and dr_grpo, normalised as perMicroBatch says. */
export const PRE_DAPO_LOSSES = ['grpo', 'bnpo', 'dr_grpo'] as const;

export function preDapo(this: FrameworkSpec, loss: string, c: NormaliserContext): Normaliser {
  return perMicroBatch(loss, c) ?? unknownLoss(this.name, loss);
}

const trl0182: FrameworkSpec = {
  ...trl113,
  name: 'trl-0.18.2',
  pinnedTo:
    'trl 0.18.2 (tag v0.18.2), trl/trainer/grpo_trainer.py _compute_loss: grpo, bnpo (its default) and dr_grpo; GRPOConfig.__post_init__ ' +
    'reads the batch settings (src/core/frameworks/trl/v018.ts)',
  checkedBy:
    'batch settings: GRPOConfig.__post_init__ exec’d from v0.18.2 (test/fixtures/golden-trl-wrappers.json); normalisers: transcription ' +
    '(trl 0.18.2 is not in the local package index, not run)',
  losses: PRE_DAPO_LOSSES,
  defaultLoss: 'bnpo',
  unit: 'token',
  defaultFor: [],
  updateCauses: {},
  normaliser: preDapo,
};

/** TRL's versions, in display order. */
export const TRL_STEPS: readonly FrameworkSpec[] = [trl113, trlBefore, trl0182];
