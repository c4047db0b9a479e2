// DanceGRPO's micro-steps (fastvideo/train_grpo_flux.py train_one_step): how `grpo-sandbox steps`
// cuts a layout into one-sample micro-steps and accumulation windows, and the sentences that explain a run.
import type { LayoutConfig } from '../../layout/types.ts';
import { configError, fact } from '../../messages/index.ts';
import { layoutBlocks, ordered } from '../../steps/plan.ts';
import type { MicroStepPlan, StepSchedule, WindowPlan } from '../../steps/types.ts';

/**
 * Each rank's block of a layout step in order, one sample per micro-step, an optimizer step every GA
 * samples within the step; a short last window is never applied (the next train_one_step's zero_grad drops it).
 */
export const danceGrpoSchedule: StepSchedule = {
  plan(layout, _microBatch, order) {
    const c = layout.config;
    const { block } = layoutBlocks(layout);
    const microSteps: MicroStepPlan[] = [];
    const windows: WindowPlan[] = [];
    const W = c.ranks;
    // DanceGRPO train_one_step: for i, sample in enumerate(samples_batched_list) … if (i + 1) % GA == 0: optimizer.step().
    const ga = c.gradientAccumulationSteps;
    for (let s = 0; s < layout.steps.length; s++) {
      const epoch = layout.steps[s]!.epoch;
      const perRank = Array.from({ length: W }, (_, r) => {
        const b = block(s, r);
        return ordered(b, order(s, 0, r, b.length));
      });
      const size = perRank[0]!.length;
      for (let start = 0; start < size; start += ga) {
        const inWindow = Math.min(ga, size - start);
        for (let i = start; i < start + inWindow; i++) {
          microSteps.push({
            epoch,
            generation: s,
            generationSteps: [s],
            pass: 0,
            perRank: perRank.map((p) => [p[i]!]),
            window: windows.length,
          });
        }
        windows.push({ epoch, size: inWindow, applied: inWindow === ga });
      }
    }
    return { microSteps, windows, microBatch: 1 };
  },
  batching(layout, framework, given) {
    // DanceGRPO trains one sample per micro-step (samples_batched_list); GA counts samples.
    if (given !== undefined) throw configError([fact('steps.micro-not-verl', { framework })]);
    return { microBatch: 1, ga: layout.config.gradientAccumulationSteps, gaFrom: 'gradient-accumulation-steps' };
  },
  /** `batch`, as the budget has always counted it (the plan's micro-batches hold one sample: the estimate's costs absorb it). */
  plannedMicroBatch: (config: LayoutConfig) => config.batch,
  readsStepsPerGeneration: false,
  countsGenerationTokens: false,
  diffusion: true,
  facts: {
    offPolicy: 'steps.off-policy.dance-grpo',
    shuffle: 'steps.note.shuffle.dance-grpo',
    neverApplied: 'steps.never-applied.dance-grpo',
  },
};
