// TRL's `--emit` target: GRPOConfig keyword arguments equivalent to the sandbox's settings, with the
// accelerate launch line, printed as a GRPOConfig(...) call.
import { py, samplerMismatch, v } from '../../bridge/emit-parts.ts';
import type { Emitted, Emitter, RuleBroken } from '../../bridge/emit-types.ts';
import type { LayoutConfig } from '../../layout/types.ts';
import { TRL_VERSION } from '../../samplers/framework-errors.ts';
import { trl as trlSampler } from './sampler.ts';

function trl(c: LayoutConfig, ruleBroken: RuleBroken): Emitted {
  const eff = trlSampler.effective(c);
  return {
    target: 'trl',
    version: `TRL ${TRL_VERSION} (GRPOConfig), accelerate 1.15.0`,
    values: [
      v('per_device_train_batch_size', c.batch, `--batch ${c.batch}: samples per process per micro-step`),
      v('num_generations', c.k, `--k ${c.k}: completions per prompt`),
      v('steps_per_generation', c.stepsPerGeneration, `--steps-per-generation ${c.stepsPerGeneration}`),
      v('gradient_accumulation_steps', c.gradientAccumulationSteps, `--gradient-accumulation-steps ${c.gradientAccumulationSteps}`),
      v('num_iterations', c.numIterations, `--num-iterations ${c.numIterations}`),
      v('num_train_epochs', c.epochs, `--epochs ${c.epochs}`),
      v('seed', c.seed, `--seed ${c.seed}: RepeatSampler's generator (seeded once per run)`),
      v('shuffle_dataset', true, `the sandbox's trl sampler shuffles (RepeatSampler with shuffle=True)`),
    ],
    launch: `accelerate launch --num_processes ${c.ranks} train.py   # --ranks ${c.ranks}`,
    cannotExpress: [
      `--dataset-size ${c.datasetSize}: TRL has no setting for it; pass a train_dataset of exactly ${c.datasetSize} rows`,
      ...(c.sampler === 'trl'
        ? []
        : [
            `--batches-per-epoch ${c.batchesPerEpoch}: TRL derives it (dataset rows // prompts per generation batch = ${eff.batchesPerEpoch})`,
          ]),
      ...samplerMismatch(c, ['trl'], 'TRL'),
      ...ruleBroken(c, 'trl'),
    ],
    notes: [`TRL's dataloader_num_workers defaults to 0; RepeatSampler has no set_epoch, so workers do not change the order.`],
  };
}

export const emitter: Emitter<'trl'> = {
  target: 'trl',
  emit: trl,
  body: (values) => ['GRPOConfig(', ...values.map((x) => `    ${x.key}=${py(x.value)},   # ${x.origin}`), ')'],
};
