// NVIDIA NeMo RL's GRPO data path at 7ea279a: prompt order (order.ts), dispatch to data-parallel
// ranks and micro-batching (dispatch.ts, packers.ts), advantages (advantages.ts), keys (keys.ts).
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { MAX_SEQLEN, SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import type { FrameworkCount, FrameworkHome, FrameworkStep, PackerDef } from '../types.ts';
import { oneStepBase } from '../one-step.ts';
import { NEMO_RL_ADVANTAGES } from './advantages.ts';
import { dispatchStep } from './dispatch.ts';
import { NEMO_RL_KEYS } from './keys.ts';
import { epochBatches, samplerSeed } from './order.ts';
import { type NemoRun, resolveRun } from './resolve.ts';
import { NEMO_RL_COMMIT, NEMO_RL_VERSION } from './version.ts';
import { presets } from './presets.ts';
import { trainer } from './trainer.ts';
import { cappedSteps, countSetting, keyName, num } from '../budget.ts';

export { StalenessSampler, type StalenessPolicy } from './staleness.ts';

function counts(run: NemoRun, perEpoch: number, steps: number): FrameworkCount[] {
  const samples = run.prompts * run.k;
  const local = run.gbs / run.dp;
  const out: FrameworkCount[] = [
    {
      name: 'len(dataloader)',
      value: perEpoch,
      how: `len(StatefulDataLoader) = floor(dataset ${run.datasetSize} / grpo.num_prompts_per_step ${run.prompts}) = ${perEpoch} (drop_last=True)`,
    },
    {
      name: 'training steps',
      value: steps,
      how: `min(grpo.max_num_steps ${run.maxSteps}, grpo.max_num_epochs ${run.epochs} × len(dataloader) ${perEpoch}) = ${steps}`,
    },
    {
      name: 'samples per step',
      value: samples,
      how: `num_prompts_per_step ${run.prompts} × num_generations_per_prompt ${run.k} = ${samples} (repeat_interleave)`,
    },
    {
      name: 'data_parallel_size',
      value: run.dp,
      how: `cluster.gpus_per_node × num_nodes = ${run.world}, / (PP × CP × TP) = ${run.dp}`,
    },
    {
      name: 'global batches per step',
      value: samples / run.gbs,
      how: `samples ${samples} / train_global_batch_size ${run.gbs} = ${samples / run.gbs} optimizer steps per training step`,
    },
    {
      name: 'local global batch size',
      value: local,
      how: `train_global_batch_size ${run.gbs} // data_parallel_size ${run.dp} = ${local} samples per rank per optimizer step`,
    },
  ];
  if (run.mode.kind === 'plain') {
    out.push({
      name: 'micro-batches per global batch',
      value: Math.floor(local / run.mode.microBatchSize),
      how: `${local} // train_micro_batch_size ${run.mode.microBatchSize} = ${Math.floor(local / run.mode.microBatchSize)} per rank`,
    });
  }
  return out;
}

function notes(run: NemoRun, measured: boolean): string[] {
  const out = [
    run.shuffle
      ? `The dataloader's RandomSampler has its own generator, seeded with ${samplerSeed(run.seed)} (torch's first int64 after set_seed(${run.seed})); ` +
        (run.workers > 0
          ? `with ${run.workers} worker(s) each epoch draws two permutations and uses the second.`
          : 'without workers each epoch draws one permutation.')
      : 'data.shuffle is false: prompts come in dataset order, every epoch the same.',
    `Each step is ${run.prompts} prompts × ${run.k} samples, copies side by side; Policy.train cuts it into chunks of ` +
      `train_global_batch_size ${run.gbs} and each chunk into ${run.dp} shards.`,
  ];
  if (run.datasetSize < run.prompts) {
    out.push(
      `len(dataloader) is 0 (${run.datasetSize} prompts < ${run.prompts} per step, drop_last): NeMo RL runs no step and raises nothing.`,
    );
  }
  const mode = run.mode;
  if (mode.kind === 'plain') {
    const local = run.gbs / run.dp;
    out.push(
      local % run.k === 0 && run.gbs % run.k === 0
        ? `Shards are contiguous (${local} samples per rank per chunk, a multiple of k), so a prompt's ${run.k} samples stay on one rank.`
        : `Shards are contiguous, ${local} samples per rank per chunk, not a multiple of k ${run.k}: some prompts' samples straddle two ranks.`,
    );
  } else if (mode.kind === 'dynamic') {
    out.push(
      `Dynamic batching: each chunk is sorted by length and dealt sorted[i::${run.dp}] to rank i, so a prompt's samples scatter; ` +
        `micro-batches hold at most ${mode.tokens} tokens (count × longest, rounded up to ${mode.round}).`,
    );
  } else {
    out.push(
      `Sequence packing (${mode.algorithm}): each chunk's samples, padded to a multiple of ${mode.padMultiple}, are packed into bins of ` +
        `${mode.tokens} tokens (at least ${run.dp}, a multiple of ${run.dp}); bin j goes to rank j % ${run.dp} and is one micro-batch, ` +
        "so a prompt's samples scatter by length.",
    );
  }
  if (mode.kind !== 'plain') {
    out.push(
      measured
        ? 'Token counts: the measured ones, in turn.'
        : `Token counts are synthetic: torch.randint(${SYNTHETIC_SEQLEN.low}, ${SYNTHETIC_SEQLEN.high}) per sample, a generator seeded with ${run.seed}.`,
    );
  }
  return out;
}

export const packing: PackerDef = {
  about:
    "NeMo RL's policy micro-batching: with policy.sequence_packing.enabled (shipped on) bins of train_mb_tokens per global-batch chunk, " +
    'bin j to rank j % W, one bin per micro-batch; with policy.dynamic_batching.enabled a token budget over length-sorted samples; ' +
    "otherwise train_micro_batch_size samples. Micro-batches of all the step's global batches, in order.",
  flags: [
    'ranks',
    'num-nodes',
    'tensor-parallel-size',
    'context-parallel-size',
    'train-batch-size',
    'k',
    'train-global-batch-size',
    'train-micro-batch-size',
    'max-total-sequence-length',
    'make-sequence-length-divisible-by',
    'dynamic-batching',
    'dynamic-batching-train-mb-tokens',
    'dynamic-batching-sequence-length-round',
    'sequence-packing',
    'sequence-packing-train-mb-tokens',
    'sequence-packing-algorithm',
    'sequence-packing-microbatch-order',
  ],
  budget(s) {
    const { mode } = resolveRun(s);
    if (mode.kind === 'plain') return null;
    const flag = mode.kind === 'packing' ? 'sequence-packing-train-mb-tokens' : 'dynamic-batching-train-mb-tokens';
    const name = (f: string) => keyName(NEMO_RL_KEYS, f);
    const from =
      num(s, flag) !== null ? name(flag) : `${name(flag)} unset: ${name('max-total-sequence-length')} × ${name('train-micro-batch-size')}`;
    return { tokens: mode.tokens, from, rule: 'cap' };
  },
  pack(seqlens, settings) {
    const run = resolveRun(settings);
    const { micro } = dispatchStep(seqlens, run.dp, run.gbs, run.mode);
    return { ranks: micro, microBatchesPerRank: Math.max(...micro.map((m) => m.length)) };
  },
};

export const home: FrameworkHome = {
  name: 'nemo-rl',
  // grpo.max_num_steps stops the run, mid-epoch if need be.
  plannedLayout: (s, generic) =>
    cappedSteps({ ...generic, lower: '--dataset-size, --epochs, --k or --max-num-steps' }, countSetting(s, 'max-num-steps')),
  title: 'NVIDIA NeMo RL',
  pinned: {
    repo: 'NVIDIA-NeMo/RL',
    commit: NEMO_RL_COMMIT,
    date: '2026-08-22',
    files: [
      'nemo_rl/algorithms/grpo.py',
      'nemo_rl/algorithms/utils.py',
      'nemo_rl/algorithms/advantage_estimator.py',
      'nemo_rl/distributed/batched_data_dict.py',
      'nemo_rl/data/packing/algorithms.py',
      'nemo_rl/models/policy/lm_policy.py',
      'nemo_rl/models/policy/workers/dtensor_policy_worker.py',
      'nemo_rl/models/automodel/data.py',
      'examples/configs/grpo_math_1B.yaml',
    ],
  },
  configFormat: 'yaml-defaults',
  keys: NEMO_RL_KEYS,
  layout(settings, seqlens) {
    const run = resolveRun(settings);
    const perEpoch = Math.floor(run.datasetSize / run.prompts);
    const total = Math.min(run.maxSteps, run.epochs * perEpoch);
    const samples = run.prompts * run.k;
    if (seqlens) {
      const bad = seqlens.findIndex((s) => !Number.isSafeInteger(s) || s < 1 || s > MAX_SEQLEN);
      if (bad >= 0) throw new ConfigError(`token count ${bad} must be a whole number in [1, ${MAX_SEQLEN}], got ${seqlens[bad]}`);
      if (seqlens.length < total * samples) {
        throw new ConfigError(`${seqlens.length} token counts given; ${total} steps × ${samples} samples need ${total * samples}`);
      }
    }
    const epochsRun = perEpoch > 0 ? Math.min(run.epochs, Math.ceil(total / perEpoch)) : 0;
    const batches = epochBatches(run.datasetSize, run.prompts, run.shuffle, run.workers, run.seed, epochsRun);
    const lengths = new Mt19937(run.seed);
    const steps: FrameworkStep[] = [];
    for (const [epoch, epochPrompts] of batches.entries()) {
      for (const [step, prompts] of epochPrompts.entries()) {
        if (steps.length >= total) break;
        const done = steps.length;
        const lens = seqlens
          ? seqlens.slice(done * samples, (done + 1) * samples)
          : Array.from(randint(lengths, SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, samples));
        const generated = prompts.flatMap((id) => Array<number>(run.k).fill(id));
        const { sources } = dispatchStep(lens, run.dp, run.gbs, run.mode);
        steps.push({ epoch, step, prompts, ranks: sources.map((s) => s.map((i) => generated[i]!)), sources, seqlens: lens });
      }
    }
    return { steps, counts: counts(run, perEpoch, total), notes: notes(run, !!seqlens), warnings: [] };
  },
  advantages: NEMO_RL_ADVANTAGES,
  packing,
  trainer,
  oneStep: oneStepBase,
  presets,
  checkedBy: [
    `test/fixtures/golden-nemo-rl-layout.json: exec — set_seed, setup's StatefulDataLoader statement (torchdata 0.11), batched_data_dict.py and ` +
      `packing/algorithms.py from NeMo RL ${NEMO_RL_VERSION}; transcribed: grpo_train's step loop, Policy._shard_for_train's arguments and the ` +
      `DTensor worker's micro-batch loop (need Ray and a GPU)`,
    `test/fixtures/golden-nemo-rl-staleness.json: exec — WindowedSampler, ReadyFirstSampler and TQReplayBuffer (reserve, remove) from NeMo RL ` +
      `${NEMO_RL_VERSION} on scripted traces; transcribed: commit's ready-marking (the real one writes to the DataPlane); checks staleness.ts`,
    `test/fixtures/golden-nemo-rl-advantages.json: exec — calculate_baseline_and_std_per_prompt and GRPOAdvantageEstimator from NeMo RL ` +
      `${NEMO_RL_VERSION}, in float64 (NeMo runs float32)`,
  ],
};
