// OpenRLHF's run sizes from its settings, checked the way openrlhf/cli/train_ppo_ray.py's __main__
// checks them (@ 3c3be62), in its order, with its assertion texts and its printed warnings verbatim.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkSettings } from '../types.ts';
import type { Parallel } from './dispatch.ts';
import { VERSION, openrlhfError } from './version.ts';

export interface RunSizes {
  /** Prompts the loader serves: min(dataset size, data.max_samples). */
  prompts: number;
  dataset: number;
  maxSamples: number;
  rolloutBatch: number;
  n: number;
  episodes: number;
  workers: number;
  seed: number;
  parallel: Parallel;
  rolloutMicroBatch: number;
  trainBatchSize: number;
  trainMicroBatch: number;
  maxEpochs: number;
  dynamic: boolean;
  rolloutMaxTokens: number;
  trainMaxTokens: number;
  /** rollout.batch_size × n // train.batch_size: setup_dynamic_batch's expected_num_steps. */
  optimizerStepsPerStep: number;
  estimator: string;
  dynamicFiltering: boolean;
  /** What train_ppo_ray.py prints, verbatim. */
  warnings: string[];
}

const cli = 'openrlhf/cli/train_ppo_ray.py';

function positive(settings: FrameworkSettings, flag: string, key: string): number {
  const v = intSetting(settings, flag);
  if (v < 1) throw new ConfigError(`--${key} must be at least 1, got ${v} (${VERSION})`);
  return v;
}

export function runSizes(settings: FrameworkSettings): RunSizes {
  const rolloutBatch = positive(settings, 'train-batch-size', 'rollout.batch_size');
  const n = positive(settings, 'k', 'rollout.n_samples_per_prompt');
  const nodes = positive(settings, 'actor-num-nodes', 'actor.num_nodes');
  const gpus = positive(settings, 'ranks', 'actor.num_gpus_per_node');
  const ring = positive(settings, 'ring-attn-size', 'ds.ring_attn_size');
  const tp = positive(settings, 'tensor-parallel-size', 'ds.tensor_parallel_size');
  const rolloutMicroBatch = positive(settings, 'rollout-micro-batch-size', 'rollout.micro_batch_size');
  const trainBatchSize = positive(settings, 'train-global-batch-size', 'train.batch_size');
  const trainMicroBatch = positive(settings, 'train-micro-batch-size', 'train.micro_batch_size');
  const maxEpochs = positive(settings, 'max-epochs', 'train.max_epochs');
  const episodes = positive(settings, 'epochs', 'train.num_episodes');
  const dataset = positive(settings, 'dataset-size', 'dataset-size');
  const maxSamples = positive(settings, 'max-samples', 'data.max_samples');
  const workers = intSetting(settings, 'dataloader-num-workers');
  if (workers < 0) throw new ConfigError(`--data.dataloader_num_workers must be 0 or more, got ${workers} (${VERSION})`);
  const seed = intSetting(settings, 'seed');
  const estimator = String(settings['advantage-estimator']);
  const dynamic = boolSetting(settings, 'dynamic-batch-enable');
  const dynamicFiltering = boolSetting(settings, 'dynamic-filtering-enable');
  let packing = boolSetting(settings, 'packing-samples');
  if (boolSetting(settings, 'async-enable')) {
    throw new ConfigError(
      `--train.async_enable runs PPOTrainerAsync (generation up to train.async_queue_size batches ahead), which the sandbox does not model; drop ` +
        `it to see the synchronous PPOTrainer (${VERSION})`,
    );
  }
  if ((nodes * gpus) % (ring * tp) !== 0) {
    throw new ConfigError(
      `actor.num_nodes × actor.num_gpus_per_node = ${nodes * gpus} is not a multiple of ds.ring_attn_size × ds.tensor_parallel_size = ${ring * tp}: ` +
        `DeepSpeed's device mesh (dp, sp, tp) cannot be built (${VERSION})`,
    );
  }
  const warnings: string[] = [];
  if (['rloo', 'reinforce_baseline', 'group_norm', 'dr_grpo'].includes(estimator) && n <= 1) {
    throw openrlhfError('AssertionError', `${estimator} requires n_samples_per_prompt > 1`, cli);
  }
  if (ring > 1 && !packing) {
    warnings.push('[Warning] --ring_attn_size > 1 requires --packing_samples.');
    packing = true;
  }
  const trainMaxTokens = positive(settings, 'train-max-tokens-per-gpu', 'train.max_tokens_per_gpu');
  let rolloutMaxTokens =
    settings['rollout-max-tokens-per-gpu'] === null ? null : positive(settings, 'rollout-max-tokens-per-gpu', 'rollout.max_tokens_per_gpu');
  if (dynamic) {
    if (!packing) warnings.push('[Warning] Please --packing_samples to accelerate when --use_dynamic_batch is enabled.');
    if (rolloutMaxTokens === null) {
      warnings.push('[Warning] Set --rollout_max_tokens_per_gpu to --train_max_tokens_per_gpu.');
      rolloutMaxTokens = trainMaxTokens;
    }
  }
  if (dynamicFiltering && n <= 1) {
    throw openrlhfError('AssertionError', 'n_samples_per_prompt must be greater than 1 when using dynamic filtering', cli);
  }
  const effective = Math.floor(Math.floor((nodes * gpus) / ring) / tp);
  if (Math.floor((n * rolloutBatch) / rolloutMicroBatch) < effective) {
    throw openrlhfError(
      'AssertionError',
      'The number of sample batches must be greater than or equal to the effective number of actor processes.',
      cli,
    );
  }
  if (dynamic && Math.floor(trainBatchSize / effective) === 0) {
    // replay_buffer.py setup_dynamic_batch: len(sample_lengths) // (args.train.batch_size // dp_size)
    throw new ConfigError(
      `${openrlhfError('ZeroDivisionError', 'integer division or modulo by zero', 'NaiveReplayBuffer.setup_dynamic_batch').message}: ` +
        `train.batch_size ${trainBatchSize} // DP ${effective} is 0 samples per rank per optimizer step; set --train.batch_size to at least ${effective}`,
    );
  }
  return {
    prompts: Math.min(dataset, maxSamples),
    dataset,
    maxSamples,
    rolloutBatch,
    n,
    episodes,
    workers,
    seed,
    parallel: { actors: nodes * gpus, duplicate: ring * tp, effective },
    rolloutMicroBatch,
    trainBatchSize,
    trainMicroBatch,
    maxEpochs,
    dynamic,
    rolloutMaxTokens: rolloutMaxTokens ?? trainMaxTokens,
    trainMaxTokens,
    optimizerStepsPerStep: Math.floor((rolloutBatch * n) / trainBatchSize),
    estimator,
    dynamicFiltering,
    warnings,
  };
}
