// EasyR1's own refusals (b44b311), in the order a run meets them, with its text verbatim:
// create_dataloader's `assert len(train_dataloader) >= 1`, RayPPOTrainer.__init__'s ValueErrors,
// FSDPWorker._init_dist_mesh's global-batch checks and _build_rollout's tensor-parallel check. Checked
// against the exec'd code in test/fixtures/golden-easyr1-layout.json. Plus the sandbox's own refusals for
// what it does not simulate.
import { ConfigError } from '../../errors.ts';
import { EASYR1_VERSION } from './dispatch.ts';

export interface Sizes {
  datasetSize: number;
  ranks: number;
  prompts: number;
  miniRollout: number | null;
  k: number;
  globalBatch: number;
  microUpdate: number;
  microExperience: number;
  tensorParallel: number;
  ulysses: number;
  advEstimator: string;
  onlineFiltering: boolean;
}

const says = (type: string, message: string, where: string) => new ConfigError(`${type}: ${message} (${where}, ${EASYR1_VERSION})`);

/** The sandbox's limits: what it cannot simulate, and how to get something it can. */
export function checkSimulable(s: Sizes): void {
  for (const [flag, v] of [
    ['n-gpus-per-node × nnodes', s.ranks],
    ['train-batch-size', s.prompts],
    ['k', s.k],
    ['global-batch-size', s.globalBatch],
    ['micro-batch-size-per-device-for-update', s.microUpdate],
    ['micro-batch-size-per-device-for-experience', s.microExperience],
    ['tensor-parallel-size', s.tensorParallel],
  ] as const) {
    if (v < 1) throw new ConfigError(`--${flag} must be at least 1, got ${v}`);
  }
  if (s.miniRollout !== null && s.miniRollout < 1)
    throw new ConfigError(`--mini-rollout-batch-size must be at least 1 or unset, got ${s.miniRollout}`);
  if (s.datasetSize < 0) throw new ConfigError(`--dataset-size must not be negative, got ${s.datasetSize}`);
  if (s.onlineFiltering) {
    throw new ConfigError(
      'algorithm.online_filtering keeps or drops each uid by its rewards, which the layout does not have; set it to false to see the unfiltered layout',
    );
  }
  if (s.ulysses !== 1) {
    throw new ConfigError(
      'worker.actor.ulysses_size > 1 regroups samples inside each sequence-parallel group; the sandbox models ulysses_size 1',
    );
  }
  if (s.advEstimator === 'gae') {
    throw new ConfigError(
      'algorithm.adv_estimator gae adds a critic with its own batch checks, which the sandbox does not model; use grpo, rloo or another critic-free estimator',
    );
  }
}

/** create_dataloader's assertion on the training loader. */
export function checkLoader(batchesPerEpoch: number): void {
  if (batchesPerEpoch < 1)
    throw says('AssertionError', 'assert len(train_dataloader) >= 1', 'verl/trainer/data_loader.py create_dataloader');
}

/** RayPPOTrainer.__init__ (verl/trainer/ray_trainer.py). */
export function checkTrainer(s: Sizes): void {
  const where = 'verl/trainer/ray_trainer.py RayPPOTrainer.__init__';
  if (s.prompts % s.globalBatch !== 0) throw says('ValueError', 'Rollout batch size must be divisible by actor global batch size.', where);
  if ((s.prompts * s.k) % s.microExperience !== 0) {
    throw says('ValueError', 'Rollout batch size * rollout.n must be divisible by actor micro batch size for experience.', where);
  }
  if ((s.advEstimator === 'grpo' || s.advEstimator === 'rloo') && s.k === 1) {
    throw says('ValueError', 'GRPO and RLOO algorithm need `config.worker.rollout.n > 1`.', where);
  }
}

/** The actor's global batch per device: global_batch_size × n (when n > 1) // (world size // ulysses_size). */
export function globalBatchPerDevice(s: Sizes): number {
  const global = s.k > 1 ? s.globalBatch * s.k : s.globalBatch;
  return Math.floor(global / Math.floor(s.ranks / s.ulysses));
}

/** FSDPWorker._init_dist_mesh for the actor, then _build_rollout (verl/workers/fsdp_workers.py). */
export function checkWorkers(s: Sizes): void {
  const perDevice = globalBatchPerDevice(s);
  const where = 'verl/workers/fsdp_workers.py FSDPWorker._init_dist_mesh';
  if (perDevice === 0) throw says('ValueError', 'actor global batch size * ulysses size must be larger than num gpus.', where);
  if (perDevice % s.microUpdate !== 0)
    throw says('ValueError', 'actor global batch size per device must be divisible by the micro batch size.', where);
  if (s.ranks % s.tensorParallel !== 0) {
    throw says(
      'ValueError',
      `rollout world size ${s.ranks} is not divisible by tp size ${s.tensorParallel}.`,
      'verl/workers/fsdp_workers.py FSDPWorker._build_rollout',
    );
  }
}

/** _make_batch_data's give-up once a step has pulled max_try_make_batch loader batches and is still short. */
export function tooManyTries(tries: number, maxTry: number): ConfigError {
  return says(
    'RuntimeError',
    `num_try_make_batch=${tries} >= max_try_make_batch=${maxTry}. Generated too many. Please check your data.`,
    'verl/trainer/ray_trainer.py RayPPOTrainer._make_batch_data',
  );
}
