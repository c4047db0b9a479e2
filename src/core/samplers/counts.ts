// Step counts as each framework's own training loop counts them (per process), with one line per
// factor. Users most often misjudge these (TRL's optimizer steps scale with num_iterations and
// steps_per_generation), so every factor is spelled out.
import type { LayoutConfig, StepCounts, TrainingCounts } from '../layout/types.ts';

function times(c: StepCounts, n: number): StepCounts {
  return { generationBatches: c.generationBatches * n, microSteps: c.microSteps * n, optimizerSteps: c.optimizerSteps * n };
}

/**
 * TRL GRPOTrainer on transformers' Trainer (read from trl 1.13.0 / transformers 5.18.0 / accelerate 1.15.0).
 * `config.batchesPerEpoch` is the effective number of generation batches RepeatSampler cuts per epoch.
 * - the dataloader yields per process len(RepeatSampler) / (per_device × steps_per_generation × processes)
 *   batches = generation batches × num_iterations × steps_per_generation (accelerate's BatchSamplerShard);
 * - Trainer: num_update_steps_per_epoch = len_dataloader // GA + (len_dataloader % GA > 0), and
 *   max_steps = num_train_epochs × that: a short last accumulation still steps the optimizer.
 */
export function trlCounts(config: LayoutConfig): TrainingCounts {
  const { batchesPerEpoch: generations, numIterations: mu, stepsPerGeneration: spg } = config;
  // ms-swift with sequence_parallel_size sp: its RepeatSampler repeats each chunk sp times more, and GA is multiplied by sp.
  const sp = config.sequenceParallelSize ?? 1;
  const ga = config.gradientAccumulationSteps * sp;
  const microSteps = generations * mu * spg * sp;
  const optimizerSteps = Math.ceil(microSteps / ga);
  const spGa = sp > 1 ? ` (ms-swift: ${config.gradientAccumulationSteps} × sequence_parallel_size ${sp})` : '';
  const perEpoch = { generationBatches: generations, microSteps, optimizerSteps };
  const prompts = (config.batch * config.ranks * spg) / config.k;
  return {
    perEpoch,
    total: times(perEpoch, config.epochs),
    factors: [
      `per_device_train_batch_size=${config.batch} counts completions, not prompts: one micro-step trains ${config.batch} completions per process.`,
      `generation_batch_size = per_device_train_batch_size ${config.batch} × processes ${config.ranks} × steps_per_generation ${spg} = ` +
        `${config.batch * config.ranks * spg} completions = ${prompts} prompts × num_generations ${config.k}.`,
      `generation batches per epoch = floor(dataset ${config.datasetSize} / ${prompts} prompts) = ${generations} (RepeatSampler drops an ` +
        `incomplete last chunk).`,
      sp > 1
        ? `micro-steps per epoch = generation batches ${generations} × num_iterations ${mu} × steps_per_generation ${spg} × ` +
          `sequence_parallel_size ${sp} = ${microSteps} (ms-swift's RepeatSampler repeats each generation batch ` +
          `num_iterations × steps_per_generation × sequence_parallel_size times).`
        : `micro-steps per epoch = generation batches ${generations} × num_iterations ${mu} × steps_per_generation ${spg} = ${microSteps} (the ` +
          `dataloader repeats each generation batch num_iterations × steps_per_generation times).`,
      `optimizer steps per epoch = ceil(micro-steps ${microSteps} / gradient_accumulation_steps ${ga}${spGa}) = ${optimizerSteps} (transformers' ` +
        `Trainer: a short last accumulation still steps).`,
      `total = ${config.epochs} epoch(s) × per epoch: ${perEpoch.generationBatches * config.epochs} generation batches, ` +
        `${microSteps * config.epochs} micro-steps, ${optimizerSteps * config.epochs} optimizer steps (max_steps).`,
    ],
  };
}

/**
 * flow_grpo's loop (scripts/train_sd3.py, 74db691): each epoch samples num_batches_per_epoch batches,
 * then for num_inner_epochs reshapes the epoch's samples into num_batches_per_epoch training batches
 * and runs each through `accelerator.accumulate` once per train timestep, with
 * Accelerator(gradient_accumulation_steps = train.gradient_accumulation_steps × num_train_timesteps).
 * The timesteps cancel: one optimizer step every GA training batches. accelerate's step counter runs
 * across epochs (nothing resets it), so the total is floor over the whole run, not per epoch.
 */
export function flowGrpoLoopCounts(config: LayoutConfig, framework: string): TrainingCounts {
  const { batchesPerEpoch: batches, numIterations: inner, gradientAccumulationSteps: ga, epochs } = config;
  const microSteps = batches * inner;
  const total = {
    generationBatches: batches * epochs,
    microSteps: microSteps * epochs,
    optimizerSteps: Math.floor((microSteps * epochs) / ga),
  };
  return {
    // Per epoch: the first epoch's count; a later one takes one more whenever the carried-over counter completes a window.
    perEpoch: { generationBatches: batches, microSteps, optimizerSteps: Math.floor(microSteps / ga) },
    total,
    factors: [
      `${framework}: sampling batches per epoch = num_batches_per_epoch ${batches}, each batch=${config.batch} samples per rank.`,
      `micro-steps per epoch = num_inner_epochs ${inner} × ${batches} training batches (the epoch's samples reshaped into num_batches_per_epoch ` +
        `batches, whatever train.batch_size says) = ${microSteps}; each runs once per train timestep.`,
      `optimizer steps = floor(micro-steps / train.gradient_accumulation_steps ${ga}): Accelerator accumulates ${ga} × num_train_timesteps ` +
        `backward passes, so the timesteps cancel; its step counter carries over between epochs (per epoch above is the first epoch's; ` +
        `a later one can take one more), total = floor(${microSteps * epochs} / ${ga}) = ${total.optimizerSteps}.`,
    ],
  };
}

/**
 * DanceGRPO (fastvideo/train_grpo_flux.py, 22b85ef): one train_one_step per loader batch; inside it
 * every sample is its own micro-batch (once per train timestep) and `if (i+1) % gradient_accumulation_steps == 0`
 * steps the optimizer. A remainder of batch % GA samples is backpropagated, then wiped by the
 * optimizer.zero_grad() that opens the next step.
 */
export function danceGrpoCounts(config: LayoutConfig): TrainingCounts {
  const { batchesPerEpoch: steps, batch, gradientAccumulationSteps: ga, epochs } = config;
  const perStep = Math.floor(batch / ga);
  const perEpoch = { generationBatches: steps, microSteps: steps * batch, optimizerSteps: steps * perStep };
  const lost = batch % ga;
  return {
    perEpoch,
    total: times(perEpoch, epochs),
    factors: [
      `DanceGRPO: train steps per pass = len(DataLoader) ${steps}; --epochs counts passes (${epochs}), DanceGRPO itself stops at max_train_steps ` +
        `= ${steps * epochs} here.`,
      `micro-steps per train step = batch ${batch} samples (train_batch_size ${batch / config.k} prompts × num_generations ${config.k}), each ` +
        `its own micro-batch, once per train timestep.`,
      `optimizer steps per train step = floor(${batch} / gradient_accumulation_steps ${ga}) = ${perStep}` +
        (lost
          ? `; the last ${lost} sample(s) of every step are backpropagated and then discarded by the next step's optimizer.zero_grad()`
          : '') +
        '.',
    ],
  };
}
