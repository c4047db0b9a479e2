// ROLL's sizes and config checks for the sandbox's settings, in ROLL's words (@ 8eb27cc):
// the actor_train data-parallel size from device_mapping (roll/configs/worker_config.py WorkerConfig:
// world_size = len(device_mapping) / num_gpus_per_worker, which is forced to 1 for training strategies;
// roll/utils/config_utils.py calculate_megatron_dp_size: DP = GPUs / (TP × PP × CP)), the config asserts
// of base_config.py / rlvr_config.py / rlvr_pipeline.py, and the step counts.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkCount, FrameworkSettings } from '../types.ts';
import { checkBalance } from './dispatch.ts';
import { ROLL_VERSION } from './version.ts';

const says = (text: string, where: string, fix: string) => new ConfigError(`${text} (ROLL ${ROLL_VERSION}, ${where}); ${fix}`);

/** The GPU ids of a device_mapping string ROLL would eval: 'list(range(a, b[, step]))' or '[i, j, …]'. */
export function parseDeviceMapping(text: string): number[] {
  const t = text.replace(/\s+/g, '');
  const range = /^list\(range\((-?\d+)(?:,(-?\d+))?(?:,(-?\d+))?\)\)$/.exec(t);
  if (range) {
    const [a, b, step] = [Number(range[1]), range[2] === undefined ? undefined : Number(range[2]), Number(range[3] ?? 1)];
    const [start, stop] = b === undefined ? [0, a] : [a, b];
    if (step === 0) throw new ConfigError('range() arg 3 must not be zero');
    const out: number[] = [];
    for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
    return out;
  }
  if (/^\[(-?\d+(,-?\d+)*)?,?\]$/.test(t)) return t === '[]' ? [] : t.slice(1, -1).split(',').filter(Boolean).map(Number);
  throw new ConfigError(
    `actor_train.device_mapping ${JSON.stringify(text)}: the sandbox reads only 'list(range(a, b))' or '[0, 1, …]' (ROLL evals any Python expression)`,
  );
}

export interface RollSizes {
  ranks: number;
  prompts: number;
  k: number;
  samples: number;
  perRank: number;
  gpus: number | null;
  how: string;
}

/** actor_train's data-parallel size: from device_mapping (and the Megatron model-parallel sizes) when given, else --ranks. */
export function rollRanks(settings: FrameworkSettings, prompts: number): { ranks: number; gpus: number | null; how: string } {
  const tp = intSetting(settings, 'tensor-model-parallel-size');
  const mapping = settings['device-mapping'];
  const pp = intSetting(settings, 'pipeline-model-parallel-size');
  const cp = intSetting(settings, 'context-parallel-size');
  const strategy = settings['strategy-name'];
  const megatron = typeof strategy === 'string' && strategy.toLowerCase().includes('megatron');
  let ranks: number;
  let gpus: number | null = null;
  let how: string;
  if (typeof mapping === 'string' && mapping !== '') {
    gpus = parseDeviceMapping(mapping).length;
    if (megatron) {
      const mp = tp * pp * cp;
      if (gpus % mp !== 0) {
        throw says(
          `Total GPUs (${gpus}) must be divisible by model parallel size (${mp} = TP:${tp} × PP:${pp} × CP:${cp})`,
          'calculate_megatron_dp_size',
          'change actor_train.device_mapping or the model-parallel sizes',
        );
      }
      ranks = gpus / mp;
      how = `len(device_mapping) ${gpus} / (TP ${tp} × PP ${pp} × CP ${cp}) = ${ranks}`;
      if (ranks > 1 && prompts % ranks !== 0) {
        throw says(
          `Rollout Batch Size (${prompts}) must be divisible by data parallel size (${ranks}) to ensure equal distribution across DP workers.\n` +
            `  Total GPUs: ${gpus}\n  Model Parallelism: TP=${tp} × PP=${pp} × CP=${cp} = ${mp}\n  Data Parallel Size: ${ranks}\n  Rollout Batch ` +
            `Size: ${prompts}`,
          'validate_megatron_batch_size',
          'make rollout_batch_size a multiple of the data-parallel size',
        );
      }
    } else {
      ranks = gpus;
      how = `len(device_mapping) = ${gpus} workers, one data-parallel rank each (non-Megatron strategy; FSDP2 Ulysses not modelled)`;
    }
  } else {
    ranks = intSetting(settings, 'ranks');
    how = `--ranks ${ranks} (no actor_train.device_mapping given)`;
  }
  if (ranks < 1) throw new ConfigError('actor_train needs at least one data-parallel rank');
  return { ranks, gpus, how };
}

/** The data-parallel size and the step sizes, checking what ROLL checks before the first step. */
export function rollSizes(settings: FrameworkSettings): RollSizes {
  const prompts = intSetting(settings, 'train-batch-size');
  const k = intSetting(settings, 'k');
  const maxSteps = intSetting(settings, 'max-steps');
  const datasetSize = intSetting(settings, 'dataset-size');
  const ratio = settings['async-generation-ratio'];
  if (typeof ratio === 'number' && ratio > 0 && ratio < 1) {
    throw says('async_generation_ratio must be >= 1.0', 'RLVRConfig.__post_init__', 'use 0 (synchronous) or at least 1');
  }
  if (typeof ratio === 'number' && ratio >= 1) {
    throw new ConfigError(
      `async_generation_ratio ${ratio}: which prompts a ROLL step trains on then depends on generation timing ` +
        '(ReplayBuffer keeps prompts started up to ceil(ratio) steps earlier); the sandbox simulates only async_generation_ratio 0',
    );
  }
  if (prompts < 1 || k < 1) throw new ConfigError('rollout_batch_size and num_return_sequences_in_group must be at least 1');
  if (datasetSize < 1) throw new ConfigError('--dataset-size must be at least 1');
  const { ranks, gpus, how } = rollRanks(settings, prompts);
  if (maxSteps <= 0) throw says('max_steps must be greater than 0', 'RLVRPipeline.__init__', 'set max_steps to at least 1');
  if (!(prompts < datasetSize)) {
    throw says(
      `domain_batch_size ${prompts} must be less than the number of domain datasets ${datasetSize}`,
      'RLVRPipeline.__init__',
      'use a larger dataset or a smaller rollout_batch_size',
    );
  }
  const samples = prompts * k;
  // batch_balance runs on every step before train_step's make_iterator.
  checkBalance(samples, ranks);
  return { ranks, prompts, k, samples, perRank: samples / ranks, gpus, how };
}

/** make_iterator's assert on each rank's share (the path without dynamic batching). */
export function checkBackwardBatch(settings: FrameworkSettings, perRank: number): number {
  const backward = intSetting(settings, 'per-device-train-batch-size') * intSetting(settings, 'gradient-accumulation-steps');
  if (!boolSetting(settings, 'use-dynamic-batching-in-train') && perRank % backward !== 0) {
    throw says(
      `${perRank} % ${backward} != 0`,
      'DataProto.make_iterator',
      'make per_device_train_batch_size × gradient_accumulation_steps divide the samples per rank',
    );
  }
  return backward;
}

export function rollCounts(settings: FrameworkSettings, sizes: RollSizes, steps: number): FrameworkCount[] {
  const maxSteps = intSetting(settings, 'max-steps');
  const datasetSize = intSetting(settings, 'dataset-size');
  const ppoEpochs = intSetting(settings, 'ppo-epochs');
  const backward = checkBackwardBatch(settings, sizes.perRank);
  const counts: FrameworkCount[] = [
    { name: 'pipeline steps', value: maxSteps, how: `max_steps = ${maxSteps}` },
    {
      name: 'samples per step',
      value: sizes.samples,
      how: `rollout_batch_size ${sizes.prompts} × num_return_sequences_in_group ${sizes.k} = ${sizes.samples}`,
    },
    { name: 'actor_train dp_size', value: sizes.ranks, how: sizes.how },
    { name: 'samples per rank', value: sizes.perRank, how: `${sizes.samples} / dp_size ${sizes.ranks} = ${sizes.perRank}` },
    {
      name: 'dataset passes',
      value: (maxSteps * sizes.prompts) / datasetSize,
      how: `max_steps ${maxSteps} × rollout_batch_size ${sizes.prompts} / ${datasetSize} prompts (the scheduler reshuffles at each pass)`,
    },
    { name: 'steps shown', value: steps, how: `min(max_steps ${maxSteps}, ceil(epochs × ${datasetSize} / ${sizes.prompts}))` },
  ];
  if (!boolSetting(settings, 'use-dynamic-batching-in-train')) {
    const backwardSteps = Math.floor((sizes.perRank * ppoEpochs) / backward);
    counts.push({
      name: 'actor/backward_steps',
      value: backwardSteps,
      how:
        `${sizes.perRank} samples per rank × ppo_epochs ${ppoEpochs} // (per_device_train_batch_size × gradient_accumulation_steps = ${backward}) = ` +
        `${backwardSteps} optimizer steps per pipeline step`,
    });
  }
  const trainMax = Math.max(1, Math.floor((maxSteps * sizes.samples * ppoEpochs) / backward));
  counts.push({
    name: 'actor_train.training_args.max_steps',
    value: trainMax,
    how:
      `PPOConfig.set_max_steps: max(1, ${maxSteps} × ${sizes.samples} × ppo_epochs ${ppoEpochs} // ${backward}) = ${trainMax} (not divided by ` +
      `dp_size; the LR schedule's length)`,
  });
  return counts;
}
