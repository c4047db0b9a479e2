// TRL's GRPOTrainer data path: RepeatSampler → DataLoader(batch = per_device_batch × steps_per_generation)
// → accelerate's BatchSamplerShard (process p takes every W-th batch, starting at p).
import { type Fact, configError, fact, fixClauses } from '../../messages/index.ts';
import type { LayoutConfig, LayoutStep } from '../../layout/types.ts';
import { Mt19937, randperm } from '../../rng/index.ts';
import { trlCounts } from '../../samplers/counts.ts';
import { TRL_VERSION, trlSays, raises } from '../../samplers/framework-errors.ts';
import {
  batchesFact,
  byNearness,
  divisors,
  type FixCheck,
  gcd,
  passingMultiples,
  passingValues,
  validKFact,
} from '../../samplers/rules.ts';
import { trlFramework } from './wrappers.ts';
import type { SamplerSpec } from '../../samplers/spec.ts';
import { loaderSettingsIgnored } from '../../samplers/loader.ts';

/**
 * One pass (one epoch) of TRL's RepeatSampler over `datasetSize` items: randperm from `gen`
 * (seeded once per run, so later epochs continue its stream), chunks of `batchSize` (an
 * incomplete last chunk is dropped), each chunk `repeatCount` times, each index
 * `miniRepeatCount` times in a row. Returns the yielded dataset indices in order.
 */
export function repeatSamplerPass(
  datasetSize: number,
  miniRepeatCount: number,
  batchSize: number,
  repeatCount: number,
  gen: Mt19937,
): number[] {
  const order = randperm(datasetSize, gen);
  const out: number[] = [];
  for (let start = 0; start + batchSize <= datasetSize; start += batchSize) {
    for (let rep = 0; rep < repeatCount; rep++) {
      for (let j = start; j < start + batchSize; j++) {
        for (let c = 0; c < miniRepeatCount; c++) out.push(order[j]!);
      }
    }
  }
  return out;
}

/** TRL's derived sizes for a config: generation batch (samples), prompts per generation, dataloader repeats. */
export function trlSizes(config: LayoutConfig) {
  const generationBatch = config.batch * config.ranks * config.stepsPerGeneration;
  return {
    generationBatch,
    /** RepeatSampler's batch_size: distinct prompts per generation batch. */
    promptsPerGeneration: generationBatch / config.k,
    /** RepeatSampler's repeat_count: dataloader rounds that carry the same generation batch. */
    repeatCount: config.numIterations * config.stepsPerGeneration,
    /** Samples each process loads per dataloader batch. */
    perProcess: config.batch * config.stepsPerGeneration,
  };
}

export const trl: SamplerSpec = {
  name: 'trl',
  title: 'TRL GRPOTrainer: RepeatSampler + accelerate per-process sharding of each generation batch',
  // TRL gathers rewards once per generation batch (in _generate_and_score_completions) and
  // regroups them with view(-1, num_generations) right there.
  gatherScope: 'step',
  drawScope: 'step',
  validate(config, passes) {
    const { k } = config;
    const framework = trlFramework(config);
    const version = framework?.version ?? `TRL ${TRL_VERSION}`;
    if (k < 2 && (framework?.checksTwoGenerations ?? true)) {
      return configError([fact('trl.k-at-least-2', { k }), raises(version, trlSays.tooFewGenerations(k))], [{ k: 2 }]);
    }
    const sp = config.sequenceParallelSize ?? 1;
    if (config.ranks % sp !== 0) {
      return configError(
        [fact('trl.sp-divide', { sp, ranks: config.ranks })],
        [{ ranks: sp * Math.max(1, Math.round(config.ranks / sp)) }],
      );
    }
    const gen = config.batch * config.ranks * config.stepsPerGeneration;
    if (gen % k !== 0) {
      const valid = divisors(gen).filter((d) => d >= 2);
      // Only fixes that pass every rule (the dataset, the size limits) are named.
      const ks = passingValues(byNearness(valid, k), 'k', passes);
      const batches = passingMultiples(config.batch, k / gcd(k, config.ranks * config.stepsPerGeneration), passes);
      // Every framework here accepts more micro-batches per generation: steps_per_generation, which defaults to GA.
      const spgs = passingStepsPerGeneration(config, passes);
      config.stepsPerGeneration === config.gradientAccumulationSteps ? 'gradient-accumulation-steps' : 'steps-per-generation';
      return configError(
        [
          fact('trl.k-divide-generation', {
            k,
            ranks: config.ranks,
            batch: config.batch,
            stepsPerGeneration: config.stepsPerGeneration,
            generation: gen,
          }),
          ...fixClauses([
            validKFact(ks),
            batchesFact(batches, config.ranks * config.stepsPerGeneration),
            spgs.length
              ? fact('fix.steps-per-generation', {
                  values: spgs,
                  followsGa: config.stepsPerGeneration === config.gradientAccumulationSteps,
                })
              : null,
          ]),
          raises(version, framework ? framework.notDivisible(config) : trlSays.generationNotDivisibleByK(gen, k)),
        ],
        [
          ...ks.values.slice(0, 1).map((v) => ({ k: v })),
          ...batches.map((b) => ({ batch: b })),
          ...spgs.map((v) => ({ stepsPerGeneration: v })),
        ],
      );
    }
    const prompts = gen / k;
    if (prompts > config.datasetSize) {
      const ok = passes({ datasetSize: prompts });
      return configError(
        [
          fact('trl.dataset-short', { prompts, generation: gen, k, datasetSize: config.datasetSize }),
          ...fixClauses([ok ? fact('fix.dataset-size', { min: prompts }) : null]),
        ],
        ok ? [{ datasetSize: prompts }] : [],
      );
    }
    return null;
  },
  effective(config) {
    // One layout step per generation batch: the number of full chunks RepeatSampler cuts from one permutation.
    return { ...config, batchesPerEpoch: Math.floor(config.datasetSize / trlSizes(config).promptsPerGeneration) };
  },
  ignores: {
    ...loaderSettingsIgnored,
    batchesPerEpoch: 'ignores.trl-batches',
  },
  counts: trlCounts,
  perRankPerStep: (config) => config.batch * config.stepsPerGeneration,
  // The randperm plus every index the dataloader yields, repeats included. steps() builds one copy of each
  // chunk, not its repeats, so this bounds more than the work; it stays the limit it was (what a run yields).
  draws: (c) => {
    const { promptsPerGeneration, repeatCount } = trlSizes(c);
    return c.epochs * (c.datasetSize + Math.floor(c.datasetSize / promptsPerGeneration) * promptsPerGeneration * c.k * repeatCount);
  },
  steps(config) {
    const { promptsPerGeneration, perProcess } = trlSizes(config);
    const W = config.ranks;
    // RepeatSampler's generator is seeded once, when the trainer builds it.
    const gen = new Mt19937(config.seed);
    const steps: LayoutStep[] = [];
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      // RepeatSampler yields each chunk (one generation batch, perProcess × W samples) repeatCount times in a
      // row. DataLoader batches of perProcess indices; BatchSamplerShard gives batch b to process b mod W, so
      // each round of W batches is one copy of a chunk split into W contiguous blocks. TRL generates only when
      // its step counter is a multiple of steps_per_generation × num_iterations, i.e. on a chunk's first copy;
      // the other copies are loaded and ignored (the buffered generation is reused), so one copy is built.
      const stream = repeatSamplerPass(config.datasetSize, config.k, promptsPerGeneration, 1, gen);
      const chunks = stream.length / (perProcess * W);
      for (let chunk = 0; chunk < chunks; chunk++) {
        const ranks: number[][] = [];
        for (let p = 0; p < W; p++) {
          const start = (chunk * W + p) * perProcess;
          ranks.push(stream.slice(start, start + perProcess));
        }
        steps.push({ epoch, step: chunk, ranks });
      }
    }
    return steps;
  },
  notes(config) {
    const { generationBatch, promptsPerGeneration, repeatCount, perProcess } = trlSizes(config);
    const notes: Fact[] = [
      ...frameworkNotes(config),
      fact('note.trl.step', { samples: generationBatch, prompts: promptsPerGeneration, k: config.k, block: perProcess }),
      fact('note.trl.seed', { dropped: config.datasetSize % promptsPerGeneration }),
    ];
    notes.push(
      repeatCount === 1
        ? fact('note.trl.no-reuse')
        : fact('note.trl.reuse', { times: repeatCount, iterations: config.numIterations, stepsPerGeneration: config.stepsPerGeneration }),
    );
    if (config.stepsPerGeneration > 1) {
      notes.push(
        fact('note.trl.micro-batches', {
          block: perProcess,
          stepsPerGeneration: config.stepsPerGeneration,
          batch: config.batch,
          accumulation: config.gradientAccumulationSteps,
        }),
      );
    }
    if (perProcess % config.k !== 0) notes.push(fact('note.trl.straddle', { block: perProcess, k: config.k }));
    return notes;
  },
  // One layout step is one generation batch: steps_per_generation micro-batches per rank.
  stepNoun: 'generation batch',
  ownSettings: ['generationBatchSize', 'sequenceParallelSize'],
  // The framework pinned (TRL 0.18.2, Unsloth, ms-swift) and what it did to the batch, where given.
  configFields: ['framework', 'sequenceParallelSize', 'perDeviceBatchAsWritten'],
  buildsPerLayout: 1,
  seedNotes: (layout) => (stepIndex) => (stepIndex === 0 ? `; RepeatSampler seeded ${layout.config.seed} once` : ''),
};

/** The nearest steps_per_generation above the current one that makes the generation batch divide by k, if it passes every rule. */
function passingStepsPerGeneration(config: LayoutConfig, passes: FixCheck): number[] {
  const step = config.k / gcd(config.k, config.batch * config.ranks);
  const next = Math.ceil((config.stepsPerGeneration + 1) / step) * step;
  return [next].filter((v) => passes({ stepsPerGeneration: v }));
}

/** What the pinned framework did to the settings, as it happened: Unsloth's rewrite (its notice verbatim), ms-swift's sequence parallelism. */
function frameworkNotes(config: LayoutConfig): Fact[] {
  const framework = trlFramework(config);
  if (!framework) return [];
  return [
    fact('note.trl.framework', { framework: framework.name, version: framework.version, pinnedTo: framework.pinnedTo }),
    ...framework.notes(config),
  ];
}

/** What the user set for TRL's batching; absent = not given (TRL's None). */
export interface TrlBatchingArgs {
  batch: number;
  ranks: number;
  gradientAccumulationSteps: number;
  stepsPerGeneration?: number;
  generationBatchSize?: number;
}

/**
 * steps_per_generation as TRL's GRPOConfig.__post_init__ (TRL 1.13.0) derives it: given, or
 * generation_batch_size / (per_device_train_batch_size × processes), or gradient_accumulation_steps
 * when neither is given. Giving both, or a generation batch that is not a multiple of the global
 * batch, is TRL's ValueError; it becomes a ConfigError that quotes it. The generation batch sizes it
 * suggests are those whose steps_per_generation `passes` accepts (the caller runs the whole
 * configuration through validateConfig), searched over a few multiples either side.
 */
export function trlStepsPerGeneration(args: TrlBatchingArgs, passes: (stepsPerGeneration: number) => boolean = () => true): number {
  const { stepsPerGeneration: spg, generationBatchSize: gbs } = args;
  if (spg !== undefined && gbs !== undefined) {
    throw configError([fact('trl.both-given'), raises(`TRL ${TRL_VERSION}`, trlSays.bothGiven())]);
  }
  if (gbs !== undefined) {
    const global = args.batch * args.ranks;
    if (gbs % global !== 0) {
      const near = passingMultiples(gbs / global, 1, (fix) => passes(fix.batch as number)).map((spg) => spg * global);
      throw configError([
        fact('trl.generation-batch-multiple', { generationBatchSize: gbs, global }),
        ...fixClauses([near.length ? fact('fix.flag-values', { flag: 'generation-batch-size', values: near }) : null]),
        raises(`TRL ${TRL_VERSION}`, trlSays.generationNotDivisibleByGlobalBatch(gbs, global)),
      ]);
    }
    return gbs / global;
  }
  return spg ?? args.gradientAccumulationSteps;
}
