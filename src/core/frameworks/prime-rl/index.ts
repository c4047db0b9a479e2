// PrimeIntellect prime-rl @ 559b447 as a framework home: its TOML keys, the steps its orchestrator cuts
// and packs for the trainer ranks, its GRPO credit and its packer.
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import type { FrameworkCount, FrameworkHome, FrameworkLayout, FrameworkSettings, FrameworkStep, PackerDef } from '../types.ts';
import { oneStepBase } from '../one-step.ts';
import { advantages } from './advantages.ts';
import { type PrimeRlConfig, resolveConfig } from './config.ts';
import { keys } from './keys.ts';
import { cutSteps } from './order.ts';
import { prepareBatch } from './packing.ts';
import { PRIME_RL_TRAINER } from './trainer.ts';
import { PRIME_RL_COMMIT } from './version.ts';
import { presets } from './presets.ts';
import { cappedSteps, countSetting, keyBudget } from '../budget.ts';

/** Every dispatched sample's token count: the measured ones, else torch.randint(64, 1025) from a generator seeded with --seed (as verl's sandbox model). */
function sampleSeqlens(c: PrimeRlConfig, count: number, seqlens?: readonly number[]): number[] {
  if (!seqlens) return Array.from(randint(new Mt19937(c.seed), SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, count));
  const bad = seqlens.findIndex((n) => !Number.isSafeInteger(n) || n < 1);
  if (bad >= 0) throw new ConfigError(`seqlens[${bad}] must be a whole number of tokens ≥ 1, got ${seqlens[bad]}`);
  if (seqlens.length < count) {
    throw new ConfigError(
      `prime-rl needs a token count for each of the ${count} samples dispatched (${c.epochs} pass(es) × ${c.datasetSize} tasks × group_size ` +
        `${c.k}); ${seqlens.length} given`,
    );
  }
  return seqlens.slice(0, count);
}

function layout(settings: FrameworkSettings, given?: readonly number[]): FrameworkLayout {
  const c = resolveConfig(settings);
  const draws = c.epochs * c.datasetSize;
  const seqlens = sampleSeqlens(c, draws * c.k, given);
  const cut = cutSteps({ draws, k: c.k, batchSize: c.batchSize, tokenBatchSize: c.tokenBatchSize, seqlens, maxSteps: c.maxSteps });
  const perEpoch = new Map<number, number>();
  const steps: FrameworkStep[] = cut.map(({ samples }) => {
    const draw = (id: number) => Math.floor(id / c.k);
    const task = (id: number) => draw(id) % c.datasetSize;
    const epoch = Math.floor(draw(samples[0]!) / c.datasetSize);
    const step = perEpoch.get(epoch) ?? 0;
    perEpoch.set(epoch, step + 1);
    const prompts: number[] = [];
    for (let i = 0; i < samples.length; i++) if (i === 0 || draw(samples[i]!) !== draw(samples[i - 1]!)) prompts.push(task(samples[i]!));
    const packed = prepareBatch(
      samples.map((id) => seqlens[id]!),
      c.seqLen,
      c.ranks,
      c.padToMultipleOf,
    );
    const sources = packed.map((rank) => rank.flatMap((mb) => mb.samples));
    return {
      epoch,
      step,
      prompts,
      ranks: sources.map((rank) => rank.map((i) => task(samples[i]!))),
      sources,
      seqlens: samples.map((id) => seqlens[id]!),
    };
  });
  return { steps, counts: counts(c, steps.length), notes: notes(c, !given), warnings: [] };
}

function counts(c: PrimeRlConfig, stepCount: number): FrameworkCount[] {
  const out: FrameworkCount[] = [];
  if (c.batchSize !== null) {
    out.push({
      name: 'problems per step',
      value: c.batchSize / c.k,
      how: `batch_size ${c.batchSize} / group_size ${c.k} = ${c.batchSize / c.k}`,
    });
  }
  out.push({ name: 'num_train_workers', value: c.ranks, how: `trainer data-parallel ranks the orchestrator packs for: ${c.ranks}` });
  const dispatched = c.epochs * c.datasetSize * c.k;
  out.push({
    name: 'steps',
    value: stepCount,
    how:
      c.batchSize !== null
        ? `${c.epochs} pass(es) × ${c.datasetSize} tasks × group_size ${c.k} = ${dispatched} samples; // batch_size ${c.batchSize} = ` +
          `${Math.floor(dispatched / c.batchSize)}` +
          (c.maxSteps !== null ? `, at most max_steps ${c.maxSteps}` : '')
        : `steps cut at token_batch_size ${c.tokenBatchSize} from ${dispatched} samples' tokens` +
          (c.maxSteps !== null ? `, at most max_steps ${c.maxSteps}` : ''),
  });
  return out;
}

function notes(c: PrimeRlConfig, synthetic: boolean): string[] {
  const out = [
    'Tasks come in source order: the default StandardSampler cycles the taskset (draw d is task d mod N); prime-rl has no orchestrator seed and no shuffle.',
    'Each task draw is one group of group_size rollouts; the sandbox lets groups finish in dispatch order. The real orchestrator keeps up to ' +
      'concurrency.max_inflight (1024) episodes in flight and queues groups as they finish, so which tasks share a step depends on inference timing ' +
      'and is not reproducible.',
    `Every group is admitted and nothing goes stale here; prime-rl drops groups older than max_off_policy_steps=${c.maxOffPolicySteps} and groups ` +
      `its curriculum gates reject${
        c.filterZeroAdvantages
          ? ', and filter_zero_advantages drops samples whose advantage is 0 (a group with one reward) ' +
            'from the trainer batch after the step is cut'
          : ''
      }.`,
    'Each step is packed by the trainer-side prepare_batch: samples truncated to seq_len, first-fit decreasing into seq_len-token micro-batches, ' +
      'split up to a multiple of the ranks, then balanced over the ranks by Karmarkar–Karp with swap refinement on token counts (the cost ' +
      "BatchPacker uses when the model config cannot load; with it, estimated FLOPs). A rank's samples here are its micro-batches in order; " +
      'zero-loss padding micro-batches hold none.',
  ];
  if (c.tokenBatchSize !== null) {
    out.push(
      `token_batch_size ${c.tokenBatchSize}: a step ends at the first trace where the queued tokens reach it, so a group can straddle two steps; ` +
        `a step's sources then index its samples in arrival order.`,
    );
  } else if (c.maxSteps === null) {
    out.push('max_steps is unset (prime-rl would run indefinitely); the sandbox stops after --epochs passes over the tasks.');
  }
  if (synthetic) {
    out.push(
      `Token counts are synthetic: torch.randint(${SYNTHETIC_SEQLEN.low}, ${SYNTHETIC_SEQLEN.high}) per dispatched sample from a generator seeded ` +
        `with --seed ${c.seed}.`,
    );
  }
  return out;
}

const packing: PackerDef = {
  about:
    'prepare_batch (trainer/batch.py): truncate to orchestrator.seq_len, first-fit decreasing into seq_len-token micro-batches, split to a ' +
    'multiple of num_train_workers, pad each to a multiple of trainer.model.cp, then Karmarkar–Karp + swaps on token counts over the ranks; a ' +
    'padding micro-batch is an empty list',
  flags: ['seq-len', 'ranks', 'num-train-gpus', 'cp'],
  budget: (s) => keyBudget(keys, s, 'seq-len', 'cap'),
  pack(seqlens, settings) {
    const c = resolveConfig(settings);
    const ranks = prepareBatch(seqlens, c.seqLen, c.ranks, c.padToMultipleOf).map((rank) => rank.map((mb) => mb.samples));
    return { ranks, microBatchesPerRank: ranks[0]?.length ?? 0 };
  },
};

export const home: FrameworkHome = {
  name: 'prime-rl',
  // orchestrator.batch_size counts samples (default 128 when token_batch_size is unset); token_batch_size cuts a step
  // by tokens, at least a sample a step. max_steps stops the run early.
  plannedLayout(s) {
    const samples = (countSetting(s, 'epochs') ?? 1) * (countSetting(s, 'dataset-size') ?? 0) * (countSetting(s, 'k') ?? 1);
    const batch = countSetting(s, 'train-batch-size') ?? (countSetting(s, 'token-batch-size') === null ? 128 : 1);
    const steps = Math.ceil(samples / batch);
    return cappedSteps(
      { steps, samples: steps * batch, lower: '--dataset-size, --epochs, --k or --max-steps' },
      countSetting(s, 'max-steps'),
    );
  },
  title: 'PrimeIntellect prime-rl',
  pinned: {
    repo: 'PrimeIntellect-ai/prime-rl',
    commit: PRIME_RL_COMMIT,
    date: '2026-08-21',
    files: [
      'packages/prime-rl-configs/src/prime_rl/configs/orchestrator.py',
      'packages/prime-rl-configs/src/prime_rl/configs/rl.py',
      'src/prime_rl/orchestrator/train_source.py',
      'src/prime_rl/orchestrator/curriculum/samplers/standard.py',
      'src/prime_rl/orchestrator/train_sink.py',
      'src/prime_rl/orchestrator/packing.py',
      'src/prime_rl/trainer/batch.py',
      'src/prime_rl/orchestrator/algo/grpo.py',
    ],
  },
  configFormat: 'toml',
  keys,
  layout,
  advantages,
  packing,
  trainer: PRIME_RL_TRAINER,
  // batch_size counts samples (rollouts), not prompts: the batch's samples.
  oneStep: (b) => ({ ...oneStepBase(b), 'train-batch-size': String(b.samples) }),
  presets,
  checkedBy: [
    'test/fixtures/golden-prime-rl-layout.json (scripts/golden/prime_rl_layout.py): exec — trainer/batch.py prepare_batch and balanced_partition, ' +
      "train_sink.py's batch cutting and StandardSampler run from the checkout on seeded lengths; transcribed: groups finish in dispatch order, all " +
      'admitted, none stale',
    'test/fixtures/golden-prime-rl-trainer.json (scripts/golden/prime_rl_trainer.py): exec — trainer/batch.py prepare_batch and ' +
      "trainer/rl/loss.py compute_loss by torch autograd; transcribed: train.py's rl_scale (all-reduced loss-mask tokens, max 1) and FSDP's mean " +
      'undone by fsdp_gradient_divide_factor (CUDA, FSDP)',
    'test/fixtures/golden-prime-rl-layout.json advantages: exec — algo/grpo.py score_group (float32 torch) with and without the length penalty',
  ],
};
