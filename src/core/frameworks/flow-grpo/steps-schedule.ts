// flow_grpo's micro-steps (scripts/train_sd3.py under accelerate): how `grpo-sandbox steps` cuts a
// layout's epochs into training batches and accumulation windows, and the sentences that explain a run.
import type { LayoutConfig } from '../../layout/types.ts';
import { batchPerMicroStep, chunks, layoutBlocks, ordered } from '../../steps/plan.ts';
import type { MicroStepPlan, StepSchedule, WindowPlan } from '../../steps/types.ts';

/**
 * An epoch's batches are concatenated per rank, reshuffled per inner epoch and cut into
 * batches-per-epoch training batches; accelerate's counter runs over the whole run, so a window can
 * span two epochs and trailing micro-steps are never stepped on.
 */
export const flowGrpoSchedule: StepSchedule = {
  plan(layout, _microBatch, order) {
    const c = layout.config;
    const { block, epochs, stepsOf } = layoutBlocks(layout);
    const microSteps: MicroStepPlan[] = [];
    const windows: WindowPlan[] = [];
    const W = c.ranks;
    for (const epoch of epochs) {
      const steps = stepsOf(epoch);
      const blocks = Array.from({ length: W }, (_, r) => steps.flatMap((s) => block(s, r)));
      for (let pass = 0; pass < c.numIterations; pass++) {
        const perRank = blocks.map((b, r) => chunks(ordered(b, order(steps[0]!, pass, r, b.length)), b.length / steps.length));
        for (let chunk = 0; chunk < steps.length; chunk++) {
          microSteps.push({
            epoch,
            generation: steps[0]!,
            generationSteps: steps,
            pass,
            perRank: perRank.map((p) => p[chunk]!),
            window: -1,
          });
        }
      }
    }
    const ga = c.gradientAccumulationSteps;
    for (let start = 0; start < microSteps.length; start += ga) {
      const size = Math.min(ga, microSteps.length - start);
      for (let m = start; m < start + size; m++) microSteps[m]!.window = windows.length;
      windows.push({ epoch: microSteps[start + size - 1]!.epoch, size, applied: size === ga });
    }
    return { microSteps, windows, microBatch: layout.steps[0]?.ranks[0]?.length ?? 0 };
  },
  batching: batchPerMicroStep,
  plannedMicroBatch: (config: LayoutConfig) => config.batch,
  readsStepsPerGeneration: false,
  countsGenerationTokens: false,
  diffusion: true,
  facts: {
    offPolicy: 'steps.off-policy.flow-grpo',
    shuffle: 'steps.note.shuffle.flow-grpo',
    neverApplied: 'steps.never-applied.flow-grpo',
  },
};
