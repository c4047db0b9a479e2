import { type Fact, configError, fact, fixClauses } from '../../messages/index.ts';
import type { LayoutConfig, LayoutStep } from '../../layout/types.ts';
import { Mt19937, randint, randperm } from '../../rng/index.ts';
import type { TrainingCounts } from '../../layout/types.ts';
import { VERL_VERSION, verlSays, raises } from '../../samplers/framework-errors.ts';
import { batchesFact, byNearness, divisors, gcd, passingMultiples, passingValues, validKFact } from '../../samplers/rules.ts';
import type { SamplerSpec } from '../../samplers/spec.ts';
import { balanceBatchOrder, keepMinibatchOrder, prefixGrouperOrder } from './balance.ts';
import { ownMicroBatchCount, verlMaxTokenLen, verlMaxTokenLenText } from './rearrange.ts';

/** The layout settings only the verl sampler reads; every other sampler refuses them when given. */
export const VERL_ONLY_FIELDS = [
  'balanceBatch',
  'ppoMiniBatchSize',
  'ppoMicroBatchSizePerGpu',
  'dataloaderNumWorkers',
  'usePrefixGrouper',
  'keepMinibatch',
  'useDynamicBsz',
  'ppoMaxTokenLenPerGpu',
  'ulyssesSequenceParallelSize',
] as const;

/** torch.Generator()'s seed when nothing seeds it: what verl's data.seed null leaves the RandomSampler with. */
export const TORCH_DEFAULT_SEED = 67280421310721;

/** The synthetic token counts when none are measured: torch.randint(LOW, HIGH, (samples,), generator seeded with --seed), per step. */
export const SYNTHETIC_SEQLEN = { low: 64, high: 1025 } as const;

/** Largest token count a measured sample may have (a workload sum per step must stay exact in a double). */
export const MAX_SEQLEN = 1 << 20;

/** verl's sizes for a sandbox config: prompts per step, samples per step, and the actor's normalised batches. */
export function verlSizes(c: LayoutConfig) {
  const samples = c.ranks * c.batch;
  const trainBatchSize = samples / c.k;
  const mini = c.ppoMiniBatchSize || trainBatchSize;
  // ActorRolloutRefWorker: ppo_mini_batch_size *= rollout.n; //= dp size (samples per rank per mini-batch).
  const normalisedMini = Math.floor((mini * c.k) / c.ranks);
  const micro = c.ppoMicroBatchSizePerGpu || normalisedMini;
  return { samples, trainBatchSize, mini, normalisedMini, micro, stepsPerEpoch: Math.floor(c.datasetSize / trainBatchSize) };
}

/** Each step's token counts in generation order: the measured ones in turn, else the synthetic draws. */
function stepSeqlens(c: LayoutConfig, stepsDone: number, count: number, gen: Mt19937): number[] {
  if (c.seqlens) return c.seqlens.slice(stepsDone * count, (stepsDone + 1) * count);
  return Array.from(randint(gen, SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, count));
}

/**
 * The micro-batch count in two named parts: per mini-batch (ceil(mini-batch / micro), the short last
 * mini-batch's own), then per pass over the step's mini-batches (their sum, what one ppo_epoch runs).
 */
function microBatchesFactor(miniSizes: number[], normalisedMini: number, micro: number): string {
  const perMini = miniSizes.map((m) => Math.ceil(m / micro));
  const total = perMini.reduce((a, b) => a + b, 0);
  const last = miniSizes.at(-1)!;
  const short =
    miniSizes.length > 1 && last < normalisedMini ? `, the short last one of ${last}: ceil(${last} / ${micro}) = ${perMini.at(-1)}` : '';
  const n = miniSizes.length;
  const sum = n === 1 ? `${total}` : short ? `${perMini.join(' + ')} = ${total}` : `${n} × ${perMini[0]} = ${total}`;
  return (
    `micro-batches per mini-batch = ceil(mini-batch ${miniSizes[0]} / ppo_micro_batch_size_per_gpu ${micro}) = ${perMini[0]}${short} ` +
    `(gradient accumulation ${Math.floor(normalisedMini / micro)}); micro-batches per pass over the step's ${n} ` +
    `mini-batch${n === 1 ? '' : 'es'}: ${sum}.`
  );
}

/**
 * actor.use_dynamic_bsz: each training step's micro-batches per pass, read from its seqlens as update_policy cuts them
 * (per mini-batch, the ranks' maximum of min(samples, ceil(tokens / (ppo_max_token_len_per_gpu × ulysses sp)))).
 */
function dynamicMicroPerPass(c: LayoutConfig): number[] {
  const { normalisedMini } = verlSizes(c);
  const budget = verlMaxTokenLen(c).tokens;
  return verlSteps(c).map((step) => {
    const perRank = c.batch;
    const rankSeqlens = (r: number) => step.order!.slice(r * perRank, (r + 1) * perRank).map((i) => step.seqlens![i]!);
    const ranks = Array.from({ length: c.ranks }, (_, r) => rankSeqlens(r));
    let total = 0;
    for (let start = 0; start < perRank; start += normalisedMini) {
      total += Math.max(...ranks.map((s) => ownMicroBatchCount(s.slice(start, start + normalisedMini), budget)));
    }
    return total;
  });
}

/** The micro-batch count under use_dynamic_bsz, in words: the rule, and the counts the steps' seqlens give. */
function dynamicFactor(c: LayoutConfig, perStep: number[], minis: number): string {
  const maxTokenLen = verlMaxTokenLen(c);
  const budget = maxTokenLen.tokens;
  const least = Math.min(...perStep);
  const most = Math.max(...perStep);
  const range = least === most ? `${least}` : `${least} to ${most}`;
  return (
    `use_dynamic_bsz: each mini-batch goes through rearrange_micro_batches(max_token_len = ${verlMaxTokenLenText(maxTokenLen)}), ` +
    `min(samples, ceil(tokens / ${budget})) micro-batches, the ranks' maximum; the steps' seqlens give ${range} micro-batches per pass ` +
    `over the step's ${minis} mini-batch${minis === 1 ? '' : 'es'}.`
  );
}

function verlCounts(c: LayoutConfig): TrainingCounts {
  const { trainBatchSize, mini, normalisedMini, micro, stepsPerEpoch } = verlSizes(c);
  const perRank = c.batch;
  const sp = c.ulyssesSequenceParallelSize ?? 1;
  // dp_actor.update_policy: data.split(mini) (a short last one is kept), each split into micro-batches.
  const miniSizes: number[] = [];
  for (let left = perRank; left > 0; left -= normalisedMini) miniSizes.push(Math.min(left, normalisedMini));
  const dynamic = c.useDynamicBsz ? dynamicMicroPerPass(c) : null;
  const microPerPass = miniSizes.reduce((sum, m) => sum + Math.ceil(m / micro), 0);
  const firstEpoch = dynamic ? dynamic.slice(0, stepsPerEpoch).reduce((a, b) => a + b, 0) : stepsPerEpoch * microPerPass;
  const perEpoch = {
    generationBatches: stepsPerEpoch,
    microSteps: c.numIterations * firstEpoch,
    optimizerSteps: stepsPerEpoch * c.numIterations * miniSizes.length,
  };
  const times = (n: number) => ({
    generationBatches: perEpoch.generationBatches * n,
    microSteps: dynamic ? c.numIterations * dynamic.reduce((a, b) => a + b, 0) : perEpoch.microSteps * n,
    optimizerSteps: perEpoch.optimizerSteps * n,
  });
  return {
    perEpoch,
    total: times(c.epochs),
    factors: [
      `verl: training steps per epoch = len(StatefulDataLoader) = floor(dataset ${c.datasetSize} / data.train_batch_size ${trainBatchSize}) = ` +
        `${stepsPerEpoch} (drop_last=True); total_training_steps = ${stepsPerEpoch} × trainer.total_epochs ${c.epochs}.`,
      `each step: ${trainBatchSize} prompts × rollout.n ${c.k} = ${c.ranks * c.batch} samples, ${perRank} per rank (dp size ${c.ranks}` +
        (sp > 1 ? `; × ulysses_sequence_parallel_size ${sp} = ${c.ranks * sp} GPUs, a group's ${sp} GPUs given the same samples).` : ').'),
      `ppo_mini_batch_size ${mini} prompts → normalised per rank: ${mini} × n ${c.k} // ` +
        (sp > 1 ? `(GPUs ${c.ranks * sp} // sp ${sp} = dp ${c.ranks})` : `dp ${c.ranks}`) +
        ` = ${normalisedMini} samples; ` +
        `mini-batches per step = ${miniSizes.length} (${miniSizes.join(' + ')} samples), one optimizer step each.`,
      dynamic ? dynamicFactor(c, dynamic, miniSizes.length) : microBatchesFactor(miniSizes, normalisedMini, micro),
      `× ppo_epochs ${c.numIterations}: ${perEpoch.optimizerSteps / stepsPerEpoch || 0} optimizer steps and ` +
        `${perEpoch.microSteps / stepsPerEpoch || 0} micro-steps per training step${dynamic ? ' (the first epoch’s mean)' : ''}.`,
    ],
  };
}

/** The steps of a config: each epoch's randperm, train_batch_size prompts per step repeated n times, dispatched by _balance_batch. */
function verlSteps(c: LayoutConfig): LayoutStep[] {
  const { trainBatchSize, samples } = verlSizes(c);
  const perRank = samples / c.ranks;
  // create_rl_sampler: torch.Generator().manual_seed(data.seed), once; each epoch's iterator draws one randperm from it.
  const gen = new Mt19937(c.seed);
  const lengths = new Mt19937(c.seed);
  const steps: LayoutStep[] = [];
  for (let epoch = 0; epoch < c.epochs; epoch++) {
    // With workers, StatefulDataLoader's multiprocessing iterator makes the sampler iterator twice
    // (measured with torchdata 0.11): the first permutation is drawn and thrown away.
    if ((c.dataloaderNumWorkers ?? 8) > 0) randperm(c.datasetSize, gen);
    const perm = randperm(c.datasetSize, gen);
    for (let step = 0; step < c.batchesPerEpoch; step++) {
      const prompts = perm.subarray(step * trainBatchSize, (step + 1) * trainBatchSize);
      const generated = Array.from(prompts).flatMap((id) => Array<number>(c.k).fill(id));
      const seqlens = stepSeqlens(c, steps.length, samples, lengths);
      const order = dispatchOrder(c, seqlens);
      const ranks = Array.from({ length: c.ranks }, (_, r) => order.slice(r * perRank, (r + 1) * perRank).map((i) => generated[i]!));
      steps.push({ epoch, step, ranks, seqlens, order });
    }
  }
  return steps;
}

/** What _balance_batch does to a step, by its branch. */
function balancingNote(c: LayoutConfig): Fact {
  const balancing = verlBalancing(c);
  if (balancing === 'off') return fact('note.verl.unbalanced', { k: c.k, perRank: c.batch, straddle: c.batch % c.k !== 0 });
  if (balancing === 'prefix-grouper') return fact('note.verl.prefix-grouper', { k: c.k, groups: c.batch / c.k });
  if (balancing === 'keep-minibatch') {
    const { mini, samples } = verlSizes(c);
    return fact('note.verl.keep-minibatch', { slice: mini, slices: samples / mini, perRank: mini / c.ranks });
  }
  return fact('note.verl.balanced', { k: c.k });
}

/** Which of _balance_batch's branches a config takes: the prefix grouper's comes first, then keep_minibatch's. */
function verlBalancing(c: LayoutConfig): 'off' | 'prefix-grouper' | 'keep-minibatch' | 'default' {
  if (!(c.balanceBatch ?? true)) return 'off';
  if (c.usePrefixGrouper) return 'prefix-grouper';
  return c.keepMinibatch ? 'keep-minibatch' : 'default';
}

/** The order in which dispatch hands a step's samples (indices in generation order) to the ranks, contiguous chunks. */
function dispatchOrder(c: LayoutConfig, seqlens: number[]): number[] {
  const balancing = verlBalancing(c);
  if (balancing === 'off') return seqlens.map((_, i) => i);
  if (balancing === 'prefix-grouper') return prefixGrouperOrder(seqlens, c.k, c.ranks);
  if (balancing === 'keep-minibatch') return keepMinibatchOrder(seqlens, c.ranks, verlSizes(c).mini);
  return balanceBatchOrder(seqlens, c.ranks);
}

export const verl: SamplerSpec = {
  name: 'verl',
  title:
    `verl (${VERL_VERSION}): stateful RandomSampler seeded once, train_batch_size prompts per step (drop_last), repeat(n, interleave=True), ` +
    `_balance_batch by token workload, equal contiguous chunks per rank`,
  // No all-gather: the driver holds the step's whole batch; the rank-major order is the dispatch order.
  gatherScope: 'step',
  drawScope: 'step',
  validate(c, passes) {
    const { samples } = verlSizes(c);
    if (samples % c.k !== 0) {
      const ks = passingValues(byNearness(divisors(samples), c.k), 'k', passes);
      const batches = passingMultiples(c.batch, c.k / gcd(c.k, c.ranks), passes);
      return configError(
        [
          fact('verl.samples-not-prompts', { ranks: c.ranks, batch: c.batch, samples, k: c.k }),
          ...fixClauses([validKFact(ks), batchesFact(batches)]),
        ],
        [...ks.values.slice(0, 1).map((v) => ({ k: v })), ...batches.map((b) => ({ batch: b }))],
      );
    }
    const sp = c.ulyssesSequenceParallelSize ?? 1;
    if (sp > 1 && !c.useDynamicBsz && samples % (c.ranks * sp) !== 0) {
      // validate_config (utils/config.py:86-113), without use_dynamic_bsz: minimal_bsz = n_gpus, and the GPUs are ranks × sp.
      const batches = passingMultiples(c.batch, sp, passes);
      return configError(
        [
          fact('verl.ulysses-gpus', { ranks: c.ranks, batch: c.batch, samples, sp, gpus: c.ranks * sp }),
          ...fixClauses([batchesFact(batches)]),
          raises(VERL_VERSION, verlSays.notDivisibleByGpus(samples, c.ranks * sp)),
        ],
        batches.map((b) => ({ batch: b })),
      );
    }
    const { trainBatchSize, mini, normalisedMini, micro, stepsPerEpoch } = verlSizes(c);
    if (stepsPerEpoch < 1) {
      const ok = passes({ datasetSize: trainBatchSize });
      return configError(
        [
          fact('verl.dataset-short', { datasetSize: c.datasetSize, trainBatch: trainBatchSize }),
          ...fixClauses([ok ? fact('fix.dataset-size', { min: trainBatchSize }) : null]),
          raises(VERL_VERSION, verlSays.emptyDataloader()),
        ],
        ok ? [{ datasetSize: trainBatchSize }] : [],
      );
    }
    if (mini > trainBatchSize) {
      return configError(
        [
          fact('verl.mini-above', { mini, trainBatch: trainBatchSize }),
          fact('fix.mini-at-most', { most: trainBatchSize }),
          raises(VERL_VERSION, verlSays.miniAboveTrainBatch(trainBatchSize, mini)),
        ],
        [{ ppoMiniBatchSize: 0 }],
      );
    }
    if (normalisedMini < 1) {
      const least = Math.ceil(c.ranks / c.k);
      return configError(
        [
          fact('verl.mini-empty', { mini, k: c.k, ranks: c.ranks }),
          fact('fix.at-least', { least }),
          raises(VERL_VERSION, verlSays.miniZeroAfterNormalisation(normalisedMini)),
        ],
        [{ ppoMiniBatchSize: least }],
      );
    }
    if (normalisedMini % micro !== 0) {
      const ok = divisors(normalisedMini).filter((d) => passes({ ppoMicroBatchSizePerGpu: d }));
      return configError(
        [
          fact('verl.micro-divide', { micro, mini, k: c.k, ranks: c.ranks, normalised: normalisedMini }),
          ...fixClauses([ok.length ? fact('fix.valid-here', { values: ok }) : null]),
          raises(VERL_VERSION, verlSays.microDoesNotDivide(normalisedMini, micro)),
        ],
        ok.map((d) => ({ ppoMicroBatchSizePerGpu: d })),
      );
    }
    const balancing = verlBalancing(c);
    if (balancing === 'prefix-grouper' && trainBatchSize % c.ranks !== 0) {
      const ok = passingMultiples(trainBatchSize, c.ranks, (fix) => passes({ batch: ((fix.batch as number) * c.k) / c.ranks }));
      return configError(
        [
          fact('verl.prefix-grouper-groups', { groups: trainBatchSize, ranks: c.ranks }),
          ...fixClauses([ok.length ? fact('fix.flag-values', { flag: 'train-batch-size', values: ok }) : null]),
          raises(VERL_VERSION, verlSays.prefixGrouperGroups(trainBatchSize, c.ranks, samples)),
        ],
        ok.map((p) => ({ batch: (p * c.k) / c.ranks })),
      );
    }
    if (balancing === 'keep-minibatch') {
      // _balance_batch slices the sample list with ppo_mini_batch_size as written (prompts), one slice per KK call.
      if (mini < c.ranks) {
        return configError([
          fact('verl.keep-minibatch-slice', { slice: mini, ranks: c.ranks }),
          raises(VERL_VERSION, verlSays.fewerThanPartitions(mini, c.ranks)),
        ]);
      }
      if (mini % c.ranks !== 0) {
        return configError([
          fact('verl.keep-minibatch-slice', { slice: mini, ranks: c.ranks }),
          raises(VERL_VERSION, verlSays.balanceNotDivisible(mini, c.ranks)),
        ]);
      }
      if (samples % mini !== 0) return configError([fact('verl.keep-minibatch-partial', { samples, slice: mini })]);
    }
    if (c.useDynamicBsz) {
      // rearrange_micro_batches asserts max_token_len >= the attention mask's width, at least the longest sample here;
      // max_token_len is ppo_max_token_len_per_gpu × ulysses_sequence_parallel_size (dp_actor.py:552).
      const budget = verlMaxTokenLen(c).tokens;
      const longest = c.seqlens ? c.seqlens.reduce((a, b) => Math.max(a, b), 0) : SYNTHETIC_SEQLEN.high - 1;
      if (budget < longest) return configError([raises(VERL_VERSION, verlSays.maxTokenLenBelowWidth(budget, longest))]);
    }
    if (c.seqlens) {
      const need = c.epochs * stepsPerEpoch * samples;
      const bad = c.seqlens.findIndex((s) => !Number.isSafeInteger(s) || s < 1 || s > MAX_SEQLEN);
      if (bad >= 0) return configError([fact('verl.seqlen-bad', { index: bad, got: c.seqlens[bad]!, max: MAX_SEQLEN })]);
      if (c.seqlens.length < need) {
        return configError([
          fact('verl.seqlens-short', { given: c.seqlens.length, need, epochs: c.epochs, steps: stepsPerEpoch, samples }),
        ]);
      }
    }
    return null;
  },
  effective: (c) => ({ ...c, batchesPerEpoch: verlSizes(c).stepsPerEpoch }),
  ignores: {
    numWorkers: 'ignores.verl-loader',
    prefetchFactor: 'ignores.verl-loader',
    acceleratePrepare: 'ignores.verl-loader',
    batchesPerEpoch: 'ignores.verl-batches',
    stepsPerGeneration: 'ignores.trl-only',
    gradientAccumulationSteps: 'ignores.verl-ga',
  },
  counts: verlCounts,
  perRankPerStep: (c) => c.batch,
  // One randperm per epoch, plus one synthetic length per sample.
  draws: (c) => c.epochs * (2 * c.datasetSize + c.batchesPerEpoch * c.ranks * c.batch),
  steps: verlSteps,
  notes(c) {
    const { trainBatchSize, samples, stepsPerEpoch } = verlSizes(c);
    const workers = c.dataloaderNumWorkers ?? 8;
    const sp = c.ulyssesSequenceParallelSize ?? 1;
    const notes: Fact[] = [
      fact('note.verl.step', { prompts: trainBatchSize, k: c.k, samples, chunk: c.batch }),
      fact('note.verl.seed', {
        seed: c.seed,
        workers: workers > 0 ? workers : null,
        datasetSize: c.datasetSize,
        defaultSeed: TORCH_DEFAULT_SEED,
      }),
      fact('note.verl.drop-last', { dropped: c.datasetSize - stepsPerEpoch * trainBatchSize }),
      balancingNote(c),
      ...(sp > 1 ? [fact('note.verl.ulysses', { ranks: c.ranks, sp, gpus: c.ranks * sp, chunk: c.batch })] : []),
      c.seqlens
        ? fact('note.verl.measured-seqlens', { count: c.seqlens.length })
        : fact('note.verl.synthetic-seqlens', { low: SYNTHETIC_SEQLEN.low, high: SYNTHETIC_SEQLEN.high }),
    ];
    return notes;
  },
  stepNoun: 'batch',
  ownSettings: [...VERL_ONLY_FIELDS, 'trainBatchSize', 'seqlens'],
  configFields: [...VERL_ONLY_FIELDS, 'seqlens'],
  buildsPerLayout: 1,
  seedNotes: (layout) => (stepIndex) => {
    const step = layout.steps[stepIndex]!;
    return step.step === 0 ? `; randperm ${step.epoch} from the RandomSampler's generator, seeded ${layout.config.seed} once` : '';
  },
};
