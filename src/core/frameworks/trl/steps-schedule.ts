// TRL's micro-steps (GRPOTrainer on transformers' Trainer): how `grpo-sandbox steps` and `train`
// cut the trl sampler's layout into micro-steps and accumulation windows, and the sentences that
// explain a run of it.
import type { LayoutConfig } from '../../layout/types.ts';
import { batchPerMicroStep, chunks, layoutBlocks, ordered } from '../../steps/plan.ts';
import type { MicroStepPlan, StepSchedule, WindowPlan } from '../../steps/types.ts';

/**
 * Each layout step is a generation batch; each rank's block (batch × spg) is shuffled once and cut
 * into spg micro-batches of `batch`, run num_iterations times; windows of GA micro-steps per epoch,
 * the last one short (transformers' Trainer).
 */
export const trlSchedule: StepSchedule = {
  plan(layout, microBatch, order) {
    const c = layout.config;
    const { block, epochs, stepsOf } = layoutBlocks(layout);
    const microSteps: MicroStepPlan[] = [];
    const windows: WindowPlan[] = [];
    const W = c.ranks;
    for (const epoch of epochs) {
      const first = microSteps.length;
      for (const s of stepsOf(epoch)) {
        const perRank = Array.from({ length: W }, (_, r) => {
          const b = block(s, r);
          return chunks(ordered(b, order(s, 0, r, b.length)), microBatch);
        });
        for (let pass = 0; pass < c.numIterations; pass++) {
          for (let chunk = 0; chunk < perRank[0]!.length; chunk++) {
            microSteps.push({ epoch, generation: s, generationSteps: [s], pass, perRank: perRank.map((p) => p[chunk]!), window: -1 });
          }
        }
      }
      const inEpoch = microSteps.length - first;
      for (let start = 0; start < inEpoch; start += c.gradientAccumulationSteps) {
        const size = Math.min(c.gradientAccumulationSteps, inEpoch - start);
        for (let m = first + start; m < first + start + size; m++) microSteps[m]!.window = windows.length;
        windows.push({ epoch, size, applied: true });
      }
    }
    return { microSteps, windows, microBatch };
  },
  batching: batchPerMicroStep,
  plannedMicroBatch: (config: LayoutConfig) => config.batch,
  readsStepsPerGeneration: true,
  countsGenerationTokens: true,
  diffusion: false,
  facts: { offPolicy: 'steps.off-policy.trl', shuffle: 'steps.note.shuffle.trl', neverApplied: null },
};
