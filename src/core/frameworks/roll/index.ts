// Alibaba ROLL's RLVR pipeline (alibaba/ROLL @ 8eb27cc), single domain, synchronous
// (async_generation_ratio 0): prompt order from the scheduler's reseeded Python shuffle, batch_balance
// over actor_train's data-parallel ranks, optional dynamic batching, position-grouped reward normalisation.
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkHome, FrameworkLayout, FrameworkSettings, FrameworkStep } from '../types.ts';
import { ROLL_ADVANTAGES } from './advantages.ts';
import { rollCounts, rollSizes } from './counts.ts';
import { rollDispatch } from './dispatch.ts';
import { ROLL_KEYS } from './keys.ts';
import { RollPromptStream } from './order.ts';
import { ROLL_PACKER } from './packer.ts';
import { ROLL_COMMIT, ROLL_VERSION } from './version.ts';
import { presets } from './presets.ts';
import { ROLL_TRAINER } from './trainer.ts';
import { cappedSteps, countSetting } from '../budget.ts';
import { oneStepBase } from '../one-step.ts';
import { gcd } from '../../samplers/rules.ts';

function dynamicOf(settings: FrameworkSettings) {
  if (!boolSetting(settings, 'use-dynamic-batching-in-train')) return null;
  return {
    maxTokens: intSetting(settings, 'max-tokens-per-microbatch-in-train'),
    round: intSetting(settings, 'sequence-length-round-in-train'),
  };
}

function layout(settings: FrameworkSettings, seqlens?: readonly number[]): FrameworkLayout {
  const sizes = rollSizes(settings);
  const seed = intSetting(settings, 'seed');
  const datasetSize = intSetting(settings, 'dataset-size');
  const epochs = intSetting(settings, 'epochs');
  if (epochs < 1) throw new ConfigError('--epochs must be at least 1');
  const shown = Math.min(intSetting(settings, 'max-steps'), Math.ceil((epochs * datasetSize) / sizes.prompts));
  const counts = rollCounts(settings, sizes, shown);
  if (seqlens && seqlens.length < shown * sizes.samples) {
    throw new ConfigError(`${seqlens.length} token counts given; ${shown} steps × ${sizes.samples} samples need ${shown * sizes.samples}`);
  }
  const dynamic = dynamicOf(settings);
  const stream = new RollPromptStream(seed, datasetSize);
  const lengths = new Mt19937(seed);
  const steps: FrameworkStep[] = [];
  const perEpoch = new Map<number, number>();
  let straddles = 0;
  for (let i = 0; i < shown; i++) {
    const { prompts, epochs: from } = stream.take(sizes.prompts);
    const epoch = from[0]!;
    if (from[from.length - 1] !== epoch) straddles++;
    const step = perEpoch.get(epoch) ?? 0;
    perEpoch.set(epoch, step + 1);
    const stepSeqlens = seqlens
      ? seqlens.slice(i * sizes.samples, (i + 1) * sizes.samples)
      : Array.from(randint(lengths, SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, sizes.samples));
    const { sources } = rollDispatch(stepSeqlens, sizes.ranks, dynamic);
    const ranks = sources.map((src) => src.map((s) => prompts[Math.floor(s / sizes.k)]!));
    steps.push({ epoch, step, prompts, ranks, sources, seqlens: stepSeqlens });
  }
  const notes = [
    `Each pass over the ${datasetSize} prompts is random.seed(seed + pass) then random.shuffle of the previous pass's order ` +
      '(DynamicSamplingScheduler.get_next_dataset_item); a step takes the next rollout_batch_size prompts and may cross into the next pass' +
      (straddles ? ` (${straddles} of the steps shown do).` : '.'),
    "A prompt's k responses are committed together, but ROLL lists the groups in the order they finish generating; " +
      'the sandbox lists them in draw order (as if every prompt took equally long).',
    `batch_balance (verl's Karmarkar–Karp on 24576·L + L²) deals the ${sizes.samples} samples to ${sizes.ranks} rank(s) by token workload, ` +
      "so a prompt's copies usually land on different ranks; advantages are computed before, on the batch in generation order.",
    dynamic
      ? `Dynamic batching: the balanced batch is sorted by length and dealt by stride (rank r gets sorted[r::${sizes.ranks}]); ` +
        `micro-batches share one cut on every rank within ${dynamic.maxTokens} padded tokens.`
      : 'Without dynamic batching each rank trains its chunk in a shuffled order (DataProto.make_iterator with shuffle and a generator ' +
        'seeded with seed); that per-rank order is not modelled.',
    seqlens
      ? `Token counts: the ${seqlens.length} given, in generation order, step after step.`
      : `Token counts are synthetic: torch.randint(${SYNTHETIC_SEQLEN.low}, ${SYNTHETIC_SEQLEN.high}) from one generator seeded with ${seed}, one ` +
        `draw per sample per step.`,
    'One domain only: with several entries in actor_train.data_args.domain_interleave_probs ROLL runs one scheduler (own dataset, ' +
      'own passes) per domain and concatenates their batches in that order.',
  ];
  return { steps, counts, notes, warnings: [] };
}

export const home: FrameworkHome = {
  name: 'roll',
  // max_steps stops the pipeline early.
  plannedLayout: (s, generic) =>
    cappedSteps(
      { ...generic, passes: countSetting(s, 'ppo-epochs') ?? 1, lower: '--dataset-size, --epochs, --k or --max-steps' },
      countSetting(s, 'max-steps'),
    ),
  title: 'Alibaba ROLL (RLVR pipeline)',
  pinned: {
    repo: 'alibaba/ROLL',
    commit: ROLL_COMMIT,
    date: '2026-08-19',
    files: [
      'roll/distributed/scheduler/generate_scheduler.py',
      'roll/pipeline/rlvr/rlvr_pipeline.py',
      'roll/pipeline/rlvr/rlvr_config.py',
      'roll/configs/base_config.py',
      'roll/configs/worker_config.py',
      'roll/utils/functionals.py',
      'roll/utils/dynamic_batching.py',
      'roll/utils/config_utils.py',
      'roll/distributed/scheduler/protocol.py',
      'roll/pipeline/base_worker.py',
    ],
  },
  configFormat: 'yaml',
  keys: ROLL_KEYS,
  layout,
  advantages: ROLL_ADVANTAGES,
  packing: ROLL_PACKER,
  trainer: ROLL_TRAINER,
  /**
   * One pipeline step (max_steps 1) of a dataset one prompt larger than the step (RLVRPipeline asserts rollout_batch_size <
   * the dataset's size); one backward batch of all the samples: per_device_train_batch_size its default 8 where it divides
   * them (else their greatest common divisor) × gradient_accumulation_steps the rest.
   */
  oneStep: (b) => {
    const micro = gcd(b.samples, 8);
    return {
      ...oneStepBase(b),
      'dataset-size': String(b.prompts + 1),
      'max-steps': '1',
      'per-device-train-batch-size': String(micro),
      'gradient-accumulation-steps': String(b.samples / micro),
    };
  },
  presets,
  checkedBy: [
    `test/fixtures/golden-roll-layout.json (exec, ROLL ${ROLL_VERSION}): get_next_dataset_item with Python's random for 49 seeds × sizes; ` +
      'batch_balance, torch.argsort(prompt_id), dynamic_batching_shard and DataProto.chunk on 96 batches; reward_norm + ' +
      "compute_reinforce_return with real torch; the config and balance asserts' texts",
    `test/fixtures/golden-roll-trainer.json (exec, ROLL ${ROLL_VERSION}): agg_loss by torch autograd in every loss_agg_mode, the ` +
      'all-reduced batch_num_tokens / global_valid_samples, make_iterator and the dynamic mini/micro-batch iterators; transcribed: ' +
      'loss_scale (num_microbatches × dp_size), Megatron ÷ num_microbatches and the data-parallel gradient mean (process groups)',
    'transcribed: the rlvr_pipeline.py step order and the synchronous scheduler drawing prompts in prompt-id order (Ray/asyncio actors)',
  ],
};
