// ms-swift's loss normalisers (its GRPOTrainer extends TRL's): the step-framework specs of
// `grpo-sandbox steps` and `train` for the pinned ms-swift versions. grpo, bnpo and dr_grpo are
// TRL's; dapo divides by the window's tokens, and before PR #10116 transformers' Trainer divides
// by current_gradient_accumulation_steps a second time.
import { constant, unknownLoss } from '../../steps/normalisers.ts';
import type { FrameworkSpec } from '../../steps/types.ts';
import { PRE_DAPO_LOSSES, TRL_LOSSES, perMicroBatch, preDapo, trainsTrlLayouts } from '../trl/steps.ts';
import { trlSchedule } from '../trl/steps-schedule.ts';

const MS_SWIFT_LOSSES = TRL_LOSSES;

const msSwiftBefore: FrameworkSpec = {
  name: 'ms-swift-efd0a54',
  pinnedTo:
    'ms-swift at efd0a54, swift/rlhf_trainers/grpo_trainer.py: dapo/cispo/fipo divide by num_items_in_batch (the accumulation window, ' +
    'every process) / num_processes, and transformers Trainer.training_step divides every loss by current_gradient_accumulation_steps',
  checkedBy: 'transcription (ms-swift not installed here); micro-batching assumed to be TRL’s, which its GRPOTrainer extends',
  // Its GRPOTrainer extends TRL's: TRL's micro-batching, on the trl sampler's layouts.
  schedule: trlSchedule,
  losses: MS_SWIFT_LOSSES,
  defaultLoss: 'grpo',
  unit: 'token',
  accepts: trainsTrlLayouts,
  defaultFor: [],
  updateCauses: { dapo: 'ms-swift-dapo' },
  normaliser(loss, c) {
    const own = perMicroBatch(loss, c);
    if (own) return own;
    if (loss !== 'dapo') unknownLoss(this.name, loss);
    return constant(c.ranks / (Math.max(1, c.windowTokens) * c.window), {
      kind: 'window-twice',
      windowTokens: c.windowTokens,
      ranks: c.ranks,
      ga: c.window,
    });
  },
};

const msSwift3602360: FrameworkSpec = {
  ...msSwiftBefore,
  name: 'ms-swift-3602360',
  pinnedTo:
    'modelscope/ms-swift 3602360 (trl>=0.26,<1.0): loss_type grpo and beta 0.04 by default (swift/arguments/rlhf_args.py); its batch ' +
    'settings and sequence-parallel sampler in src/core/frameworks/ms-swift/trl-reading.ts; grpo, bnpo and dr_grpo normalised as TRL does',
  checkedBy:
    'batch settings: _init_generation_batch_params exec’d from 3602360 (test/fixtures/golden-trl-wrappers.json); normalisers: ' +
    'transcription (ms-swift not installed here)',
  losses: PRE_DAPO_LOSSES,
  updateCauses: {},
  normaliser: preDapo,
};

const msSwiftAfter: FrameworkSpec = {
  ...msSwiftBefore,
  name: 'ms-swift-pr10116',
  pinnedTo:
    'ms-swift with PR #10116 (merged): dapo/cispo/fipo multiply the window-normalised loss by current_gradient_accumulation_steps, ' +
    'so Trainer’s division cancels',
  // The fix: dapo's update is the global token mean's size.
  updateCauses: {},
  normaliser(loss, c) {
    const own = perMicroBatch(loss, c);
    if (own) return own;
    if (loss !== 'dapo') unknownLoss(this.name, loss);
    return constant(c.ranks / Math.max(1, c.windowTokens), { kind: 'window', windowTokens: c.windowTokens, ranks: c.ranks });
  },
};

/** ms-swift's versions, in display order. */
export const MS_SWIFT_STEPS: readonly FrameworkSpec[] = [msSwift3602360, msSwiftBefore, msSwiftAfter];
