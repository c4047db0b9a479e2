// The numeric codes the WGSL kernels take for each enum (an `override` or a Params field), in
// one module: src/ops/cpu names the enums, src/gpu translates them with these tables, and a
// shader's `switch`/`if` on the code must agree with the order written here.
import type { LossType } from '../core/grpo/loss.ts';
import type { ScaleRewards } from '../core/grpo/advantages.ts';
import type { ReduceOp } from '../core/reduce-op.ts';

/** The reductions of shaders/reduceRows.wgsl (named once, in src/core/reduce-op.ts). */
export type { ReduceOp };

/** Activations a dense layer can apply after `x·W + b`. */
export type Activation = 'identity' | 'tanh' | 'relu' | 'gelu';
/** `override ACTIVATION` in shaders/dense.wgsl and shaders/activationBackward.wgsl (via activation.wgsl). */
export const ACTIVATION_CODE: Record<Activation, number> = { identity: 0, tanh: 1, relu: 2, gelu: 3 };

/** `Params.lossType` in shaders/grpoLoss.wgsl. */
export const LOSS_TYPE_CODE: Record<LossType, number> = { grpo: 0, bnpo: 1, dr_grpo: 2, dapo: 3 };

/** `Params.scale` in shaders/groupAdvantage.wgsl. */
export const SCALE_REWARDS_CODE: Record<ScaleRewards, number> = { group: 0, batch: 1, none: 2 };

/** `override OP` in shaders/reduceRows.wgsl. */
export const REDUCE_OP_CODE: Record<ReduceOp, number> = { sum: 0, mean: 1, max: 2 };
