// What one optimizer step sees (`grpo-sandbox steps`, the steps view).
export { buildSteps, resolveFramework, type StepsOptions } from './build.ts';
export {
  DEFAULT_SAMPLERS,
  FRAMEWORKS,
  FRAMEWORK_NAMES,
  defaultFramework,
  type FrameworkSpec,
  type NormaliserContext,
  type StepSchedule,
} from './frameworks.ts';
export { parseLengths, seededLengths } from './lengths.ts';
export { planMicroSteps, completionOffsets, type BlockOrder } from './schedule.ts';
export type { MicroBatch, OptimizerStep, StepRow, StepsReport, FrameworkName, FrameworkVersion } from './types.ts';
