// What a seed-003 controller training run is configured by and what each step reports: plain
// data shared by the CPU reference trainer (src/train/controllerStep.ts) and the fused GPU step
// (src/gpu/controllerStep.ts), so neither backend imports the other's trainer.
import type { ScaleRewards } from '../grpo/advantages.ts';
import { TRL_DEFAULTS, type GrpoLossSettings, type LossKind } from '../grpo/loss.ts';
import { ACTIONS_PER_CONFIG, DEFAULT_DIMS, type ControllerDims } from './controller.ts';

/** Adam settings (torch.optim.Adam's names); weightDecay > 0 makes it AdamW (decoupled decay). */
export interface AdamSettings {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

/** torch.optim.Adam's defaults. */
export const ADAM_DEFAULTS: AdamSettings = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 };

/** Everything a controller training run is configured by. */
export interface ControllerTrainConfig {
  dims: ControllerDims;
  /** Prompts (inputs) per step; each gets k = groupSize configurations. */
  prompts: number;
  /** k: configurations sampled per prompt (TRL's num_generations). */
  groupSize: number;
  lossType: LossKind;
  loss: Omit<GrpoLossSettings, 'lossType'>;
  /** TRL's scale_rewards. */
  rewardScale: ScaleRewards;
  adam: AdamSettings;
  /** Global gradient-norm clip (≤ 0: none). */
  maxGradNorm: number;
  seed: number;
  /** Rank of this replica: part of the sampling key (rank 0 when run alone). */
  rank: number;
}

export const DEFAULT_TRAIN_CONFIG: ControllerTrainConfig = {
  dims: { ...DEFAULT_DIMS },
  prompts: 256,
  groupSize: 8,
  lossType: 'dapo',
  loss: { ...TRL_DEFAULTS, maxCompletionLength: ACTIONS_PER_CONFIG },
  rewardScale: 'group',
  adam: { ...ADAM_DEFAULTS, lr: 3e-3 },
  maxGradNorm: 1,
  seed: 0,
  rank: 0,
};

/** What a step reports (read back every N steps on the GPU). */
export interface StepMetrics {
  step: number;
  loss: number;
  meanReward: number;
  gradNorm: number;
}
