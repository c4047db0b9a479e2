// flow_grpo's `--emit` target: the ml_collections config assignments and the lines of
// scripts/train_sd3.py between the sampler and the loop that the layout assumes.
import { py, samplerMismatch, v } from '../../bridge/emit-parts.ts';
import type { Emitted, Emitter, RuleBroken } from '../../bridge/emit-types.ts';
import type { LayoutConfig } from '../../layout/types.ts';
import { flowGrpo as flowGrpoSampler, flowGrpoLcm } from './sampler.ts';

/**
 * ": as scripts/train_sd3.py builds it" when the value is the published script's, else a warning that it is not. The script
 * is the lcm sampler's (74db691) for --sampler flow-grpo-lcm and the scatter sampler's (ac4c86e) for any other sampler.
 */
function loaderOrigin(c: LayoutConfig, field: 'numWorkers' | 'prefetchFactor' | 'acceleratePrepare'): string {
  const lcm = c.sampler === 'flow-grpo-lcm';
  const published = (lcm ? flowGrpoLcm : flowGrpoSampler).defaults![field];
  const script = lcm ? 'train_sd3.py at 74db691' : 'train_sd3.py at ac4c86e';
  return c[field] === published ? `: as ${script} builds it` : `: ${script} has ${published}; edit the script to match`;
}

function flowGrpo(c: LayoutConfig, ruleBroken: RuleBroken): Emitted {
  const lcm = c.sampler === 'flow-grpo-lcm';
  return {
    target: 'flow-grpo',
    version: lcm ? 'flow_grpo 74db691 (flow_grpo/sampler.py, lcm sampler)' : 'flow_grpo before 74db691 (scatter DistributedKRepeatSampler)',
    values: [
      v('config.sample.train_batch_size', c.batch, `--batch ${c.batch}: images per GPU per sampling batch`),
      v('config.sample.num_image_per_prompt', c.k, `--k ${c.k}`),
      v('config.sample.num_batches_per_epoch', c.batchesPerEpoch, `--batches-per-epoch ${c.batchesPerEpoch}`),
      v('config.num_epochs', c.epochs, `--epochs ${c.epochs}`),
      v('config.train.num_inner_epochs', c.numIterations, `--num-iterations ${c.numIterations}`),
      v(
        'config.train.gradient_accumulation_steps',
        c.gradientAccumulationSteps,
        `--gradient-accumulation-steps ${c.gradientAccumulationSteps}`,
      ),
      v('config.seed', c.seed, `--seed ${c.seed}`),
      // Not config values: the script's own lines between the sampler and the loop, which the layout assumes.
      v(
        'DataLoader(batch_sampler=train_sampler, num_workers=…)',
        c.numWorkers,
        `--num-workers ${c.numWorkers}${loaderOrigin(c, 'numWorkers')}`,
      ),
      v(
        'DataLoader(..., prefetch_factor=…)',
        c.numWorkers > 0 ? c.prefetchFactor : 'None',
        c.numWorkers > 0
          ? `--prefetch-factor ${c.prefetchFactor}${loaderOrigin(c, 'prefetchFactor')}`
          : 'torch refuses a prefetch_factor with num_workers=0',
      ),
      v(
        'accelerator.prepare(..., train_dataloader, ...)',
        c.acceleratePrepare === 1,
        `--accelerate-prepare ${c.acceleratePrepare}${loaderOrigin(c, 'acceleratePrepare')}`,
      ),
    ],
    launch: `accelerate launch --num_processes ${c.ranks} scripts/train_sd3.py --config config/grpo.py:...   # --ranks ${c.ranks}`,
    cannotExpress: [
      `--dataset-size ${c.datasetSize}: flow_grpo reads the prompt file; give it exactly ${c.datasetSize} prompts`,
      ...(c.stepsPerGeneration !== 1 ? [`--steps-per-generation ${c.stepsPerGeneration}: TRL's setting, flow_grpo has none`] : []),
      ...samplerMismatch(c, ['flow-grpo', 'flow-grpo-lcm'], 'flow_grpo'),
      ...ruleBroken(c, lcm ? 'flow-grpo-lcm' : 'flow-grpo'),
    ],
    notes: [
      `The train_sd3.py of those versions builds DistributedKRepeatSampler(..., seed=42), not config.seed: set that argument to ${c.seed}.`,
      lcm
        ? `The layout assumes the loop of train_sd3.py at 74db691: set_epoch(epoch), then a new iter(train_dataloader) every epoch.`
        : `The layout assumes the loop of train_sd3.py at ac4c86e: train_iter = iter(train_dataloader) once before the loop, ` +
          `set_epoch(epoch × num_batches_per_epoch + i) before each next(train_iter); the loader lines above decide which batch ` +
          `each next() gets (--num-workers 0 --accelerate-prepare 0 is the loop that reads each batch as set_epoch seeds it).`,
    ],
  };
}

export const emitter: Emitter<'flow-grpo'> = {
  target: 'flow-grpo',
  emit: flowGrpo,
  body: (values) => values.map((x) => `${x.key} = ${py(x.value)}   # ${x.origin}`),
};
