// DanceGRPO's `--emit` target: the argparse flags of fastvideo/train_grpo_flux.py equivalent to the
// sandbox's settings, each with its origin, then the command line.
import { samplerMismatch, v } from '../../bridge/emit-parts.ts';
import type { Emitted, EmittedValue, Emitter, RuleBroken } from '../../bridge/emit-types.ts';
import type { LayoutConfig } from '../../layout/types.ts';
import { DANCE_GRPO_VERSION } from '../../samplers/framework-errors.ts';
import { danceGrpo as danceGrpoSampler } from './sampler.ts';

function danceGrpo(c: LayoutConfig, ruleBroken: RuleBroken): Emitted {
  const divisible = c.batch % c.k === 0;
  const broken = ruleBroken(c, 'dance-grpo');
  // Steps per pass only exist for numbers DanceGRPO accepts.
  const perPass = broken.length ? 0 : danceGrpoSampler.effective(c).batchesPerEpoch;
  return {
    target: 'dance-grpo',
    version: `${DANCE_GRPO_VERSION} (fastvideo/train_grpo_flux.py argparse)`,
    values: [
      // A batch that is not whole prompts × k has no train_batch_size: left out, and reported below.
      ...(divisible ? [v('--train_batch_size', c.batch / c.k, `batch/k = ${c.batch}/${c.k}: prompts per GPU per step`)] : []),
      v('--num_generations', c.k, `--k ${c.k}`),
      v(
        '--use_group',
        true,
        'the layout repeats each prompt k times on its rank and normalises each group of k (train_one_step, argparse default False); ' +
          'scripts/finetune/finetune_flux_grpo.sh passes it. Without it DanceGRPO samples each prompt once and normalises by the ' +
          "gathered batch's mean and std (grpo-sandbox advantages --scheme dance-nogroup)",
      ),
      v('--sampler_seed', c.seed, `--seed ${c.seed}: DistributedSampler's seed`),
      v('--gradient_accumulation_steps', c.gradientAccumulationSteps, `--gradient-accumulation-steps ${c.gradientAccumulationSteps}`),
      ...(perPass ? [v('--max_train_steps', c.epochs * perPass, `--epochs ${c.epochs} passes × ${perPass} steps per pass`)] : []),
    ],
    launch: `torchrun --nproc_per_node ${c.ranks} fastvideo/train_grpo_flux.py   # --ranks ${c.ranks}`,
    cannotExpress: [
      ...broken,
      `--dataset-size ${c.datasetSize}: DanceGRPO reads its prompt embeddings folder; give it ${c.datasetSize} prompts`,
      ...(c.numIterations !== 1 ? [`--num-iterations ${c.numIterations}: DanceGRPO trains each sample once`] : []),
      ...(c.stepsPerGeneration !== 1 ? [`--steps-per-generation ${c.stepsPerGeneration}: TRL's setting, DanceGRPO has none`] : []),
      ...(c.sampler === 'dance-grpo' || !perPass
        ? []
        : [`--batches-per-epoch ${c.batchesPerEpoch}: a DanceGRPO pass is the whole DataLoader (${perPass} steps here)`]),
      ...samplerMismatch(c, ['dance-grpo'], 'DanceGRPO'),
    ],
    notes: [`DanceGRPO calls set_epoch(0) once: every pass repeats pass 0's order (the sandbox's dance-grpo layout shows it).`],
  };
}

/** argparse: a store_true flag is given bare when true and left out when false. */
const flag = (x: EmittedValue) => (x.value === true ? x.key : `${x.key} ${x.value}`);

export const emitter: Emitter<'dance-grpo'> = {
  target: 'dance-grpo',
  emit: danceGrpo,
  body: (values) => [
    ...values.map((x) => `# ${flag(x)}   ← ${x.origin}`),
    values
      .filter((x) => x.value !== false)
      .map(flag)
      .join(' '),
  ],
};
