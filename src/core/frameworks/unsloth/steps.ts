// Unsloth's wrapper of TRL's GRPOTrainer: the step-framework spec of `grpo-sandbox steps` and `train`
// for the pinned Unsloth (TRL's micro-batching and normalisers under Unsloth's defaults).
import type { FrameworkSpec } from '../../steps/types.ts';
import { PRE_DAPO_LOSSES, preDapo, trl113 } from '../trl/steps.ts';

const unsloth: FrameworkSpec = {
  ...trl113,
  name: 'unsloth-015bdef',
  pinnedTo:
    'unslothai/unsloth 015bdef on trl 0.18.2–0.24.0: unsloth/models/rl.py sets loss_type bnpo and beta 0.001 and may rewrite ' +
    'per_device_train_batch_size (src/core/frameworks/unsloth/trl-reading.ts); the normalisers are TRL’s grpo, bnpo and dr_grpo',
  checkedBy:
    'batch settings: Unsloth’s check exec’d from 015bdef (test/fixtures/golden-trl-wrappers.json); normalisers: TRL’s, assumed (Unsloth ' +
    'replaces the loss with unsloth_zoo’s grpo_accumulated_loss, which was not read)',
  losses: PRE_DAPO_LOSSES,
  defaultLoss: 'bnpo',
  unit: 'token',
  defaultFor: [],
  updateCauses: {},
  normaliser: preDapo,
};

/** Unsloth's pinned version. */
export const UNSLOTH_STEPS: readonly FrameworkSpec[] = [unsloth];
