// The configuration of a real framework equivalent to the sandbox's settings (`layout --emit`):
// each value with where it comes from, the version it targets, and what the framework cannot
// express (reported, never dropped). Pure data; src/cli/emit-text.ts prints it.
import type { LayoutConfig } from '../layout/types.ts';
import { DANCE_GRPO_VERSION, TRL_VERSION, VERL_VERSION } from '../samplers/framework-errors.ts';
import { samplers, TORCH_DEFAULT_SEED, validateConfig, verlSizes } from '../samplers/index.ts';

export const EMIT_TARGETS = ['trl', 'flow-grpo', 'verl', 'dance-grpo'] as const;
export type EmitTarget = (typeof EMIT_TARGETS)[number];

export interface EmittedValue {
  /** The framework's own name: a GRPOConfig kwarg, `config.sample.x`, a dotted YAML key, an argparse flag. */
  key: string;
  value: number | boolean | string;
  /** Where the value comes from, in the sandbox's terms. */
  origin: string;
}

export interface Emitted {
  target: EmitTarget;
  /** The framework and version whose names these are. */
  version: string;
  values: EmittedValue[];
  /** How to start W processes. */
  launch: string;
  /** Settings (or behaviour) of the sandbox this framework cannot express, one sentence each. */
  cannotExpress: string[];
  /** Things to check in the framework's script so the run matches the layout. */
  notes: string[];
}

const v = (key: string, value: EmittedValue['value'], origin: string): EmittedValue => ({ key, value, origin });

/** The layout the framework's own sampler makes, when it is not the one the settings chose. */
function samplerMismatch(config: LayoutConfig, own: LayoutConfig['sampler'][], name: string): string[] {
  if (own.includes(config.sampler)) return [];
  return [
    `--sampler ${config.sampler}: ${name} does not use that sampler; its own layout is --sampler ${own[0]} ` +
      `(run \`grpo-sandbox layout --sampler ${own[0]}\` to see what ${name} will do with these numbers)`,
  ];
}

/** The framework's own rule on these numbers, when they break it (e.g. k must divide TRL's generation batch). */
function ruleBroken(config: LayoutConfig, sampler: LayoutConfig['sampler']): string[] {
  const err = validateConfig({ ...config, sampler });
  return err ? [`these settings break ${sampler}'s rule: ${err.message}`] : [];
}

function trl(c: LayoutConfig): Emitted {
  const eff = samplers.trl.effective(c);
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

/** ": as scripts/train_sd3.py builds it" when the value is the published script's, else a warning that it is not. */
function loaderOrigin(c: LayoutConfig, field: 'numWorkers' | 'prefetchFactor' | 'acceleratePrepare'): string {
  const published = samplers[c.sampler]?.defaults?.[field] ?? samplers['flow-grpo'].defaults![field];
  const script = c.sampler === 'flow-grpo-lcm' ? 'train_sd3.py at 74db691' : 'train_sd3.py at ac4c86e';
  return c[field] === published ? `: as ${script} builds it` : `: ${script} has ${published}; edit the script to match`;
}

function flowGrpo(c: LayoutConfig): Emitted {
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

function verl(c: LayoutConfig): Emitted {
  const samples = c.ranks * c.batch;
  const divisible = samples % c.k === 0;
  const { trainBatchSize, mini, normalisedMini, micro } = verlSizes(c);
  const prompts = divisible ? trainBatchSize : Math.floor(samples / c.k);
  const workers = c.dataloaderNumWorkers ?? 8;
  const defaultSeed = c.seed === TORCH_DEFAULT_SEED;
  return {
    target: 'verl',
    version: `${VERL_VERSION} (verl/trainer/config/ppo_trainer.yaml keys, python3 -m verl.trainer.main_ppo overrides)`,
    values: [
      v('algorithm.adv_estimator', 'grpo', "GRPO: verl's default is gae (PPO with a critic)"),
      v('algorithm.norm_adv_by_std_in_grpo', true, "verl's default: (score − group mean) / (group std + 1e-6), grouped by uid"),
      v('algorithm.use_kl_in_reward', false, 'GRPO puts the KL in the loss instead (use_kl_loss below)'),
      v('data.train_batch_size', prompts, `ranks×batch/k = ${c.ranks}×${c.batch}/${c.k}: prompts per step`),
      v('data.shuffle', true, 'RandomSampler (the sandbox models the shuffled path)'),
      v(
        'data.seed',
        defaultSeed ? 'null' : c.seed,
        defaultSeed ? `--seed ${c.seed}: torch.Generator()'s default, what null gives` : `--seed ${c.seed}`,
      ),
      v(
        'data.dataloader_num_workers',
        workers,
        `--dataloader-num-workers ${workers}: with any worker each epoch uses the second of two permutations`,
      ),
      v('actor_rollout_ref.rollout.n', c.k, `--k ${c.k}`),
      v('actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu', micro, 'required by validate_config; the actor micro-batch'),
      v(
        'actor_rollout_ref.actor.ppo_mini_batch_size',
        mini,
        `--ppo-mini-batch-size ${c.ppoMiniBatchSize || `0 → train_batch_size ${mini}`} prompts; verl's default 256`,
      ),
      v(
        'actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu',
        micro,
        `--ppo-micro-batch-size-per-gpu ${c.ppoMicroBatchSizePerGpu || `0 → the per-rank mini-batch ${normalisedMini}`} samples`,
      ),
      v('actor_rollout_ref.actor.ppo_epochs', c.numIterations, `--num-iterations ${c.numIterations}`),
      v('actor_rollout_ref.actor.use_kl_loss', true, "GRPO's KL term in the loss (verl's GRPO examples)"),
      v('actor_rollout_ref.actor.kl_loss_coef', 0.001, "verl's default coefficient"),
      v('actor_rollout_ref.actor.kl_loss_type', 'low_var_kl', "verl's default (k3 estimator)"),
      v(
        'actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu',
        micro,
        'required with use_kl_loss (a reference policy); the actor micro-batch',
      ),
      v('trainer.balance_batch', c.balanceBatch ?? true, `--balance-batch ${c.balanceBatch ?? true}`),
      v('trainer.total_epochs', c.epochs, `--epochs ${c.epochs}`),
      v('trainer.n_gpus_per_node', c.ranks, `--ranks ${c.ranks}: data-parallel size (no tensor/sequence parallelism)`),
      v('trainer.nnodes', 1, 'one node of --ranks GPUs'),
    ],
    launch: 'python3 -m verl.trainer.main_ppo <each key above as key=value>',
    cannotExpress: [
      ...(divisible ? [] : [`ranks×batch=${samples} is not a multiple of k=${c.k}: verl's batch is whole prompts × rollout.n`]),
      `--dataset-size ${c.datasetSize}: verl reads data.train_files; give it ${c.datasetSize} rows`,
      ...(c.sampler === 'verl'
        ? []
        : [`--batches-per-epoch ${c.batchesPerEpoch}: verl runs len(dataset) // data.train_batch_size steps per epoch`]),
      ...(c.gradientAccumulationSteps !== 1
        ? [
            `--gradient-accumulation-steps ${c.gradientAccumulationSteps}: verl accumulates mini-batch / micro-batch micro-batches (set those)`,
          ]
        : []),
      ...samplerMismatch(c, ['verl'], 'verl'),
      ...ruleBroken(c, 'verl'),
    ],
    notes: [
      'The token counts that drive balance_batch come from your generations; `layout --sampler verl --seqlens FILE` replays measured ones.',
    ],
  };
}

function danceGrpo(c: LayoutConfig): Emitted {
  const divisible = c.batch % c.k === 0;
  const broken = ruleBroken(c, 'dance-grpo');
  // Steps per pass only exist for numbers DanceGRPO accepts.
  const perPass = broken.length ? 0 : samplers['dance-grpo'].effective(c).batchesPerEpoch;
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

/** The framework configuration equivalent to a valid sandbox configuration. */
export function emitConfig(config: LayoutConfig, target: EmitTarget): Emitted {
  const c = samplers[config.sampler].effective(config);
  if (target === 'trl') return trl(c);
  if (target === 'flow-grpo') return flowGrpo(c);
  if (target === 'verl') return verl(c);
  return danceGrpo(c);
}
