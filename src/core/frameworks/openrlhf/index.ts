// OpenRLHF's data path at 3c3be62: prompt order (order.ts), dispatch of each training step to the
// data-parallel ranks (dispatch.ts), token-budget micro-batches (packing.ts), reward shaping of the group
// estimators (advantages.ts), settings (keys.ts, sizes.ts). One FrameworkStep is one PPOTrainer.fit
// training step (one generate_samples call): rollout.batch_size prompts × n samples, trained on in
// rollout.batch_size × n / train.batch_size optimizer steps before the next generation.
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import type { FrameworkCount, FrameworkHome, FrameworkLayout, FrameworkSettings, FrameworkStep } from '../types.ts';
import { oneStepBase } from '../one-step.ts';
import { advantages } from './advantages.ts';
import { dispatchStep } from './dispatch.ts';
import { keys } from './keys.ts';
import { promptSteps, samplerSeed } from './order.ts';
import { dynamicMicroBatches, packing } from './packing.ts';
import { type RunSizes, runSizes } from './sizes.ts';
import { COMMIT } from './version.ts';
import { presets } from './presets.ts';
import { OPENRLHF_TRAINER } from './trainer.ts';
import { countSetting, genericPlannedLayout } from '../budget.ts';

function counts(s: RunSizes, steps: FrameworkStep[]): FrameworkCount[] {
  const first = steps[0];
  const dynamicMicro =
    s.dynamic && first?.seqlens
      ? dynamicMicroBatches(first.sources, first.seqlens, s.parallel, {
          trainBatchSize: s.trainBatchSize,
          expectedSteps: s.optimizerStepsPerStep,
          trainMaxTokens: s.trainMaxTokens,
        }).microBatchesPerRank
      : 0;
  const perEpisode = Math.ceil(s.prompts / s.rolloutBatch);
  const samples = s.rolloutBatch * s.n;
  const gas = Math.floor((s.trainBatchSize * s.parallel.duplicate) / s.trainMicroBatch / s.parallel.actors);
  const firstRank = steps[0]?.ranks[0]?.length ?? 0;
  return [
    {
      name: 'len(prompts_dataloader)',
      value: s.prompts,
      how:
        `batch_size 1, so one entry per prompt: min(dataset ${s.dataset}, data.max_samples ${s.maxSamples}) = ${s.prompts}; the "Episode" progress ` +
        `bar counts prompts, not steps`,
    },
    {
      name: 'global steps per episode',
      value: perEpisode,
      how:
        `ceil(${s.prompts} prompts / rollout.batch_size ${s.rolloutBatch}) = ${perEpisode} (a short last step is trained too); × train.num_episodes ` +
        `${s.episodes} = ${perEpisode * s.episodes}`,
    },
    {
      name: 'max_steps',
      value: Math.floor((s.prompts * s.n) / s.trainBatchSize) * s.episodes * s.maxEpochs,
      how:
        `prepare_datasets: len(prompts_dataset) ${s.prompts} × n_samples_per_prompt ${s.n} // train.batch_size ${s.trainBatchSize} × num_episodes ` +
        `${s.episodes} × max_epochs ${s.maxEpochs}: the LR scheduler's length in optimizer steps`,
    },
    {
      name: 'samples per training step',
      value: samples,
      how: `rollout.batch_size ${s.rolloutBatch} × n_samples_per_prompt ${s.n}`,
    },
    {
      name: 'effective actors (data-parallel ranks)',
      value: s.parallel.effective,
      how: `actor nodes × GPUs per node ${s.parallel.actors} // ring_attn_size × tensor_parallel_size ${s.parallel.duplicate}`,
    },
    {
      name: 'optimizer steps per training step',
      value: s.optimizerStepsPerStep * s.maxEpochs,
      how: `${samples} samples // train.batch_size ${s.trainBatchSize} = ${s.optimizerStepsPerStep}, × train.max_epochs ${s.maxEpochs}`,
    },
    {
      name: 'accumulated_gradient',
      value: gas,
      how:
        `train.batch_size ${s.trainBatchSize} × ring × TP ${s.parallel.duplicate} // train.micro_batch_size ${s.trainMicroBatch} // world size ` +
        `${s.parallel.actors} (DeepSpeed's gradient accumulation)`,
    },
    {
      name: 'Train epoch micro-batches (rank 0, first step)',
      value: s.dynamic ? dynamicMicro : Math.floor(firstRank / s.trainMicroBatch),
      how: s.dynamic
        ? "dynamic batching: setup_dynamic_batch's micro-batches, the maximum first-fit count over ranks per optimizer step, summed"
        : `len(DataLoader(replay_buffer, batch_size=train.micro_batch_size, drop_last=True)) = ${firstRank} samples // ${s.trainMicroBatch}: the ` +
          `actor's "Train epoch" progress bar`,
    },
  ];
}

function layout(settings: FrameworkSettings, seqlens?: readonly number[]): FrameworkLayout {
  const s = runSizes(settings);
  const promptList = promptSteps(s.prompts, s.rolloutBatch, s.episodes, s.workers, s.seed);
  const total = promptList.reduce((a, p) => a + p.prompts.length * s.n, 0);
  if (seqlens && seqlens.length < total) {
    throw new ConfigError(
      `${seqlens.length} token counts given, but the run has ${total} samples (${promptList.length} steps); give more, or lower --dataset-size / ` +
        `--train.num_episodes`,
    );
  }
  const lengthsGen = new Mt19937(s.seed);
  let used = 0;
  const steps: FrameworkStep[] = [];
  const emptyRanks = new Set<number>();
  for (const p of promptList) {
    const count = p.prompts.length * s.n;
    const lengths = seqlens
      ? seqlens.slice(used, used + count)
      : s.dynamic
        ? Array.from(randint(lengthsGen, SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, count))
        : null;
    used += count;
    let dispatched: ReturnType<typeof dispatchStep>;
    try {
      dispatched = dispatchStep(lengths ?? new Array<number>(count).fill(1), s.parallel, {
        dynamic: s.dynamic,
        microBatchSize: s.rolloutMicroBatch,
        rolloutMaxTokens: s.rolloutMaxTokens,
      });
    } catch (e) {
      if (e instanceof ConfigError) {
        throw new ConfigError(
          `${e.message} — at episode ${p.episode + 1}, step ${p.step + 1}, which has ${p.prompts.length} prompts × ${s.n} samples`,
        );
      }
      throw e;
    }
    dispatched.ranks.forEach((r, i) => r.length === 0 && emptyRanks.add(i));
    steps.push({
      epoch: p.episode,
      step: p.step,
      prompts: p.prompts,
      ranks: dispatched.ranks.map((r) => r.map((pos) => p.prompts[Math.floor(pos / s.n)]!)),
      sources: dispatched.ranks,
      ...(lengths ? { seqlens: lengths } : {}),
    });
  }
  const tail = s.prompts % s.rolloutBatch;
  const notes = [
    `The prompt loader is never seeded: it lives on the PPOTrainer Ray actor, where no set_seed runs, and its RandomSampler takes its seed from ` +
      `that process's global torch generator, which recent torch (2.13, measured) seeds differently in every process. A real run's prompt order is ` +
      `therefore not reproducible and does not depend on --train.seed; the sandbox shows the order as if torch.manual_seed(${s.seed}) had run there ` +
      `(sampler seed ${samplerSeed(s.seed)}).`,
    s.workers > 0
      ? `With ${s.workers} persistent loader worker(s) the first permutation drawn is thrown away: episode e uses the sampler's permutation e + 1.`
      : 'Each episode iterates the loader anew and takes the next permutation of the same sampler generator.',
    `Each prompt is one vLLM request returning its ${s.n} responses together, so a prompt's copies stay next to each other. The groups arrive in ` +
      `completion order (ray.wait), which varies from run to run; the sandbox shows the deterministic case where they complete in the order they ` +
      `were sent.`,
    tail
      ? `The last step of each episode has ${tail} prompts (${s.prompts} is not a multiple of rollout.batch_size ${s.rolloutBatch}); it is trained ` +
        `on like the others.`
      : `${s.prompts} prompts make whole steps of ${s.rolloutBatch}.`,
    s.dynamic
      ? 'Dynamic batching: the step is split into balanced rollout micro-batches by total length, then balance_experiences sorts all samples by ' +
        'length and deals them long/short over the ranks, so copies of a prompt scatter.'
      : `Samples are cut into rollout micro-batches of ${s.rolloutMicroBatch}; rank i gets the contiguous run of micro-batches [i·ceil(L/E), ` +
        `(i+1)·ceil(L/E)), so the last ranks can get fewer (or none).`,
    ...(emptyRanks.size
      ? [
          `Rank(s) ${[...emptyRanks].join(', ')} receive no samples in some step: ceil(L/E) micro-batches per rank run out before the last rank.`,
        ]
      : []),
    s.dynamic
      ? 'Each rank trains its samples in the order listed, in micro-batches set by --train.max_tokens_per_gpu (see the packer).'
      : `Each rank then reads its samples in micro-batches of ${s.trainMicroBatch} through DataLoader(shuffle=True) on its own torch generator ` +
        `(set_seed(${s.seed}) then model setup draws): that order is not reproduced; the ranks list the replay buffer's order.`,
    `Each training step runs ${s.rolloutBatch} × ${s.n} = ${s.rolloutBatch * s.n} samples in optimizer steps of train.batch_size ` +
      `${s.trainBatchSize}: ${s.optimizerStepsPerStep} optimizer step(s) per training step${s.maxEpochs > 1 ? `, × max_epochs ${s.maxEpochs}` : ''}.`,
    ...(s.dynamicFiltering
      ? [
          'Dynamic filtering is on: the sandbox shows the case where every group passes (a rejected group is replaced by one new prompt from the loader).',
        ]
      : []),
    ...(s.dynamic && !seqlens
      ? [
          `Token counts are synthetic: torch.randint(${SYNTHETIC_SEQLEN.low}, ${SYNTHETIC_SEQLEN.high}) from a generator seeded with ${s.seed}, ` +
            `one draw per step.`,
        ]
      : []),
  ];
  return { steps, counts: counts(s, steps), notes, warnings: s.warnings };
}

export const home: FrameworkHome = {
  name: 'openrlhf',
  // data.max_samples keeps the first max_samples prompts of the dataset; an epoch's last, short batch is trained on.
  plannedLayout(s) {
    const prompts = Math.min(countSetting(s, 'dataset-size') ?? 0, countSetting(s, 'max-samples') ?? Number.POSITIVE_INFINITY);
    const { steps } = genericPlannedLayout(s, prompts);
    const samples = (countSetting(s, 'epochs') ?? 1) * prompts * (countSetting(s, 'k') ?? 1);
    return { steps, samples, passes: countSetting(s, 'max-epochs') ?? 1, lower: '--dataset-size (or --max-samples), --epochs or --k' };
  },
  title: 'OpenRLHF',
  pinned: {
    repo: 'OpenRLHF/OpenRLHF',
    commit: COMMIT,
    date: '2026-08-13',
    files: [
      'openrlhf/cli/train_ppo_ray.py',
      'openrlhf/trainer/ppo_trainer.py',
      'openrlhf/trainer/ppo_utils/samples_generator.py',
      'openrlhf/trainer/ppo_utils/experience_maker.py',
      'openrlhf/trainer/ppo_utils/experience.py',
      'openrlhf/trainer/ppo_utils/replay_buffer.py',
      'openrlhf/trainer/ray/launcher.py',
      'openrlhf/trainer/ray/ppo_actor.py',
      'openrlhf/utils/deepspeed/deepspeed.py',
      'openrlhf/utils/seqlen_balancing.py',
      'openrlhf/models/utils.py',
    ],
  },
  configFormat: 'argv',
  keys,
  layout,
  advantages,
  packing,
  trainer: OPENRLHF_TRAINER,
  // train_batch_size the batch's samples: one optimizer step.
  oneStep: (b) => ({ ...oneStepBase(b), 'train-global-batch-size': String(b.samples) }),
  presets,
  checkedBy: [
    'test/fixtures/golden-openrlhf.json promptOrder: exec — PPOTrainer.fit, SamplesGenerator.generate_samples/_generate_vllm and ' +
      "DeepspeedStrategy.setup_dataloader from the checkout over torchdata's StatefulDataLoader (Ray stand-in: requests complete in submission " +
      'order; global generator seeded with --seed in place of the unseeded process)',
    'test/fixtures/golden-openrlhf.json dispatch: exec — split_rollout_samples, Experience and balance_experiences, async_run_method_batch, ' +
      'NaiveReplayBuffer.append and setup_dynamic_batch (one thread per rank, all-reduces really reduced), seqlen_balancing.py',
    'test/fixtures/golden-openrlhf-trainer.json: exec — aggregate_loss by torch autograd (ppo and gspo), iter_grad_accum_global_norm, ' +
      "get_loss_batch_info and setup_dynamic_batch on one thread per rank; transcribed: DeepSpeed's loss / gas and gradient mean over ranks; the " +
      "replay buffer's shuffled DataLoader order is not reproduced",
    'test/fixtures/golden-openrlhf.json advantages: exec — compute_advantages_and_returns with compute_reward and apply_length_penalties, float64 ' +
      'rewards, KL 0',
  ],
};
