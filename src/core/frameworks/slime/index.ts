// THUDM slime's data path at 624b824: prompt order (order.ts), dispatch and micro-batching of each
// rollout (dispatch.ts), reward post-processing (advantages.ts), settings (keys.ts, config.ts).
// One FrameworkStep here is one ROLLOUT (one get_samples call, one dispatch of rank partitions);
// it holds rollout_batch_size × n / global_batch_size optimizer steps.
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import { intSetting, ranksKey, withRanks } from '../settings.ts';
import type { FrameworkHome, FrameworkLayout, FrameworkSettings, FrameworkStep, PackedStep } from '../types.ts';
import { oneStepBase } from '../one-step.ts';
import { advantages } from './advantages.ts';
import { VERSION, resolveRun } from './config.ts';
import { buildDpSchedule } from './dispatch.ts';
import { keys } from './keys.ts';
import { rolloutPrompts } from './order.ts';
import { presets } from './presets.ts';
import { slimeTrainer } from './trainer.ts';
import { countSetting, keyName, num } from '../budget.ts';

/** `--ranks` as the data-parallel size: actor-num-gpus-per-node = ranks × TP × PP × CP on one node. */
function ranked(s: FrameworkSettings): FrameworkSettings {
  const modelParallel = ['tensor-model-parallel-size', 'pipeline-model-parallel-size', 'context-parallel-size'].reduce(
    (p, flag) => p * intSetting(s, flag),
    1,
  );
  return withRanks(s, 'actor-num-gpus-per-node', 'actor-num-nodes', modelParallel);
}

function layout(given: FrameworkSettings, seqlens?: readonly number[]): FrameworkLayout {
  const settings = ranked(given);
  const run = resolveRun(settings);
  const { n, schedule } = run;
  const perRollout = run.rolloutBatchSize * n;
  if (seqlens && seqlens.length < run.numRollout * perRollout)
    throw new ConfigError(
      `${seqlens.length} token counts given, but the run has ${run.numRollout} rollouts × ${perRollout} samples = ${run.numRollout * perRollout}; ` +
        `give more, or lower --num-rollout / --num-epoch`,
    );
  const lengths = new Mt19937(run.seed);
  const rollouts = rolloutPrompts(run.datasetSize, run.rolloutBatchSize, run.numRollout, run.shuffle, run.seed);
  const steps: FrameworkStep[] = [];
  let epoch = -1;
  let stepInEpoch = 0;
  rollouts.forEach((rollout, r) => {
    const counts = seqlens
      ? seqlens.slice(r * perRollout, (r + 1) * perRollout)
      : Array.from(randint(lengths, SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, perRollout));
    const { partitions } = buildDpSchedule(counts, schedule);
    if (rollout.epoch !== epoch) {
      epoch = rollout.epoch;
      stepInEpoch = 0;
    }
    // Samples are prompt-major (the rollout sorts its groups by group_index): position i·n + c is prompt i's copy c.
    steps.push({
      epoch,
      step: stepInEpoch++,
      prompts: rollout.prompts,
      ranks: partitions.map((p) => p.map((pos) => rollout.prompts[Math.floor(pos / n)]!)),
      sources: partitions,
      seqlens: counts,
    });
  });
  const trainSteps = Math.floor(perRollout / schedule.globalBatchSize);
  const notes = [
    'Each step here is one rollout: slime generates rollout_batch_size prompts × n samples, then trains on them in optimizer steps of ' +
      'global_batch_size samples before the next rollout.',
    run.shuffle
      ? `Prompts are shuffled per epoch with Python's random: random.seed(${run.seed} + epoch); random.shuffle(range(${run.datasetSize})).`
      : 'Prompts come in dataset order (--rollout-shuffle is off by default).',
    'A rollout that reaches the end of the dataset takes the tail of this epoch and the head of the next: nothing is dropped.',
    "Every sample is its own rollout id, so an optimizer step can hold part of a prompt's group; with global_batch_size a multiple of n the " +
      'copies stay in one step.',
    schedule.useDynamicBatchSize
      ? `Micro-batches are packed first-fit within ${schedule.maxTokensPerGpu} × CP ${run.cp} tokens, then split until their count is a multiple of ` +
        `DP ${schedule.dpSize}.`
      : `Micro-batches are ${schedule.microBatchSize} consecutive samples each.`,
    schedule.balanceData
      ? 'Micro-batches go to ranks by Karmarkar–Karp on estimated FLOPs (--balance-data): copies of a prompt scatter over ranks.'
      : 'Micro-batch j goes to rank j mod DP, so consecutive micro-batches (and copies of a prompt) land on different ranks.',
    "A rank's samples are listed as its micro-batches flattened in order, optimizer step after optimizer step.",
    ...(seqlens
      ? []
      : [
          `Token counts are synthetic: torch.randint(${SYNTHETIC_SEQLEN.low}, ${SYNTHETIC_SEQLEN.high}) from a generator seeded with ${run.seed}, ` +
            `one draw per rollout.`,
        ]),
    ...(perRollout % schedule.globalBatchSize
      ? [`${perRollout % schedule.globalBatchSize} trailing samples of each rollout do not fill an optimizer step and are dropped.`]
      : []),
    ...run.logs.map((l) => `slime logs: ${l}`),
  ];
  return {
    steps,
    counts: [
      { name: 'num_rollout', value: run.numRollout, how: run.how.numRollout },
      { name: 'data parallel size', value: schedule.dpSize, how: run.how.dp },
      { name: 'global_batch_size', value: schedule.globalBatchSize, how: run.how.globalBatchSize },
      {
        name: 'training steps per rollout',
        value: trainSteps,
        how: `rollout_batch_size × n_samples_per_prompt // global_batch_size = ${run.rolloutBatchSize} × ${n} // ${schedule.globalBatchSize} = ${trainSteps}`,
      },
    ],
    notes,
    warnings: [],
  };
}

function pack(seqlens: readonly number[], settings: FrameworkSettings): PackedStep {
  const { schedule } = resolveRun(ranked(settings));
  const { partitions, microBatches, numMicrobatches } = buildDpSchedule(seqlens, schedule);
  return {
    ranks: microBatches.map((mbs, r) => mbs.map((mb) => mb.map((local) => partitions[r]![local]!))),
    microBatchesPerRank: numMicrobatches.reduce((a, b) => a + b, 0),
  };
}

export const home: FrameworkHome = {
  name: 'slime',
  // --num-rollout, when set, wins over --num-epoch.
  plannedLayout(s, generic) {
    const plan = { ...generic, lower: '--num-rollout, --dataset-size, --epochs or --k' };
    const steps = countSetting(s, 'num-rollout');
    return steps === null || plan.steps === 0 ? plan : { ...plan, steps, samples: (plan.samples / plan.steps) * steps };
  },
  title: 'THUDM slime',
  pinned: {
    repo: 'THUDM/slime',
    commit: '624b824a898ab0ec1fcb4d373004c7f3852bf515',
    date: '2026-08-21',
    files: [
      'slime/rollout/data_source.py',
      'slime/utils/data.py',
      'slime/utils/dp_schedule.py',
      'slime/utils/seqlen_balancing.py',
      'slime/utils/flops_utils.py',
      'slime/ray/rollout.py',
      'slime/utils/arguments.py',
      'slime/backends/megatron_utils/arguments.py',
      'slime/backends/megatron_utils/actor.py',
    ],
  },
  configFormat: 'argv',
  resolve: ranked,
  keys: [ranksKey('actor-num-nodes × actor-num-gpus-per-node / (TP × PP × CP)'), ...keys],
  layout,
  advantages,
  packing: {
    about:
      `slime build_dp_schedule ${VERSION}: fixed --micro-batch-size chunks, or first-fit within --max-tokens-per-gpu × CP under ` +
      `--use-dynamic-batch-size; the count is aligned to a multiple of DP; micro-batches go round-robin to ranks or by FLOPs Karmarkar–Karp with ` +
      `--balance-data. pack() covers every optimizer step of the samples given; microBatchesPerRank is their total.`,
    flags: [
      'micro-batch-size',
      'use-dynamic-batch-size',
      'max-tokens-per-gpu',
      'balance-data',
      'global-batch-size',
      'actor-num-nodes',
      'actor-num-gpus-per-node',
      'tensor-model-parallel-size',
      'pipeline-model-parallel-size',
      'context-parallel-size',
    ],
    budget(s) {
      const tokens = num(s, 'max-tokens-per-gpu');
      if (s['use-dynamic-batch-size'] !== true || tokens === null) return null;
      const cp = num(s, 'context-parallel-size') ?? 1;
      return cp === 1
        ? { tokens, from: keyName(keys, 'max-tokens-per-gpu'), rule: 'cap' }
        : { tokens: tokens * cp, from: `${keyName(keys, 'max-tokens-per-gpu')} × ${keyName(keys, 'context-parallel-size')}`, rule: 'cap' };
    },
    pack,
  },
  trainer: slimeTrainer(ranked),
  // One rollout whose samples are one global batch: one optimizer step.
  oneStep: (b) => ({ ...oneStepBase(b), 'num-rollout': '1', 'global-batch-size': String(b.samples) }),
  presets,
  checkedBy: [
    "test/fixtures/golden-slime-layout.json: exec — slime's build_dp_schedule imported, RolloutDataSource.get_samples and Dataset.shuffle " +
      "AST-exec'd (stand-in dataset of indices), 55 seeded configs; transcribed: rollout ids 0..N−1, num_rollout from num_epoch",
    "test/fixtures/golden-slime-advantages.json: exec — RolloutManager._post_process_rewards AST-exec'd with real torch (float32), even and " +
      'uneven batches, every estimator; transcribed: n = 1 turns the std off (slime_validate_args)',
  ],
};
