// How a framework's training loop cuts a layout's generation batches into micro-steps and
// accumulation windows (optimizer steps). Every rank runs the same micro-step at the same time;
// what differs per rank is which completions its micro-batch holds.
import type { StepsWork } from '../budget.ts';
import type { Layout, LayoutConfig } from '../layout/types.ts';
import { verlSizes } from '../samplers/verl.ts';
import type { Schedule } from './frameworks.ts';

/**
 * The order a rank trains its block of one generation in (a permutation of 0 … size−1). The
 * frameworks shuffle with an unseeded generator (TRL: torch.randperm on the global generator in
 * shuffle_sequence_dict; flow_grpo: torch.randperm per inner epoch), so the default keeps the
 * block's order; the fixtures pass the permutations the real run drew.
 */
export type BlockOrder = (generation: number, pass: number, rank: number, size: number) => readonly number[] | undefined;

export interface MicroStepPlan {
  epoch: number;
  /** Layout step whose completions it trains on (flow_grpo: the epoch's first). */
  generation: number;
  /** The generation's completion tokens are counted over these layout steps (TRL's num_items_in_batch). */
  generationSteps: number[];
  pass: number;
  /** perRank[r] = completion indices of rank r's micro-batch, in order. */
  perRank: number[][];
  /** Index of its optimizer step (window) in `windows`. */
  window: number;
}

export interface WindowPlan {
  epoch: number;
  /** Micro-steps in it. */
  size: number;
  /** False for trailing micro-steps the run never steps on (flow_grpo's counter at the end of the run). */
  applied: boolean;
}

export interface Plan {
  microSteps: MicroStepPlan[];
  windows: WindowPlan[];
  /** Samples per rank per micro-step. */
  microBatch: number;
}

/** Index of the first completion of each layout step (rank-major, slot order within a step). */
export function completionOffsets(layout: Layout): number[] {
  const offsets: number[] = [];
  let next = 0;
  for (const step of layout.steps) {
    offsets.push(next);
    next += step.ranks.reduce((n, slots) => n + slots.length, 0);
  }
  return offsets;
}

/**
 * What a run's steps will build, from its settings alone (the budget, before any work): a row per
 * completion per pass, and the per-rank micro-batches. `samples` is the layout's (layoutSamples).
 * Micro-batches hold `--micro-batch` samples, verl's sampler's ppo_micro_batch_size_per_gpu, else
 * `batch` (TRL's and flow_grpo's schedules; verl's schedule on another sampler cuts `batch` / GA,
 * so there this counts GA times too few micro-batches, which the estimate's costs absorb).
 */
export function plannedWork(config: LayoutConfig, samples: number, microBatch?: number): StepsWork {
  const rows = samples * Math.max(1, config.numIterations);
  const perMicroBatch = microBatch ?? (config.sampler === 'verl' ? verlSizes(config).micro : config.batch);
  return { rows, microBatches: Math.ceil(rows / Math.max(1, perMicroBatch)) };
}

function ordered(block: number[], order: readonly number[] | undefined): number[] {
  if (!order) return block;
  return order.map((i) => block[i]!);
}

function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/**
 * The micro-steps and windows of `layout` under `schedule`:
 * - trl: each layout step is a generation batch; each rank's block (batch × spg) is shuffled once
 *   and cut into spg micro-batches of `batch`, run num_iterations times; windows of GA micro-steps
 *   per epoch, the last one short (transformers' Trainer);
 * - flow-grpo: an epoch's batches are concatenated per rank, reshuffled per inner epoch and cut into
 *   batches-per-epoch training batches; accelerate's counter runs over the whole run, so a window
 *   can span two epochs and trailing micro-steps are never stepped on;
 * - verl: each rank's block of a layout step is split into mini-batches of `miniBatch` samples (one
 *   optimizer step each; a short last one is kept, as DataProto.split does) and those into
 *   micro-batches of `microBatch`, ppo_epochs (num_iterations) times. `miniBatch` defaults to
 *   microBatch × GA (samplers other than verl's, which have no ppo_mini_batch_size);
 * - dance-grpo: each rank's block of a layout step in order, one sample per micro-step, an optimizer step every GA
 *   samples within the step; a short last window is never applied (the next train_one_step's zero_grad drops it).
 */
export function planMicroSteps(
  layout: Layout,
  schedule: Schedule,
  microBatch: number,
  order: BlockOrder = () => undefined,
  miniBatch = microBatch * layout.config.gradientAccumulationSteps,
): Plan {
  const c = layout.config;
  const offsets = completionOffsets(layout);
  const block = (s: number, r: number) =>
    layout.steps[s]!.ranks[r]!.map((_, slot) => offsets[s]! + r * layout.steps[s]!.ranks[0]!.length + slot);
  const microSteps: MicroStepPlan[] = [];
  const windows: WindowPlan[] = [];
  const W = c.ranks;
  // Layout steps of each epoch, in one pass (a scan per epoch was epochs × steps).
  const byEpoch = new Map<number, number[]>();
  layout.steps.forEach((s, i) => {
    const list = byEpoch.get(s.epoch);
    if (list) list.push(i);
    else byEpoch.set(s.epoch, [i]);
  });
  const epochs = [...byEpoch.keys()];
  const stepsOf = (e: number) => byEpoch.get(e)!;

  if (schedule === 'trl') {
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
  }

  if (schedule === 'flow-grpo') {
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
  }

  if (schedule === 'dance-grpo') {
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
  }

  // verl: mini-batches of `miniBatch` samples per rank, each one optimizer step, cut into micro-batches.
  for (let s = 0; s < layout.steps.length; s++) {
    const epoch = layout.steps[s]!.epoch;
    const perRank = Array.from({ length: W }, (_, r) => {
      const b = block(s, r);
      return chunks(ordered(b, order(s, 0, r, b.length)), miniBatch);
    });
    for (let pass = 0; pass < c.numIterations; pass++) {
      for (let mini = 0; mini < perRank[0]!.length; mini++) {
        const micro = perRank.map((minis) => chunks(minis[mini]!, microBatch));
        for (let chunk = 0; chunk < micro[0]!.length; chunk++) {
          microSteps.push({
            epoch,
            generation: s,
            generationSteps: [s],
            pass,
            perRank: micro.map((p) => p[chunk]!),
            window: windows.length,
          });
        }
        windows.push({ epoch, size: micro[0]!.length, applied: true });
      }
    }
  }
  return { microSteps, windows, microBatch };
}
