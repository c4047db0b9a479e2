// How a framework's training loop cuts a layout's generation batches into micro-steps and
// accumulation windows (optimizer steps). Every rank runs the same micro-step at the same time;
// what differs per rank is which completions its micro-batch holds. Each framework's schedule is in
// its home (src/core/frameworks/<home>/steps-schedule.ts); this asks it.
import type { StepsWork } from '../budget.ts';
import type { Layout, LayoutConfig } from '../layout/types.ts';
import { defaultFramework } from './frameworks.ts';
import type { BlockOrder, Plan, StepSchedule } from './types.ts';

export { completionOffsets } from './plan.ts';
export type { BlockOrder, MicroStepPlan, Plan, WindowPlan } from './types.ts';

/**
 * What a run's steps will build, from its settings alone (the budget, before any work): a row per
 * completion per pass, and the per-rank micro-batches. `samples` is the layout's (layoutSamples).
 * Micro-batches hold `--micro-batch` samples, else what the sampler's framework's schedule counts
 * from the settings (plannedMicroBatch: verl's sampler's ppo_micro_batch_size_per_gpu, else `batch`).
 */
export function plannedWork(config: LayoutConfig, samples: number, microBatch?: number): StepsWork {
  const rows = samples * Math.max(1, config.numIterations);
  const perMicroBatch = microBatch ?? defaultFramework(config.sampler)?.schedule.plannedMicroBatch(config) ?? config.batch;
  return { rows, microBatches: Math.ceil(rows / Math.max(1, perMicroBatch)) };
}

/**
 * The micro-steps and windows of `layout` under `schedule` (each framework's in its home).
 * `miniBatch`: samples per rank per optimizer step where the schedule counts samples (verl's);
 * defaults to microBatch × GA.
 */
export function planMicroSteps(
  layout: Layout,
  schedule: StepSchedule,
  microBatch: number,
  order: BlockOrder = () => undefined,
  miniBatch = microBatch * layout.config.gradientAccumulationSteps,
): Plan {
  return schedule.plan(layout, microBatch, order, miniBatch);
}
