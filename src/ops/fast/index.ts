// The fast CPU backend: the same names and signatures as src/ops/cpu/index.ts (the readable
// definition), with the ops that dominate a training step rewritten for speed (measured: dense and
// denseBackwardWeight took 85% of the reference step; after them, the softmax and the sampler's
// Philox). The dense ops run the WebAssembly SIMD kernel of simd.ts where the runtime has it
// (float32 sums: the reference's results within the op suite's float32 tolerances), else the JS
// kernel of tiles.ts (the reference's bits). The rest are the reference's own functions.
// test/ops/fast.test.ts runs the shared op suite on it.
export { dense } from './dense.ts';
export { activationBackward } from './activation.ts';
export { denseBackwardInput } from './denseBackwardInput.ts';
export { denseBackwardWeight } from './denseBackwardWeight.ts';
export { maskedSoftmax } from './maskedSoftmax.ts';
export { categoricalSample } from './categoricalSample.ts';
export { adam } from './adam.ts';
export {
  logProbBackward,
  grpoLoss,
  pairwiseLoss,
  groupAdvantage,
  gradNorm,
  reduceRows,
  oneHot,
  knob3Mask,
  controllerReward,
  selectCandidates,
  entropySum,
} from '../cpu/index.ts';
