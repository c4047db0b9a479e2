// flow_grpo's loss normaliser (a mean over each training batch at each timestep, accelerate's
// accumulation): the step-framework specs of `grpo-sandbox steps` for train_sd3.py and train_sd3_fast.py.
import type { SamplerName } from '../../layout/types.ts';
import { constant, unknownLoss } from '../../steps/normalisers.ts';
import type { FrameworkSpec } from '../../steps/types.ts';
import { flowGrpoSchedule } from './steps-schedule.ts';

/**
 * The layouts flow_grpo's trainer takes: its own samplers', the generic contiguous one and
 * Flow-Factory's group-distributed one (each a sequence of generation batches, a rank's block per step).
 */
const FLOW_GRPO_LAYOUTS: readonly SamplerName[] = ['flow-grpo', 'flow-grpo-lcm', 'contiguous', 'group-distributed'];
export const trainsFlowGrpoLayouts = (s: SamplerName) => FLOW_GRPO_LAYOUTS.includes(s);

const flowGrpo: FrameworkSpec = {
  name: 'flow_grpo-ac4c86e',
  pinnedTo:
    'flow_grpo at ac4c86e, scripts/train_sd3.py: policy_loss = mean over the training batch at each timestep, ' +
    'accelerator.accumulate with gradient_accumulation_steps = train.gradient_accumulation_steps × num_train_timesteps',
  checkedBy: 'transcription (a diffusion run does not fit here); one "token" per sample: the timesteps cancel',
  schedule: flowGrpoSchedule,
  losses: ['sample-mean'],
  defaultLoss: 'sample-mean',
  unit: 'sample',
  accepts: trainsFlowGrpoLayouts,
  defaultFor: FLOW_GRPO_LAYOUTS,
  updateCauses: {},
  normaliser(loss, c) {
    if (loss !== 'sample-mean') unknownLoss(this.name, loss);
    const B = c.rows.length;
    return constant(1 / (B * c.ga), { kind: 'sample-mean', B, ga: c.ga });
  },
};

const flowGrpoFast: FrameworkSpec = {
  ...flowGrpo,
  name: 'flow_grpo-sd3-fast-74db691',
  pinnedTo:
    'flow_grpo at 74db691, scripts/train_sd3_fast.py: policy_loss = mean over the training batch at each timestep, accelerator.accumulate ' +
    'with gradient_accumulation_steps = train.gradient_accumulation_steps × num_train_timesteps; its layout: a new iterator after each ' +
    'set_epoch, not prepared (src/core/frameworks/flow-grpo/fast.ts)',
  checkedBy:
    'transcription (read from the stored public file, no checkout; a diffusion run does not fit here); the script drops samples whose ' +
    'advantages are all zero before re-batching, which is not modelled',
  accepts: (s) => s === 'flow-grpo',
  defaultFor: [],
};

/** flow_grpo's scripts, in display order. */
export const FLOW_GRPO_STEPS: readonly FrameworkSpec[] = [flowGrpo, flowGrpoFast];
