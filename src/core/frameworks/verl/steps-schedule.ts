// verl's micro-steps (dp_actor.update_policy): how `grpo-sandbox steps` cuts a layout into
// mini-batches (one optimizer step each) and micro-batches, and the sentences that explain a run.
import type { LayoutConfig } from '../../layout/types.ts';
import { configError, fact } from '../../messages/index.ts';
import { verlSizes } from './sampler.ts';
import { dynamicMicroBatches, verlMaxTokenLen } from './rearrange.ts';
import { chunks, completionOffsets, layoutBlocks, ordered } from '../../steps/plan.ts';
import type { Layout } from '../../layout/types.ts';
import type { MicroStepPlan, StepSchedule, WindowPlan } from '../../steps/types.ts';

/**
 * The seqlen (prompt + response, the attention mask's sum) of every completion, in completion order, where the
 * layout has them (the verl sampler's steps, in dispatch order); null otherwise. <grpo-steps> draws them as token bars.
 */
export function completionSeqlens(layout: Layout): number[] | null {
  const offsets = completionOffsets(layout);
  const out: number[] = [];
  for (let s = 0; s < layout.steps.length; s++) {
    const step = layout.steps[s]!;
    if (!step.seqlens || !step.order) return null;
    const count = step.ranks.reduce((n, slots) => n + slots.length, 0);
    for (let i = 0; i < count; i++) out[offsets[s]! + i] = step.seqlens[step.order[i]!]!;
  }
  return out;
}

/** Whether verl's update_policy packs this layout's mini-batches by tokens (actor.use_dynamic_bsz on the verl sampler). */
function packsByTokens(layout: Layout): boolean {
  return layout.sampler === 'verl' && Boolean(layout.config.useDynamicBsz);
}

/**
 * Each rank's block of a layout step is split into mini-batches of `miniBatch` samples (one
 * optimizer step each; a short last one is kept, as DataProto.split does) and those into
 * micro-batches of `microBatch`, ppo_epochs (num_iterations) times. `miniBatch` defaults to
 * microBatch × GA (samplers other than verl's, which have no ppo_mini_batch_size).
 */
export const verlSchedule: StepSchedule = {
  plan(layout, microBatch, order, miniBatch) {
    const c = layout.config;
    const { block } = layoutBlocks(layout);
    const microSteps: MicroStepPlan[] = [];
    const windows: WindowPlan[] = [];
    const W = c.ranks;
    // actor.use_dynamic_bsz: each mini-batch through rearrange_micro_batches on the samples' seqlens.
    const seqlens = packsByTokens(layout) ? completionSeqlens(layout) : null;
    // Mini-batches of `miniBatch` samples per rank, each one optimizer step, cut into micro-batches.
    for (let s = 0; s < layout.steps.length; s++) {
      const epoch = layout.steps[s]!.epoch;
      const perRank = Array.from({ length: W }, (_, r) => {
        const b = block(s, r);
        return chunks(ordered(b, order(s, 0, r, b.length)), miniBatch);
      });
      for (let pass = 0; pass < c.numIterations; pass++) {
        for (let mini = 0; mini < perRank[0]!.length; mini++) {
          const micro = seqlens
            ? // prepare_dynamic_batch(mini_batch, max_token_len=ppo_max_token_len_per_gpu × ulysses_sequence_parallel_size): the same
              // cut every ppo_epoch; each rank is a data-parallel group whose GPUs hold the same micro-batch.
              dynamicMicroBatches(
                perRank.map((minis) => minis[mini]!.map((id) => seqlens[id]!)),
                verlMaxTokenLen(c).tokens,
              ).map((parts, r) => parts.map((p) => p.map((i) => perRank[r]![mini]![i]!)))
            : perRank.map((minis) => chunks(minis[mini]!, microBatch));
          for (let chunk = 0; chunk < micro[0]!.length; chunk++) {
            const group = micro.map((p) => p[chunk]!);
            microSteps.push({
              epoch,
              generation: s,
              generationSteps: [s],
              pass,
              perRank: group,
              ...(seqlens ? { packedTokens: group.map((ids) => ids.reduce((t, id) => t + seqlens[id]!, 0)) } : {}),
              window: windows.length,
            });
          }
          windows.push({ epoch, size: micro[0]!.length, applied: true });
        }
      }
    }
    return { microSteps, windows, microBatch };
  },

  /**
   * verl's ppo_micro_batch_size_per_gpu is one setting: the verl sampler's `--ppo-micro-batch-size-per-gpu`
   * (with `--ppo-mini-batch-size`, as verl's config has them); `--micro-batch` stands for it only on
   * the samplers that have no such setting, and on the verl sampler must agree with it.
   */
  batching(layout, _framework, given) {
    const c = layout.config;
    const block = layout.steps[0]?.ranks[0]?.length ?? c.batch;
    if (layout.sampler === 'verl') {
      // The layout has checked that the micro-batch divides the normalised mini-batch.
      const { micro, normalisedMini } = verlSizes(c);
      if (given !== undefined && given !== micro) {
        throw configError([fact('steps.micro-conflict', { given, micro, leftOut: !c.ppoMicroBatchSizePerGpu })]);
      }
      const batching = {
        microBatch: micro,
        miniBatch: normalisedMini,
        ga: Math.floor(normalisedMini / micro),
        gaFrom: 'ppo-mini-batch',
      } as const;
      // use_dynamic_bsz: loss_scale_factor = response_mask.shape[0] / ppo_mini_batch_size (the normalised one).
      return packsByTokens(layout) ? { ...batching, dynamicMini: normalisedMini } : batching;
    }
    const ga = c.gradientAccumulationSteps;
    const m = given ?? block / ga;
    if (!Number.isInteger(m) || m < 1 || block % (m * ga) !== 0) {
      const fits = [...Array(block).keys()].map((i) => i + 1).filter((x) => block % (x * ga) === 0);
      throw configError([fact('steps.mini-split', { block, given: given ?? null, ga, fits: fits.slice(0, 4) })]);
    }
    return { microBatch: m, ga, gaFrom: 'gradient-accumulation-steps' };
  },

  /**
   * The verl sampler's ppo_micro_batch_size_per_gpu, else `batch`: on another sampler the plan cuts
   * `batch` / GA, so there this counts GA times too few micro-batches, which the estimate's costs absorb.
   */
  plannedMicroBatch: (config: LayoutConfig) => (config.sampler === 'verl' ? verlSizes(config).micro : config.batch),
  readsStepsPerGeneration: false,
  countsGenerationTokens: false,
  diffusion: false,
  facts: { offPolicy: 'steps.off-policy.verl', shuffle: 'steps.note.shuffle.verl', neverApplied: null },
};
