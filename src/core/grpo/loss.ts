// The loss kinds the sandbox computes and TRL's loss settings, as plain data both backends, the
// trainers and the `loss` calculator share. The formulas live in src/ops/cpu/grpoLoss.ts and
// src/ops/cpu/pairwiseLoss.ts (docs/frameworks.md: TRL's GRPOTrainer loss).

/** TRL's loss_type values. */
export type LossType = 'grpo' | 'bnpo' | 'dr_grpo' | 'dapo';
export const LOSS_TYPES: readonly LossType[] = ['grpo', 'bnpo', 'dr_grpo', 'dapo'];

/** Every loss the sandbox computes: TRL's four, plus the seed-003 pairwise ranking loss. */
export type LossKind = LossType | 'pairwise';
export const LOSS_KINDS: readonly LossKind[] = [...LOSS_TYPES, 'pairwise'];

/** TRL's settings for the loss; defaults in TRL_DEFAULTS. */
export interface GrpoLossSettings {
  lossType: LossType;
  epsilonLow: number;
  epsilonHigh: number;
  beta: number;
  maxCompletionLength: number;
}

/** GRPOConfig defaults: epsilon 0.2 (epsilon_high = epsilon), beta 0, loss_type "dapo", max_completion_length 256. */
export const TRL_DEFAULTS: GrpoLossSettings = { lossType: 'dapo', epsilonLow: 0.2, epsilonHigh: 0.2, beta: 0, maxCompletionLength: 256 };

/** Settings of any loss kind: TRL's, with the kind widened, and `k` (the group size) for pairwise. */
export type LossSettings = Omit<GrpoLossSettings, 'lossType'> & { lossType: LossKind; groupSize: number };
