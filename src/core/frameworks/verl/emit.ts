// verl's `--emit` target: the ppo_trainer.yaml keys equivalent to the sandbox's settings, printed as
// nested YAML (each key also works as a main_ppo `key=value` override).
import { samplerMismatch, v, yaml } from '../../bridge/emit-parts.ts';
import type { Emitted, Emitter, RuleBroken } from '../../bridge/emit-types.ts';
import type { LayoutConfig } from '../../layout/types.ts';
import { VERL_VERSION } from '../../samplers/framework-errors.ts';
import { TORCH_DEFAULT_SEED, verlSizes } from './sampler.ts';
import { verlMaxTokenLen, verlMaxTokenLenText } from './rearrange.ts';

function verl(c: LayoutConfig, ruleBroken: RuleBroken): Emitted {
  const samples = c.ranks * c.batch;
  const divisible = samples % c.k === 0;
  const { trainBatchSize, mini, normalisedMini, micro } = verlSizes(c);
  const prompts = divisible ? trainBatchSize : Math.floor(samples / c.k);
  const workers = c.dataloaderNumWorkers ?? 8;
  const defaultSeed = c.seed === TORCH_DEFAULT_SEED;
  const maxTokenLen = verlMaxTokenLen(c);
  const sp = maxTokenLen.sp;
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
      // Only when set: the emitted config of a run without them stays as it was.
      ...(c.useDynamicBsz
        ? [
            v(
              'actor_rollout_ref.actor.use_dynamic_bsz',
              true,
              '--use-dynamic-bsz true: token-budget micro-batches (rearrange_micro_batches)',
            ),
            v(
              'actor_rollout_ref.actor.ppo_max_token_len_per_gpu',
              maxTokenLen.perGpu,
              sp === 1
                ? `--ppo-max-token-len-per-gpu ${maxTokenLen.perGpu}: tokens per micro-batch`
                : `--ppo-max-token-len-per-gpu ${maxTokenLen.perGpu}: update_policy cuts micro-batches at ${verlMaxTokenLenText(maxTokenLen)} tokens`,
            ),
          ]
        : []),
      // Only when set, as above; the ref worker's own key defaults to the actor's (oc.select in ppo_trainer.yaml).
      ...(sp > 1
        ? [
            v(
              'actor_rollout_ref.actor.ulysses_sequence_parallel_size',
              sp,
              `--ulysses-sequence-parallel-size ${sp}: ${sp} GPUs share each sequence (model.use_remove_padding, true by default, is required)`,
            ),
          ]
        : []),
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
      sp === 1
        ? v('trainer.n_gpus_per_node', c.ranks, `--ranks ${c.ranks}: data-parallel size (no tensor/sequence parallelism)`)
        : v(
            'trainer.n_gpus_per_node',
            c.ranks * sp,
            `--ranks ${c.ranks} × --ulysses-sequence-parallel-size ${sp}: ${c.ranks} data-parallel groups (mesh (dp, sp)) of ${sp} GPUs`,
          ),
      v('trainer.nnodes', 1, sp === 1 ? 'one node of --ranks GPUs' : 'one node of --ranks × S GPUs'),
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

export const emitter: Emitter<'verl'> = { target: 'verl', emit: verl, body: yaml };
