// slime's settings resolved as its launch does: slime_validate_args (slime/utils/arguments.py @ 624b824),
// then Megatron-LM's validate_args and num-microbatches calculator, which slime runs on the same namespace.
// Errors keep the frameworks' own text; the sandbox's own refusals say so.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkSettings } from '../types.ts';
import type { ScheduleSettings } from './dispatch.ts';
import type { DenseModel } from './flops.ts';
import { MODEL_FLAGS } from './keys.ts';

export const VERSION = '(slime 624b824)';

export interface SlimeRun {
  datasetSize: number;
  rolloutBatchSize: number;
  n: number;
  shuffle: boolean;
  seed: number;
  numRollout: number;
  gpus: number;
  tp: number;
  pp: number;
  cp: number;
  schedule: ScheduleSettings;
  /** What the launch logs (logger.info / Megatron print), verbatim. */
  logs: string[];
  /** How num_rollout, DP and global_batch_size were reached. */
  how: { numRollout: string; dp: string; globalBatchSize: string };
}

const optInt = (s: FrameworkSettings, flag: string): number | null => (s[flag] === null ? null : intSetting(s, flag));

function positive(value: number, flag: string): number {
  if (value < 1) throw new ConfigError(`--${flag} must be at least 1, got ${value}`);
  return value;
}

function denseModel(s: FrameworkSettings): DenseModel {
  const missing = MODEL_FLAGS.filter((f) => s[f] === null);
  if (missing.length)
    throw new ConfigError(
      "--balance-data estimates each sample's FLOPs from the model shape (slime/utils/flops_utils.py); " +
        `set ${missing.map((f) => `--${f}`).join(', ')} as the model script does (sandbox)`,
    );
  const v = (f: (typeof MODEL_FLAGS)[number]) => positive(intSetting(s, f), f);
  return {
    numLayers: v('num-layers'),
    hiddenSize: v('hidden-size'),
    ffnHiddenSize: v('ffn-hidden-size'),
    numAttentionHeads: v('num-attention-heads'),
    numQueryGroups: v('num-query-groups'),
    kvChannels: v('kv-channels'),
    vocabSize: v('vocab-size'),
  };
}

/** The run the settings describe, or the first error slime (or Megatron) would stop at. */
export function resolveRun(s: FrameworkSettings): SlimeRun {
  const logs: string[] = [];
  const rbsValue = optInt(s, 'train-batch-size');
  if (rbsValue === null) throw new ConfigError(`the following arguments are required: --rollout-batch-size ${VERSION}`);
  const rolloutBatchSize = positive(rbsValue, 'rollout-batch-size');
  const n = positive(intSetting(s, 'k'), 'n-samples-per-prompt');
  const dynamic = boolSetting(s, 'use-dynamic-batch-size');
  const maxTokens = optInt(s, 'max-tokens-per-gpu');
  if (dynamic && maxTokens === null) throw new ConfigError(`max_tokens_per_gpu must be set when use_dynamic_batch_size is set ${VERSION}`);
  if (boolSetting(s, 'balance-by-flops')) {
    if (!dynamic) throw new ConfigError(`--balance-by-flops requires --use-dynamic-batch-size ${VERSION}`);
    throw new ConfigError(
      'the sandbox does not simulate --balance-by-flops (Karmarkar–Karp micro-batches of unequal size); drop it to see first-fit micro-batches',
    );
  }
  let globalBatchSize = optInt(s, 'global-batch-size');
  let gbsHow = globalBatchSize === null ? '' : `--global-batch-size ${globalBatchSize}`;
  const stepsPerRollout = optInt(s, 'num-steps-per-rollout');
  if (stepsPerRollout !== null) {
    const derived = Math.floor((rolloutBatchSize * n) / positive(stepsPerRollout, 'num-steps-per-rollout'));
    if (globalBatchSize !== null && globalBatchSize !== derived)
      throw new ConfigError(
        `global_batch_size ${globalBatchSize} is not equal to rollout_batch_size ${rolloutBatchSize} * n_samples_per_prompt ${n} // ` +
          `num_steps_per_rollout ${stepsPerRollout} ${VERSION}`,
      );
    globalBatchSize = derived;
    gbsHow = `rollout_batch_size × n_samples_per_prompt // num_steps_per_rollout = ${rolloutBatchSize} × ${n} // ${stepsPerRollout} = ${derived}`;
  }
  if (n === 1) logs.push('n_samples_per_prompt is set to 1, grpo_std_normalization will be set to False.');
  const numRolloutSet = optInt(s, 'num-rollout');
  const numEpoch = optInt(s, 'epochs');
  if (numEpoch !== null && numRolloutSet !== null) logs.push('Both num_epoch and num_rollout are set, num_epoch will be ignored.');
  if (numEpoch === null && numRolloutSet === null)
    throw new ConfigError(`num_epoch is not set, but num_rollout is not set, please set --num-rollout or --num-epoch ${VERSION}`);

  // Megatron: world size = actor nodes × GPUs per node (megatron_parse_args), DP = world / (TP × PP × CP).
  const nodes = positive(intSetting(s, 'actor-num-nodes'), 'actor-num-nodes');
  const perNode = positive(intSetting(s, 'actor-num-gpus-per-node'), 'actor-num-gpus-per-node');
  const gpus = nodes * perNode;
  const tp = positive(intSetting(s, 'tensor-model-parallel-size'), 'tensor-model-parallel-size');
  const pp = positive(intSetting(s, 'pipeline-model-parallel-size'), 'pipeline-model-parallel-size');
  const cp = positive(intSetting(s, 'context-parallel-size'), 'context-parallel-size');
  if (gpus % (tp * pp * cp) !== 0)
    throw new ConfigError(
      `${gpus} training GPUs (actor-num-nodes ${nodes} × actor-num-gpus-per-node ${perNode}) are not a multiple of TP ${tp} × PP ${pp} × CP ` +
        `${cp}; Megatron refuses it (sandbox wording)`,
    );
  const dpSize = gpus / (tp * pp * cp);
  const microBatchSize = positive(intSetting(s, 'micro-batch-size'), 'micro-batch-size');
  if (globalBatchSize === null) {
    globalBatchSize = microBatchSize * dpSize;
    logs.push(`setting global batch size to ${globalBatchSize}`);
    gbsHow = `unset, so Megatron sets micro_batch_size × data_parallel_size = ${microBatchSize} × ${dpSize} = ${globalBatchSize}`;
  }
  positive(globalBatchSize, 'global-batch-size');
  // Megatron-LM ConstantNumMicroBatchesCalculator (initialize.py init_num_microbatches_calculator), on every path.
  if (globalBatchSize % (microBatchSize * dpSize) !== 0)
    throw new ConfigError(
      `global batch size (${globalBatchSize}) is not divisible by micro batch size (${microBatchSize}) times data parallel size (${dpSize}) ` +
        `(Megatron-LM, run by slime 624b824)`,
    );

  const datasetSize = positive(intSetting(s, 'dataset-size'), 'dataset-size');
  if (rolloutBatchSize > datasetSize)
    throw new ConfigError(
      `--rollout-batch-size ${rolloutBatchSize} is larger than the dataset (${datasetSize} prompts): slime would hand out short rollouts; the ` +
        `sandbox does not simulate that`,
    );
  let numRollout: number;
  let numRolloutHow: string;
  if (numRolloutSet !== null) {
    numRollout = numRolloutSet;
    numRolloutHow = `--num-rollout ${numRollout}`;
  } else {
    const perEpoch = Math.floor(datasetSize / rolloutBatchSize);
    numRollout = perEpoch * (numEpoch as number);
    numRolloutHow = `len(dataset) // rollout_batch_size × num_epoch = ${datasetSize} // ${rolloutBatchSize} × ${numEpoch} = ${numRollout}`;
  }
  if (numRollout < 1)
    throw new ConfigError(`num_rollout must be above 0 (slime asserts args.num_rollout > 0), got ${numRollout} ${VERSION}`);

  const balanceData = boolSetting(s, 'balance-data');
  return {
    datasetSize,
    rolloutBatchSize,
    n,
    shuffle: boolSetting(s, 'shuffle'),
    seed: intSetting(s, 'seed'),
    numRollout,
    gpus,
    tp,
    pp,
    cp,
    schedule: {
      dpSize,
      cpSize: cp,
      globalBatchSize,
      microBatchSize,
      useDynamicBatchSize: dynamic,
      maxTokensPerGpu: maxTokens,
      balanceData,
      model: balanceData ? denseModel(s) : null,
    },
    logs,
    how: {
      numRollout: numRolloutHow,
      dp: `actor-num-nodes × actor-num-gpus-per-node / (TP × PP × CP) = ${nodes} × ${perNode} / (${tp} × ${pp} × ${cp}) = ${dpSize}`,
      globalBatchSize: gbsHow,
    },
  };
}
