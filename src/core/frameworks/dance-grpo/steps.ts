// DanceGRPO's loss normaliser (each sample its own micro-batch, divided by GA × train_timesteps):
// the step-framework spec of `grpo-sandbox steps`.
import { constant, unknownLoss } from '../../steps/normalisers.ts';
import type { FrameworkSpec } from '../../steps/types.ts';
import { danceGrpoSchedule } from './steps-schedule.ts';

const danceGrpo: FrameworkSpec = {
  name: 'dance-grpo-22b85ef',
  pinnedTo:
    'DanceGRPO at 22b85ef, fastvideo/train_grpo_flux.py train_one_step: each sample is its own micro-batch; at each of its ' +
    'train_timesteps timesteps loss = mean over the micro-batch / (gradient_accumulation_steps × train_timesteps), optimizer.step ' +
    'every gradient_accumulation_steps samples, and the next step’s optimizer.zero_grad drops a short last window',
  checkedBy:
    'transcription (read from the stored public file, no checkout; a diffusion run does not fit here): ' +
    'test/fixtures/golden-steps-dance-grpo.json; one "token" per sample: the timesteps cancel',
  schedule: danceGrpoSchedule,
  losses: ['sample-mean'],
  defaultLoss: 'sample-mean',
  unit: 'sample',
  accepts: (s) => s === 'dance-grpo',
  defaultFor: ['dance-grpo'],
  updateCauses: {},
  normaliser(loss, c) {
    if (loss !== 'sample-mean') unknownLoss(this.name, loss);
    const B = c.rows.length;
    return constant(1 / (B * c.ga), { kind: 'dance-sample-mean', B, ga: c.ga });
  },
};

/** DanceGRPO's version. */
export const DANCE_GRPO_STEPS: readonly FrameworkSpec[] = [danceGrpo];
