// SkyRL's config checks that concern the batch layout, in the order SkyRL runs them (@ a956457):
// skyrl/train/config/config.py DataLoaderConfig.__post_init__ and SkyRLTrainConfig.__post_init__ (num_workers),
// skyrl/train/utils/utils.py validate_cfg (max_training_steps, KL switches) and validate_batch_sizes.
// Texts verbatim; an assert without a message is quoted as its statement.
import { ConfigError } from '../../errors.ts';
import { lcm } from './dispatch.ts';
import { skyrlSays } from './version.ts';

export interface SkyrlSizes {
  trainBatchSize: number;
  k: number;
  miniBatchSize: number;
  microBatchSize: number;
  workers: number | null;
  persistentWorkers: boolean;
  maxTrainingSteps: number | null;
  policyNodes: number;
  policyGpusPerNode: number;
  policySp: number;
  refNodes: number;
  refGpusPerNode: number;
  refSp: number;
  useKlLoss: boolean;
  useKlInReward: boolean;
}

function fail(type: 'AssertionError' | 'ValueError', text: string): never {
  throw new ConfigError(skyrlSays(`${type}: ${text}`));
}

function check(ok: boolean, text: string): void {
  if (!ok) fail('AssertionError', text);
}

const floorDiv = (a: number, b: number) => Math.floor(a / b);

/** The data-parallel sizes SkyRL derives (fsdp): policy, and the lcm with the ref's when a KL term is on. */
export function dpSizes(s: SkyrlSizes): { policyDp: number; refDp: number | null; lcmDp: number } {
  const policyDp = floorDiv(s.policyNodes * s.policyGpusPerNode, s.policySp);
  const useRef = s.useKlLoss || s.useKlInReward;
  const refDp = useRef ? floorDiv(s.refNodes * s.refGpusPerNode, s.refSp) : null;
  return { policyDp, refDp, lcmDp: refDp === null ? policyDp : lcm(policyDp, refDp) };
}

/** Throws SkyRL's error for these settings, if it raises one; returns the resolved worker count. */
export function checkSkyrl(s: SkyrlSizes): number {
  if (s.workers !== null && s.workers < 0) fail('ValueError', `data.dataloader.num_workers must be None or >= 0, got ${s.workers}.`);
  const workers = s.workers ?? 8;
  if (s.persistentWorkers && workers === 0) {
    fail('ValueError', 'data.dataloader.persistent_workers requires num_workers > 0, but it was set explicitly to 0.');
  }
  if (s.maxTrainingSteps !== null && s.maxTrainingSteps <= 0) {
    fail('ValueError', `max_training_steps must be > 0, got ${s.maxTrainingSteps}`);
  }
  check(!(s.useKlInReward && s.useKlLoss), 'use_kl_in_reward and use_kl_loss should be mutually exclusive');

  // validate_batch_sizes
  const { trainBatchSize: tbs, k, miniBatchSize: mini, microBatchSize: micro } = s;
  check(tbs >= mini, 'assert cfg.trainer.train_batch_size >= cfg.trainer.policy_mini_batch_size');
  check(mini > 0, 'policy_mini_batch_size must be greater than 0');
  check(micro > 0, 'micro_train_batch_size_per_gpu must be greater than 0');
  const { policyDp, refDp, lcmDp } = dpSizes(s);
  if (policyDp < 1 || (refDp !== null && refDp < 1)) {
    throw new ConfigError(
      skyrlSays(
        `ZeroDivisionError: a data-parallel size of 0 (policy ${s.policyNodes} × ${s.policyGpusPerNode} // sequence_parallel_size ${s.policySp}` +
          (refDp === null ? ')' : `, ref ${s.refNodes} × ${s.refGpusPerNode} // ${s.refSp})`) +
          '; give each model at least as many GPUs as its sequence_parallel_size',
      ),
    );
  }
  check(tbs % mini === 0, `train_batch_size ${tbs} should be divisible by policy_mini_batch_size ${mini}`);
  const miniPerGpu = floorDiv(mini * k, policyDp);
  check(
    miniPerGpu > 0,
    `Invalid policy_mini_batch_size_per_gpu: ${miniPerGpu}. mini_batch_size=${mini}, n_samples_per_prompt=${k}, dp_size=${policyDp}`,
  );
  check(
    miniPerGpu % micro === 0,
    `normalized policy_mini_batch_size_per_gpu ${miniPerGpu} should be divisible by micro_train_batch_size_per_gpu ${micro}`,
  );
  check(
    floorDiv(miniPerGpu, micro) > 0,
    `normalized policy_mini_batch_size_per_gpu ${miniPerGpu} should be larger than micro_train_batch_size_per_gpu ${micro}`,
  );
  const trainPerGpu = floorDiv(tbs * k, policyDp);
  check(
    trainPerGpu % miniPerGpu === 0,
    `normalized policy_train_batch_size_per_gpu (train_batch_size * n_samples_per_prompt // policy_dp_size) ${trainPerGpu} ` +
      `should be divisible by policy_mini_batch_size_per_gpu (policy_mini_batch_size * n_samples_per_prompt // policy_dp_size) ${miniPerGpu}`,
  );
  check(
    tbs * k >= lcmDp,
    `train_batch_size * n_samples_per_prompt (${tbs * k}) should be larger than or equal to the least common multiple of the data ` +
      `parallel sizes of the enabled models: policy_dp_size=${policyDp}, ref_dp_size=${refDp ?? 'None'}, lcm_dp_size=${lcmDp}`,
  );
  return workers;
}

/** compute_prompt_mini_batch_boundaries' assert, hit at the first step when _remove_tail_data dropped prompts. */
export function trimmedBatchError(tbs: number, kept: number, k: number, lcmDp: number): ConfigError {
  return new ConfigError(
    skyrlSays(
      'AssertionError: assert num_prompts == train_batch_size and len(seen_uids) == train_batch_size ' +
        `(compute_prompt_mini_batch_boundaries, first training step: _remove_tail_data kept ${kept} of ${tbs} prompts so that ` +
        `prompts × n_samples_per_prompt ${k} divides by lcm_dp_size ${lcmDp}; make train_batch_size × n_samples_per_prompt a multiple of ${lcmDp})`,
    ),
  );
}
