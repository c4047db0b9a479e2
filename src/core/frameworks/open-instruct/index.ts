// open-instruct grpo_fast's data path at e6c3044: prompt order (order.ts), packing and per-rank
// micro-batches (packing.ts), advantages (advantages.ts), settings (keys.ts, sizes.ts). One FrameworkStep
// is one DataPreparationActor training step: num_unique_prompts_rollout groups of n samples, packed and
// dealt to the ranks.
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { NumpyRandomState } from '../../rng/numpy-random.ts';
import { SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import type { FrameworkCount, FrameworkHome, FrameworkLayout, FrameworkSettings, FrameworkStep } from '../types.ts';
import { oneStepBase } from '../one-step.ts';
import { advantages } from './advantages.ts';
import { keys } from './keys.ts';
import { promptStream } from './order.ts';
import { packStep, packing } from './packing.ts';
import { type RunSizes, runSizes } from './sizes.ts';
import { COMMIT, VERSION } from './version.ts';
import { presets } from './presets.ts';
import { OPEN_INSTRUCT_TRAINER } from './trainer.ts';
import { countSetting } from '../budget.ts';

/** The learner's split of one rank's micro-batches (grpo_fast.py PolicyTrainerRayProcess.train). */
function learnerSplit(micro: number, numMiniBatches: number) {
  const accumulation = Math.max(Math.ceil(micro / numMiniBatches - 0.5), 1);
  const leftover = micro % accumulation;
  return { accumulation, leftover, optimizerSteps: Math.floor((micro - leftover) / accumulation) };
}

function counts(s: RunSizes, first: { packs: number; micro: number; dropped: number } | null): FrameworkCount[] {
  const samples = s.prompts * s.k;
  const split = first ? learnerSplit(first.micro, s.numMiniBatches) : null;
  return [
    {
      name: 'num_training_steps',
      value: s.trainingSteps,
      how: `total_episodes ${s.totalEpisodes} // (num_unique_prompts_rollout ${s.prompts} × num_samples_per_prompt_rollout ${s.k})`,
    },
    { name: 'samples per step', value: samples, how: `${s.prompts} prompts × ${s.k} samples (fewer when zero-std groups are filtered)` },
    {
      name: 'dp_world_size',
      value: s.ranks,
      how: `sum(num_learners_per_node) ${s.learners} // sequence_parallel_size ${s.learners / s.ranks}`,
    },
    {
      name: 'scheduler steps',
      value: s.trainingSteps * s.numEpochs * s.numMiniBatches,
      how: `num_training_steps ${s.trainingSteps} × num_epochs ${s.numEpochs} × num_mini_batches ${s.numMiniBatches}`,
    },
    ...(first && split
      ? [
          { name: 'packs (first step)', value: first.packs, how: "pack_sequences over the step's samples" },
          {
            name: 'micro-batches per rank (first step)',
            value: first.micro,
            how: `ceil(packs // DP = ${Math.floor(first.packs / s.ranks)} / per_device_train_batch_size ${s.perDevice})`,
          },
          {
            name: 'accumulation_steps (first step)',
            value: split.accumulation,
            how: `max(ceil(${first.micro} / num_mini_batches ${s.numMiniBatches} − 0.5), 1); ${split.leftover} micro-batch(es) left over and dropped`,
          },
          {
            name: 'optimizer steps per training step (first step)',
            value: split.optimizerSteps * s.numEpochs,
            how: `(${first.micro} − ${split.leftover}) // ${split.accumulation} = ${split.optimizerSteps} per epoch × num_epochs ${s.numEpochs}`,
          },
          { name: 'samples dropped by truncation (first step)', value: first.dropped, how: 'samples in packs past (packs // DP) × DP' },
        ]
      : []),
  ];
}

function layout(settings: FrameworkSettings, seqlens?: readonly number[]): FrameworkLayout {
  const s = runSizes(settings);
  if (s.seed < 0 || s.seed > 0xffffffff)
    throw new ConfigError(`--seed must be in [0, 2^32) for NumPy's generator, got ${s.seed} (${VERSION})`);
  const per = s.prompts * s.k;
  if (seqlens && seqlens.length < s.trainingSteps * per) {
    throw new ConfigError(
      `${seqlens.length} token counts given, but the run has ${s.trainingSteps} steps × ${per} samples = ${s.trainingSteps * per}; give more, or ` +
        `lower --total_episodes`,
    );
  }
  const stream = promptStream(s.datasetSize, s.seed, s.trainingSteps * s.prompts);
  const lengthsGen = new Mt19937(s.seed);
  const rng = new NumpyRandomState(s.seed);
  const warnings = new Set<string>(s.warnings);
  const steps: FrameworkStep[] = [];
  let first: { packs: number; micro: number; dropped: number } | null = null;
  let epoch = -1;
  let epochStart = 0;
  for (let t = 0; t < s.trainingSteps; t++) {
    const pulls = stream.slice(t * s.prompts, (t + 1) * s.prompts);
    const prompts = pulls.map((p) => p.prompt);
    const lengths = seqlens
      ? seqlens.slice(t * per, (t + 1) * per)
      : Array.from(randint(lengthsGen, SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, per));
    const packed = packStep(lengths, s.packLength, s.ranks, s.perDevice, rng);
    if (packed.collated.warning) warnings.add(packed.collated.warning);
    for (const r of packed.samples) {
      const { leftover } = learnerSplit(r.length, s.numMiniBatches);
      if (leftover > 0) warnings.add(`${leftover} samples are dropped due to batch size ${s.numMiniBatches}`);
    }
    if (!first) {
      first = {
        packs: packed.packs.length,
        micro: Math.max(0, ...packed.samples.map((r) => r.length)),
        dropped: packed.collated.dropped.reduce((a, p) => a + packed.packs[p]!.length, 0),
      };
    }
    if (pulls[0]!.epoch !== epoch) {
      epoch = pulls[0]!.epoch;
      epochStart = t;
    }
    const sources = packed.samples.map((r) => r.flat());
    steps.push({
      epoch,
      step: t - epochStart,
      prompts,
      ranks: sources.map((r) => r.map((i) => prompts[Math.floor(i / s.k)]!)),
      sources,
      seqlens: lengths,
    });
  }
  const notes = [
    `Prompt order: epoch e is torch.randperm(${s.datasetSize}) from a generator seeded with ${s.seed} + e; the loader moves to the next epoch as ` +
      `soon as one runs out, so a step can hold the end of one epoch and the start of the next.`,
    `The DataPreparationActor sends ${s.asyncSteps} × ${s.prompts} prompts ahead and one more per result it takes; results come back in ` +
      `completion order, which varies from run to run: the sandbox shows them returning in the order sent, so step t holds pulls t·${s.prompts} … ` +
      `t·${s.prompts} + ${s.prompts - 1}.`,
    `Each prompt's ${s.k} responses arrive together and stay next to each other; ` +
      (s.filterZeroStd
        ? 'groups whose rewards all agree are dropped (filter_zero_std_samples), so real steps often hold fewer samples: ' +
          'the sandbox shows every group kept.'
        : 'no group is filtered (filter_zero_std_samples off).'),
    `Samples are packed in order into packs of at most min(total tokens // ${s.ranks}, pack_length ${s.packLength}) tokens; rank i gets the i-th ` +
      `contiguous run of packs//DP packs, and packs past (packs // DP) × DP are dropped.`,
    `Each rank shuffles its packs with np.random.permutation on NumPy's global generator, which the DataPreparationActor never seeds (not ` +
      `reproducible); the sandbox uses np.random.seed(${s.seed}) once for the run, ranks in order, step after step. Ranks list their samples in ` +
      `micro-batch order.`,
    ...(seqlens
      ? []
      : [
          `Token counts are synthetic: torch.randint(${SYNTHETIC_SEQLEN.low}, ${SYNTHETIC_SEQLEN.high}) from a generator seeded with ${s.seed}, ` +
            `one draw per step.`,
        ]),
  ];
  return { steps, counts: counts(s, first), notes, warnings: [...warnings] };
}

export const home: FrameworkHome = {
  name: 'open-instruct',
  // Without --epochs, total_episodes samples: num_training_steps = total_episodes // (prompts a step × k).
  plannedLayout(s, generic) {
    const episodes = countSetting(s, 'total-episodes');
    const perStep = (countSetting(s, 'train-batch-size') ?? 1) * (countSetting(s, 'k') ?? 1);
    const passes = countSetting(s, 'num-epochs') ?? 1;
    if (countSetting(s, 'epochs') !== null || episodes === null) return { ...generic, passes };
    const steps = Math.floor(episodes / perStep);
    return { steps, samples: steps * perStep, passes, lower: '--total-episodes (or set --epochs)' };
  },
  title: 'AI2 open-instruct (grpo_fast)',
  pinned: {
    repo: 'allenai/open-instruct',
    commit: COMMIT,
    date: '2026-08-20',
    files: ['open_instruct/data_loader.py', 'open_instruct/rl_utils.py', 'open_instruct/grpo_fast.py', 'open_instruct/grpo_utils.py'],
  },
  configFormat: 'argv',
  keys,
  layout,
  advantages,
  packing,
  trainer: OPEN_INSTRUCT_TRAINER,
  // total_episodes the batch's samples: one training step.
  oneStep: (b) => ({ ...oneStepBase(b), 'total-episodes': String(b.samples) }),
  presets,
  checkedBy: [
    "test/fixtures/golden-open-instruct.json promptOrder: exec — HFDataLoader and single_example_collator from the checkout (olmo_core's " +
      'DataLoaderBase iteration transcribed; a step = P consecutive pulls, results assumed to return in the order sent)',
    'test/fixtures/golden-open-instruct.json packing: exec — pack_sequences, prepare_collated_data_for_workers (np.random.seed(seed) first, in ' +
      'place of the unseeded actor) and collate_fn',
    'test/fixtures/golden-open-instruct-trainer.json: exec — pack_sequences, prepare_collated_data_for_workers, calculate_token_counts and ' +
      "masked_mean by torch autograd; transcribed: PolicyTrainerRayProcess.step's accumulation_steps / leftover / world-size lines and DeepSpeed's " +
      'gradient mean (DeepSpeed)',
    "test/fixtures/golden-open-instruct.json advantages: exec — the advantage statements of _data_preparation_loop and process_group's zero-std " +
      'test, cut out by syntax tree',
  ],
};
