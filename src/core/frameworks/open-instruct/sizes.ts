// open-instruct's run sizes from its settings, checked as StreamingDataLoaderConfig.__post_init__
// (data_loader.py) and grpo_fast.validate_configs / setup_runtime_variables check them (@ e6c3044),
// with their texts verbatim.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkSettings } from '../types.ts';
import { VERSION, openInstructError } from './version.ts';

export interface RunSizes {
  prompts: number;
  k: number;
  /** Data-parallel ranks: sum(num_learners_per_node) // sequence_parallel_size. */
  ranks: number;
  learners: number;
  perDevice: number;
  packLength: number;
  numMiniBatches: number;
  numEpochs: number;
  totalEpisodes: number;
  trainingSteps: number;
  datasetSize: number;
  seed: number;
  asyncSteps: number;
  filterZeroStd: boolean;
  warnings: string[];
}

function positive(settings: FrameworkSettings, flag: string, key: string): number {
  const v = intSetting(settings, flag);
  if (v < 1) throw new ConfigError(`--${key} must be at least 1, got ${v} (${VERSION})`);
  return v;
}

export function runSizes(settings: FrameworkSettings): RunSizes {
  const packLength = positive(settings, 'pack-length', 'pack_length');
  const maxPrompt = intSetting(settings, 'max-prompt-token-length');
  const response = intSetting(settings, 'response-length');
  const k = intSetting(settings, 'k');
  const filterZeroStd = boolSetting(settings, 'filter-zero-std-samples');
  const asyncSteps = intSetting(settings, 'async-steps');
  const post = 'StreamingDataLoaderConfig.__post_init__';
  if (!(packLength >= maxPrompt + response)) {
    throw openInstructError(
      'AssertionError',
      'The `pack_length` needs to be greater than the sum of `max_prompt_token_length` and `response_length`!',
      post,
    );
  }
  if (!(k > 0)) throw openInstructError('AssertionError', 'Number of samples per prompt must be greater than 0!', post);
  const warnings: string[] = [];
  if (k === 1) warnings.push('num_samples_per_prompt_rollout is 1. This reduces GRPO to REINFORCE.');
  if (k === 1 && filterZeroStd) {
    throw openInstructError(
      'ValueError',
      '`filter_zero_std_samples` cannot be True when `num_samples_per_prompt_rollout` is 1, as the reward standard deviation will always be 0, ' +
        'causing all samples to be filtered.',
      post,
    );
  }
  if (asyncSteps < 1)
    throw openInstructError('ValueError', '`async_steps` must be greater than 0. Fully synchronous training is not supported.', post);
  const prompts = positive(settings, 'train-batch-size', 'num_unique_prompts_rollout');
  const learners = positive(settings, 'ranks', 'num_learners_per_node');
  const sp = positive(settings, 'sequence-parallel-size', 'sequence_parallel_size');
  if (learners % sp !== 0) {
    throw new ConfigError(
      `num_learners_per_node ${learners} is not a multiple of sequence_parallel_size ${sp}: the learners cannot form whole data-parallel ranks (${VERSION})`,
    );
  }
  const ranks = Math.floor(learners / sp);
  if (!(k * prompts >= ranks)) {
    throw openInstructError(
      'AssertionError',
      'num_samples_per_prompt_rollout * num_unique_prompts_rollout must be greater than or equal to world_size // sequence_parallel_size to ' +
        'ensure we have a batch for each rank in distributed training.',
      'grpo_fast.validate_configs',
    );
  }
  const datasetSize = positive(settings, 'dataset-size', 'dataset-size');
  const epochs = settings.epochs;
  const totalEpisodes =
    epochs === null || epochs === undefined
      ? intSetting(settings, 'total-episodes')
      : positive(settings, 'epochs', 'epochs') * datasetSize * k;
  return {
    prompts,
    k,
    ranks,
    learners,
    perDevice: positive(settings, 'per-device-train-batch-size', 'per_device_train_batch_size'),
    packLength,
    numMiniBatches: positive(settings, 'num-mini-batches', 'num_mini_batches'),
    numEpochs: positive(settings, 'num-epochs', 'num_epochs'),
    totalEpisodes,
    trainingSteps: Math.floor(totalEpisodes / (prompts * k)),
    datasetSize,
    seed: intSetting(settings, 'seed'),
    asyncSteps,
    filterZeroStd,
    warnings,
  };
}
