// The CPU reference: one function per kernel, each named as its shaders/<name>.wgsl twin.
export { dense } from './dense.ts';
export { activationBackward } from './activationBackward.ts';
export { denseBackwardInput } from './denseBackwardInput.ts';
export { denseBackwardWeight } from './denseBackwardWeight.ts';
export { maskedSoftmax } from './maskedSoftmax.ts';
export { categoricalSample } from './categoricalSample.ts';
export { logProbBackward } from './logProbBackward.ts';
export { grpoLoss } from './grpoLoss.ts';
export { pairwiseLoss } from './pairwiseLoss.ts';
export { groupAdvantage } from './groupAdvantage.ts';
export { gradNorm } from './gradNorm.ts';
export { adam } from './adam.ts';
export { reduceRows } from './reduceRows.ts';
export { oneHot } from './oneHot.ts';
export { knob3Mask } from './knob3Mask.ts';
export { controllerReward } from './controllerReward.ts';
