// Named configurations for the five scenarios (docs/scenarios.md). The same names are
// accepted by `--preset` on the CLI and used by the UI and its URLs. Each preset is a layout
// configuration; scenarios whose subject is more than a layout (seed-001's execution schemes,
// seed-002/004's dynamic sampling, seed-003's controller) get the layout closest to theirs here,
// and say where the rest of their scenario lives (a test checks every pointer names a real command).
import type { LayoutConfig } from './layout/types.ts';

export interface Preset {
  /** One paragraph: what the scenario is and why these settings. */
  description: string;
  config: LayoutConfig;
}

// The loader settings are flow_grpo's published ones (scripts/train_sd3.py at ac4c86e); the other samplers refuse them.
const base = {
  epochs: 1,
  seed: 42,
  stepsPerGeneration: 1,
  numIterations: 1,
  gradientAccumulationSteps: 1,
  numWorkers: 1,
  prefetchFactor: 2,
  acceleratePrepare: 1,
  balanceBatch: true,
  ppoMiniBatchSize: 0,
  ppoMicroBatchSizePerGpu: 0,
  dataloaderNumWorkers: 8,
  usePrefixGrouper: false,
  keepMinibatch: false,
  useDynamicBsz: false,
  ppoMaxTokenLenPerGpu: 16384,
  ulyssesSequenceParallelSize: 1,
} as const;

export const presets: Record<string, Preset> = {
  'seed-000': {
    description:
      'flow_grpo DistributedKRepeatSampler: 8 ranks × 2 samples per rank, k=4 copies per prompt, 2 batches per epoch, seed 42. ' +
      'The dataset has 32 prompts (ids 0–31): small enough to read every id, large enough that the draws are the real ' +
      'randperm(32) PyTorch makes for each set_epoch. The seed-000 document reads a new batch at every step: 16 samples = ' +
      '4 prompts × 4 per batch, 8 groups of 4 per epoch. The loader settings are those of the published train_sd3.py (ac4c86e), ' +
      'whose DataLoader and accelerator.prepare change those groups (`grpo-sandbox layout --preset seed-000` says how; ' +
      "`--num-workers 0 --accelerate-prepare 0` gives the document's loop).",
    config: { ...base, sampler: 'flow-grpo', ranks: 8, batch: 2, k: 4, batchesPerEpoch: 2, datasetSize: 32 },
  },
  'seed-001': {
    description:
      'Expanded batch (batch 4 × group 5 = 20 configurations): the layout closest to the ideal scheme, each of 4 ranks holding ' +
      "its own sample's 5 configurations (contiguous, 4 prompts in all; `--sampler dance-grpo` gives DanceGRPO's own loop, " +
      "every pass in pass 0's order). The execution schemes, their timelines and speed-ups: `grpo-sandbox schedule --preset seed-001`.",
    config: { ...base, sampler: 'contiguous', ranks: 4, batch: 5, k: 5, batchesPerEpoch: 1, datasetSize: 4 },
  },
  'seed-002': {
    description:
      "ms-swift dynamic sampling, 4 ranks × 16 samples (4 prompts × 4 completions), global target 64. ms-swift's GRPOTrainer " +
      "builds on TRL's (RepeatSampler, contiguous groups, each process a contiguous block), so the layout is trl; 64 prompts give " +
      "4 generation batches per epoch. The short-pool slicing bug's shape mismatch: `grpo-sandbox ranks --fault shape` " +
      '(`--fix` for equal batches). Filtering, resampling and every shortage policy: `grpo-sandbox dynamic --preset seed-002`.',
    config: { ...base, sampler: 'trl', ranks: 4, batch: 16, k: 4, batchesPerEpoch: 4, datasetSize: 64 },
  },
  'seed-003': {
    description:
      'Two-stage controller: batch size 1, group size 5 configurations sampled per input, on one rank (contiguous, one prompt per step). ' +
      'The controller and its knob-3 mask are in src/core/env/controller.ts; its pairwise loss: `grpo-sandbox loss` with ' +
      'lossType "pairwise"; training it across ranks: `grpo-sandbox train --preset seed-003`.',
    config: { ...base, sampler: 'contiguous', ranks: 1, batch: 5, k: 5, batchesPerEpoch: 8, datasetSize: 8 },
  },
  'seed-004': {
    description:
      'Cross-rank pool and device mismatch, 4 ranks × 16 samples, k=4, global pool 64, slices [0:16] [16:32] [32:48] [48:64]: ' +
      'the same TRL-like layout as seed-002 (ms-swift). The device error after gather_object: `grpo-sandbox ranks --fault device`; ' +
      'the V2 deadlock: `--fault deadlock` or `--fault mismatch` (each with `--fix`); the healthy pool, then the device error ' +
      'and its fix: `grpo-sandbox dynamic --preset seed-004`.',
    config: { ...base, sampler: 'trl', ranks: 4, batch: 16, k: 4, batchesPerEpoch: 4, datasetSize: 64 },
  },
};

/** Names accepted by `--preset`, in order. */
export const presetNames = Object.keys(presets);
