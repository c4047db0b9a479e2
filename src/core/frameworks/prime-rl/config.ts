// prime-rl's config checks that the layout depends on, in its own words
// (packages/prime-rl-configs/src/prime_rl/configs/orchestrator.py: OrchestratorConfig.resolve_batching,
// rl.py: auto_setup_deployment; orchestrator/curriculum/samplers/standard.py), resolved into the numbers
// the layout uses.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkSettings } from '../types.ts';
import { PRIME_RL_VERSION } from './version.ts';

/** concurrency.max_inflight's shipped default (the sandbox does not model concurrency). */
const MAX_INFLIGHT = 1024;

export interface PrimeRlConfig {
  k: number;
  /** Traces per step, or null with token batching. */
  batchSize: number | null;
  tokenBatchSize: number | null;
  /** Trainer data-parallel ranks (orchestrator.num_train_workers after the rl entrypoint). */
  ranks: number;
  /** orchestrator.pad_to_multiple_of, which the rl entrypoint sets to trainer.model.cp. */
  padToMultipleOf: number;
  seqLen: number;
  maxSteps: number | null;
  datasetSize: number;
  epochs: number;
  seed: number;
  filterZeroAdvantages: boolean;
  maxOffPolicySteps: number;
}

const says = (text: string) => new ConfigError(`${text} ${PRIME_RL_VERSION}`);

/** pydantic's Field(ge=1) refusal. */
function atLeastOne(key: string, value: number): void {
  if (value < 1) throw says(`${key}: Input should be greater than or equal to 1 (got ${value})`);
}

const optionalInt = (s: FrameworkSettings, flag: string) => (s[flag] === null ? null : intSetting(s, flag));

export function resolveConfig(s: FrameworkSettings): PrimeRlConfig {
  const k = intSetting(s, 'k');
  atLeastOne('orchestrator.group_size', k);
  let batchSize = optionalInt(s, 'train-batch-size');
  const tokenBatchSize = optionalInt(s, 'token-batch-size');
  if (batchSize !== null) atLeastOne('orchestrator.batch_size', batchSize);
  if (tokenBatchSize !== null) atLeastOne('orchestrator.token_batch_size', tokenBatchSize);
  if (batchSize !== null && tokenBatchSize !== null) throw says('Set exactly one of batch_size or token_batch_size');
  if (batchSize === null && tokenBatchSize === null) batchSize = 128;
  if (batchSize !== null && batchSize % k !== 0) throw says('Batch size must be divisible by the number of samples per problem');
  if (MAX_INFLIGHT < k) throw says('concurrency.max_inflight must be at least the number of rollouts per example');

  const cp = intSetting(s, 'cp');
  atLeastOne('trainer.model.cp', cp);
  const gpus = intSetting(s, 'num-train-gpus');
  atLeastOne('deployment.num_train_gpus', gpus);
  const workers = intSetting(s, 'ranks');
  atLeastOne('orchestrator.num_train_workers', workers);
  // rl.py auto_setup_deployment (single node): num_train_workers = num_train_gpus // cp when num_train_gpus > 1.
  const ranks = gpus > 1 ? Math.floor(gpus / cp) : workers;
  if (ranks < 1) {
    throw new ConfigError(
      `deployment.num_train_gpus // trainer.model.cp = ${gpus} // ${cp} = 0 trainer ranks; use at least cp GPUs ${PRIME_RL_VERSION}`,
    );
  }
  const seqLen = intSetting(s, 'seq-len');
  if (seqLen < 1) throw new ConfigError(`orchestrator.seq_len must be at least 1, got ${seqLen}`);
  const maxSteps = optionalInt(s, 'max-steps');
  if (maxSteps !== null && maxSteps < 0) throw new ConfigError(`max_steps must be at least 0, got ${maxSteps}`);
  const datasetSize = intSetting(s, 'dataset-size');
  // StandardSampler on an empty finite taskset.
  if (datasetSize < 1) throw says('A finite curriculum needs at least one task');
  const epochs = intSetting(s, 'epochs');
  if (epochs < 1) throw new ConfigError(`--epochs must be at least 1, got ${epochs}`);
  return {
    k,
    batchSize,
    tokenBatchSize,
    ranks,
    padToMultipleOf: cp,
    seqLen,
    maxSteps,
    datasetSize,
    epochs,
    seed: intSetting(s, 'seed'),
    filterZeroAdvantages: boolSetting(s, 'filter-zero-advantages'),
    maxOffPolicySteps: intSetting(s, 'max-off-policy-steps'),
  };
}
