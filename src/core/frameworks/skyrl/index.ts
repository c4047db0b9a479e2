// NovaSky SkyRL's synchronous trainer (NovaSky-AI/SkyRL @ a956457, skyrl/train/trainer.py RayPPOTrainer): a seeded
// StatefulDataLoader of train_batch_size prompts, k contiguous copies per prompt, mini-batches of
// policy_mini_batch_size prompts each cut into equal contiguous pieces over the policy's data-parallel ranks.
import { ConfigError } from '../../errors.ts';
import { intSetting, ranksKey } from '../settings.ts';
import type { FrameworkHome, FrameworkLayout, FrameworkSettings, FrameworkStep } from '../types.ts';
import { oneStepBase } from '../one-step.ts';
import { SKYRL_ADVANTAGES } from './advantages.ts';
import { checkSkyrl, dpSizes, trimmedBatchError } from './checks.ts';
import { skyrlCounts } from './counts.ts';
import { keptPrompts, skyrlDispatch } from './dispatch.ts';
import { SKYRL_KEYS } from './keys.ts';
import { SkyrlPromptOrder, stepsPerEpoch } from './order.ts';
import { SKYRL_PACKER } from './packing.ts';
import { presets } from './presets.ts';
import { ranked, sizesOf } from './sizes.ts';
import { SKYRL_COMMIT, SKYRL_VERSION, skyrlSays } from './version.ts';
import { trainer } from './trainer.ts';
import { cappedSteps, countSetting } from '../budget.ts';

function nonNegative(settings: FrameworkSettings, flag: string): number {
  const v = intSetting(settings, flag);
  if (v < 0) throw new ConfigError(`--${flag} must be 0 or more, got ${v}`);
  return v;
}

function layout(given: FrameworkSettings, seqlens?: readonly number[]): FrameworkLayout {
  const settings = ranked(given);
  const s = sizesOf(settings);
  const strategy = String(settings.strategy);
  if (strategy === 'megatron') {
    throw new ConfigError(
      skyrlSays(
        "trainer.strategy megatron: the policy's data-parallel size is world ÷ (tp × pp × cp), which the sandbox does not model; " +
          'use fsdp and give trainer.placement.policy_num_gpus_per_node the data-parallel size',
      ),
    );
  }
  const warnings =
    strategy === 'fsdp2' ? ["DeprecationWarning: trainer.strategy='fsdp2' has been renamed to 'fsdp'; use 'fsdp' instead."] : [];
  const workers = checkSkyrl(s);
  const dp = dpSizes(s);
  const datasetSize = nonNegative(settings, 'dataset-size');
  const epochs = nonNegative(settings, 'epochs');
  const updateEpochs = intSetting(settings, 'update-epochs-per-batch');
  const maxTokens = intSetting(settings, 'max-tokens-per-microbatch');
  const counts = skyrlCounts(s, datasetSize, epochs, updateEpochs, dp, maxTokens);
  const perEpoch = stepsPerEpoch(datasetSize, s.trainBatchSize);
  const total = counts.find((c) => c.name === 'total_training_steps')!.value;
  const samples = s.trainBatchSize * s.k;
  if (seqlens && seqlens.length < total * samples) {
    throw new ConfigError(`${seqlens.length} token counts given; ${total} steps × ${samples} samples need ${total * samples}`);
  }
  const kept = keptPrompts(s.trainBatchSize, s.k, dp.lcmDp);
  if (total > 0 && kept !== s.trainBatchSize) throw trimmedBatchError(s.trainBatchSize, kept, s.k, dp.lcmDp);

  const order = new SkyrlPromptOrder({ seed: intSetting(settings, 'seed'), datasetSize, workers, persistentWorkers: s.persistentWorkers });
  const dispatch = skyrlDispatch(s.trainBatchSize, s.k, s.miniBatchSize, dp.policyDp);
  const steps: FrameworkStep[] = [];
  for (let epoch = 0; epoch < epochs && steps.length < total; epoch++) {
    const perm = order.nextEpoch();
    for (let step = 0; step < perEpoch && steps.length < total; step++) {
      const prompts = Array.from(perm.subarray(step * s.trainBatchSize, (step + 1) * s.trainBatchSize));
      const ranks = dispatch.sources.map((src) => src.map((i) => prompts[Math.floor(i / s.k)]!));
      const out: FrameworkStep = { epoch, step, prompts, ranks, sources: dispatch.sources.map((src) => [...src]) };
      if (seqlens) out.seqlens = seqlens.slice(steps.length * samples, (steps.length + 1) * samples);
      steps.push(out);
    }
  }

  const padded = dispatch.padding.flat().reduce((a, b) => a + b, 0);
  const miniSamples = s.miniBatchSize * s.k;
  const piece = Math.ceil(miniSamples / dp.policyDp);
  const notes = [
    `Prompt order: one torch.Generator seeded with trainer.seed feeds the RandomSampler (randperm of ${datasetSize}) and the loader ` +
      (workers === 0
        ? 'iterator; with num_workers 0 each epoch draws its permutation, then a base seed.'
        : `iterator; with num_workers ${workers} each epoch draws a base seed, a permutation the workers never use, then the ` +
          `permutation it uses${s.persistentWorkers ? ' (persistent workers: after the first epoch only the permutation)' : ''}.`),
    `${s.trainBatchSize} prompts per step (drop_last=True); each prompt's ${s.k} samples sit next to each other and share its uid ` +
      '(str of the dataset index), which is the advantage group.',
    `Dispatch: each mini-batch of ${s.miniBatchSize} prompts (${miniSamples} samples) is cut on its own into ${dp.policyDp} equal ` +
      `contiguous pieces of ${piece}, piece r to rank r; a rank trains its pieces mini-batch after mini-batch.` +
      (piece % s.k === 0 && miniSamples % dp.policyDp === 0
        ? ` A piece holds whole prompts (${piece / s.k} each), so a prompt's copies stay on one rank.`
        : " Piece boundaries fall inside prompts, so some prompts' copies are split between ranks."),
    padded > 0
      ? `stage_chunks pads each mini-batch to a multiple of ${dp.policyDp} with ${padded / dispatch.padding[0]!.length} dummy sample(s) ` +
        "(copies of its first sample with loss_mask 0) at the end of the last ranks' pieces; they are not listed."
      : 'No dummy samples: each mini-batch divides evenly over the ranks.',
    'Advantages are computed on the whole step before dispatch; loss_reduction token_mean then divides every advantage by the ' +
      "mini-batch's loss-mask token count over all ranks (RayPPOTrainer._normalize_advantages), so the loss is a token mean per optimizer step.",
    seqlens
      ? `Token counts: the ${seqlens.length} given, in generation order; SkyRL's dispatch does not depend on them.`
      : "SkyRL's dispatch does not depend on token counts (none are drawn).",
  ];
  if (settings['dataloader-num-workers'] === null) notes.push('data.dataloader.num_workers is None, which SkyRLTrainConfig makes 8.');
  return { steps, counts, notes, warnings };
}

export const home: FrameworkHome = {
  name: 'skyrl',
  // trainer.max_training_steps stops the run early.
  plannedLayout: (s, generic) =>
    cappedSteps(
      {
        ...generic,
        passes: countSetting(s, 'update-epochs-per-batch') ?? 1,
        lower: '--dataset-size, --epochs, --k or --max-training-steps',
      },
      countSetting(s, 'max-training-steps'),
    ),
  title: 'NovaSky SkyRL',
  pinned: {
    repo: 'NovaSky-AI/SkyRL',
    commit: SKYRL_COMMIT,
    date: '2026-08-21',
    files: [
      'skyrl/train/trainer.py',
      'skyrl/train/utils/trainer_utils.py',
      'skyrl/train/utils/utils.py',
      'skyrl/train/config/config.py',
      'skyrl/train/generators/utils.py',
      'skyrl/train/dataset/dataset.py',
      'skyrl/train/dataset/preprocess.py',
      'skyrl/train/dataset/bin_packing.py',
      'skyrl/backends/skyrl_train/distributed/dispatch.py',
      'skyrl/backends/skyrl_train/training_batch.py',
      'skyrl/backends/skyrl_train/workers/worker_utils.py',
      'skyrl/backends/skyrl_train/utils/ppo_utils.py',
    ],
  },
  configFormat: 'yaml',
  keys: [ranksKey('trainer.placement.policy_num_nodes × policy_num_gpus_per_node // trainer.policy.sequence_parallel_size'), ...SKYRL_KEYS],
  resolve: ranked,
  layout,
  advantages: SKYRL_ADVANTAGES,
  packing: SKYRL_PACKER,
  trainer,
  oneStep: oneStepBase,
  presets,
  checkedBy: [
    `test/fixtures/golden-skyrl-layout.json (exec, SkyRL ${SKYRL_VERSION}): build_dataloader's real StatefulDataLoader over 6 seeds × ` +
      'workers 0/1/2/8 (fresh and persistent) × dataset sizes × epochs; _remove_tail_data, prepare_generator_input, ' +
      'compute_prompt_mini_batch_boundaries and MeshDispatch.stage_chunks over ranks 1-8, k 1-8, sequence parallel, ref dp; ' +
      "validate_batch_sizes' and the config checks' errors; transcribed: the epoch loop and its max_training_steps stop, the dp sizes",
    `test/fixtures/golden-skyrl-advantages.json (exec, SkyRL ${SKYRL_VERSION}): compute_grpo_outcome_advantage (grpo_norm_by_std on/off) ` +
      'and compute_rloo_outcome_advantage with real torch on float32 rewards, 96 batches',
    `test/fixtures/golden-skyrl-packing.json (exec, SkyRL ${SKYRL_VERSION}): stage_chunks then get_microbatch_iterator (sample-based and ` +
      "token-based with bin_packing's balanced packer) on 100 mini-batches; transcribed: the all_reduce(MAX) of micro-batch counts",
  ],
};
