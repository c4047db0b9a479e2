// The fast CPU backend: the same names and signatures as src/ops/cpu/index.ts (the readable
// definition), with the ops that dominate a training step rewritten for speed (measured: dense and
// denseBackwardWeight took 85% of the reference step; after them, tanh, the softmax, the sampler's
// Philox and logProbBackward). The dense ops and tanh's backward run the WebAssembly SIMD kernels of
// simd.ts where the runtime has them (float32 sums and tanh: the reference's results within the op
// suite's float32 tolerances), else the JS kernel of tiles.ts and Math.tanh (the reference's bits).
// The rest are the reference's own functions.
// test/ops/fast.test.ts runs the shared op suite on it.
export { dense } from './dense.ts';
export { activationBackward } from './activation.ts';
export { denseBackwardInput } from './denseBackwardInput.ts';
export { denseBackwardWeight } from './denseBackwardWeight.ts';
export { maskedSoftmax } from './maskedSoftmax.ts';
export { categoricalSample } from './categoricalSample.ts';
export { logProbBackward } from './logProbBackward.ts';
export { adam } from './adam.ts';
export { knob3Mask } from './knob3Mask.ts';
export {
  grpoLoss,
  pairwiseLoss,
  groupAdvantage,
  gradNorm,
  reduceRows,
  oneHot,
  controllerReward,
  selectCandidates,
  entropySum,
} from '../cpu/index.ts';
