// flow_grpo's DistributedKRepeatSampler (scatter layout) and its lcm variant.
//
// Both draw m prompts with randperm(datasetSize)[:m], repeat each k times contiguously, shuffle
// the m·k copies with a second randperm from the same generator and hand rank r the slice
// [r·batch, (r+1)·batch) of each W·batch window. Every rank computes the same permutation, so no
// communication is needed to agree on the layout.
import type { LayoutConfig, LayoutStep } from '../../layout/types.ts';
import { Mt19937, randperm } from '../../rng/index.ts';
import { flowGrpoLoopCounts } from '../../samplers/counts.ts';
import { type Fact, configError, fact, fixClauses } from '../../messages/index.ts';
import { FLOW_GRPO_PINNED, flowGrpoSays, raises } from '../../samplers/framework-errors.ts';
import { batchesFact, byNearness, divisors, gcd, passingMultiples, passingValues, validKFact } from '../../samplers/rules.ts';
import { lookAhead, receivedDraws, type Draw, type LoaderModel } from '../../samplers/loader.ts';
import type { SamplerSpec } from '../../samplers/spec.ts';
import { epochSeedNotes, rangesText } from '../../samplers/seed-notes.ts';
import { FLOW_GRPO_FAST } from './fast.ts';

/** One reseeded pass: `g.manual_seed(seed + epochArg)`, m prompts × k copies shuffled, cut into `batches` windows of W·B. */
function scatterPass(config: LayoutConfig, epochArg: number, m: number, batches: number): number[][][] {
  const { ranks, batch, k, datasetSize } = config;
  // seed + epoch is a Python int sum; BigInt keeps it exact before PyTorch's uint64 conversion.
  const gen = new Mt19937(BigInt(config.seed) + BigInt(epochArg));
  const prompts = randperm(datasetSize, gen).subarray(0, m);
  const perm = randperm(m * k, gen);
  const out: number[][][] = [];
  for (let i = 0; i < batches; i++) {
    const window: number[][] = [];
    for (let r = 0; r < ranks; r++) {
      const slots: number[] = [];
      for (let s = 0; s < batch; s++) {
        const pos = i * ranks * batch + r * batch + s;
        // repeated[j] = prompts[floor(j / k)] (copies contiguous before the shuffle)
        slots.push(prompts[Math.floor(perm[pos]! / k)]!);
      }
      window.push(slots);
    }
    out.push(window);
  }
  return out;
}

/**
 * The steps the published loop receives: each rank's next() returns the draw the loader model
 * says (loader.ts), and a draw is the rank's slice of window `pos` of the pass seeded seed + epoch.
 */
function loaderSteps(config: LayoutConfig, m: number, passLength: number, loop: LoaderModel['loop']): LayoutStep[] {
  const received = loaderDraws(config, passLength, loop);
  const passes = new Map<number, number[][][]>();
  const pass = (epoch: number) => {
    let p = passes.get(epoch);
    if (!p) passes.set(epoch, (p = scatterPass(config, epoch, m, passLength)));
    return p;
  };
  const N = config.batchesPerEpoch;
  return received.map((draws, t) => ({
    epoch: Math.floor(t / N),
    step: t % N,
    ranks: draws.map((d, r) => pass(d.epoch)[d.pos]![r]!),
  }));
}

/** received[s][r]: the draw rank r's next() returns at step s under the config's loader and the script's loop. */
function loaderDraws(config: LayoutConfig, passLength: number, loop: LoaderModel['loop']): Draw[][] {
  return receivedDraws({
    numWorkers: config.numWorkers,
    prefetchFactor: config.prefetchFactor,
    acceleratePrepare: config.acceleratePrepare === 1,
    ranks: config.ranks,
    loop,
    passLength,
    epochs: config.epochs,
    batchesPerEpoch: config.batchesPerEpoch,
  });
}

/**
 * seeds[s][r]: the sampler epoch (set_epoch's argument, so manual_seed(seed + it)) of the pass whose batch
 * rank r receives at step s, for flow_grpo's scatter sampler (its loop calls set_epoch(s) before step s,
 * and the loader may hand over a batch drawn before that call) and the lcm one (set_epoch(epoch)).
 */
/**
 * flow_grpo's loop calls set_epoch(t) before step t, but its loader may hand over a batch drawn before
 * that call: the seed of the batch printed (per rank where they differ), as the loader model says.
 */
function scatterSeedNote(seed: number, stepIndex: number, seeds: number[]): string {
  const plus = (n: number) => `manual_seed(${seed} + ${n})`;
  const distinct = [...new Set(seeds)];
  if (distinct.length === 1 && distinct[0] === stepIndex) return `; set_epoch(${stepIndex}) → ${plus(stepIndex)}`;
  if (distinct.length === 1) {
    const e = distinct[0]!;
    return `; set_epoch(${stepIndex}) is called, but the loader hands over the batch set_epoch(${e}) seeded: ${plus(e)}`;
  }
  const ranks = distinct.map((e) => `ranks ${rangesText(seeds.flatMap((x, r) => (x === e ? [r] : [])))} set_epoch(${e})'s (${plus(e)})`);
  return `; set_epoch(${stepIndex}) is called, but the loader hands over earlier batches: ${ranks.join(', ')}`;
}

export function flowGrpoSeeds(config: LayoutConfig, sampler: 'flow-grpo' | 'flow-grpo-lcm'): number[][] {
  const draws = sampler === 'flow-grpo' ? loaderDraws(config, 1, 'once') : loaderDraws(config, config.batchesPerEpoch, 'epoch');
  return draws.map((ranks) => ranks.map((d) => d.epoch));
}

/** The loader settings in flow_grpo's words, e.g. "DataLoader(num_workers=1, prefetch_factor=2) through accelerator.prepare". */
export function loaderText(config: LayoutConfig): string {
  const dl =
    config.numWorkers > 0
      ? `DataLoader(num_workers=${config.numWorkers}, prefetch_factor=${config.prefetchFactor})`
      : 'DataLoader(num_workers=0)';
  return `${dl} ${config.acceleratePrepare === 1 ? 'through accelerator.prepare' : 'not prepared by accelerate'}`;
}

/** The loader settings the notes quote: num_workers, prefetch_factor, and whether accelerator.prepare wraps the loader. */
function loaderParams(config: LayoutConfig): { workers: number; prefetch: number; prepared: boolean } {
  return { workers: config.numWorkers, prefetch: config.prefetchFactor, prepared: config.acceleratePrepare === 1 };
}

/** What the 'once' loop's loader does to the draws, in plain words (flow-grpo's notes). */
function scatterLoaderNote(config: LayoutConfig): Fact {
  const L = lookAhead({ ...config, acceleratePrepare: config.acceleratePrepare === 1 });
  const N = config.batchesPerEpoch;
  if (L === 0) return fact('note.flow-grpo.reseeded', { batches: N });
  return fact('note.flow-grpo.look-ahead', { batches: N, ...loaderParams(config), ahead: L });
}

export const flowGrpo: SamplerSpec = {
  name: 'flow-grpo',
  title: 'flow_grpo DistributedKRepeatSampler, set_epoch(epoch × batches_per_epoch + i) before every batch',
  // flow_grpo's training loop collects every batch of the epoch on each rank, concatenates them,
  // and gathers once per epoch before PerPromptStatTracker computes advantages.
  gatherScope: 'epoch',
  // Reseeded before every batch: each batch draws its prompts afresh.
  drawScope: 'step',
  validate(config, passes) {
    const total = config.ranks * config.batch;
    const { k } = config;
    if (total % k !== 0) {
      const valid = divisors(total);
      // Only fixes that pass every rule (the dataset, the size limits) are named.
      const ks = passingValues(byNearness(valid, k), 'k', passes);
      const batches = passingMultiples(config.batch, k / gcd(k, config.ranks), passes);
      const lcmOk = passes({ sampler: 'flow-grpo-lcm' });
      return configError(
        [
          fact('flow-grpo.k-divide', { k, total }),
          ...fixClauses([
            validKFact(ks),
            batchesFact(batches, config.ranks),
            lcmOk ? fact('fix.sampler', { sampler: 'flow-grpo-lcm' }) : null,
          ]),
          raises(FLOW_GRPO_PINNED, flowGrpoSays.kDoesNotDivide(k, config.ranks, config.batch)),
        ],
        [
          ...ks.values.slice(0, 1).map((v) => ({ k: v })),
          ...batches.map((b) => ({ batch: b })),
          ...(lcmOk ? [{ sampler: 'flow-grpo-lcm' }] : []),
        ],
      );
    }
    const m = total / k;
    if (m > config.datasetSize) {
      const ok = passes({ datasetSize: m });
      return configError(
        [fact('flow-grpo.batch-short', { m, datasetSize: config.datasetSize, fix: ok }), ...(ok ? [] : fixClauses([]))],
        ok ? [{ datasetSize: m }] : [],
      );
    }
    return null;
  },
  effective: (config) => ({ ...config }),
  ignores: { stepsPerGeneration: 'ignores.trl-only' },
  // scripts/train_sd3.py at ac4c86e: DataLoader(batch_sampler=train_sampler, num_workers=1), accelerator.prepare(... train_dataloader ...).
  defaults: { numWorkers: 1, prefetchFactor: 2, acceleratePrepare: 1 },
  counts: (config) => flowGrpoLoopCounts(config, 'flow_grpo'),
  perRankPerStep: (config) => config.batch,
  draws: (c) => c.epochs * c.batchesPerEpoch * (c.datasetSize + c.ranks * c.batch),
  // Each pass is one batch, reseeded from seed + the sampler's epoch when it starts; the loop's
  // set_epoch(epoch × N + i) means each batch to be its own pass, the loader decides which it gets.
  steps: (config) => loaderSteps(config, (config.ranks * config.batch) / config.k, 1, 'once'),
  notes: (config) => [
    ...(config.framework === FLOW_GRPO_FAST.name
      ? [fact('note.flow-grpo.sd3-fast', { script: FLOW_GRPO_FAST.script, commit: FLOW_GRPO_FAST.commit })]
      : []),
    scatterLoaderNote(config),
  ],
  stepNoun: 'batch',
  ownSettings: [],
  configFields: ['framework'],
  // Its loader facts (loader-facts.ts) build the layout a second time, idealised.
  buildsPerLayout: 2,
  seedNotes(layout) {
    const seeds = flowGrpoSeeds(layout.config, 'flow-grpo');
    return (stepIndex) => scatterSeedNote(layout.config.seed, stepIndex, seeds[stepIndex]!);
  },
};

/** Prompts per epoch of the lcm variant: the least m with m·k ≥ batchesPerEpoch·W·B, rounded up to a multiple of W·B / gcd(k, W·B). */
export function lcmPromptsPerEpoch(config: LayoutConfig): number {
  const total = config.ranks * config.batch;
  const step = total / gcd(config.k, total);
  const least = Math.ceil((config.batchesPerEpoch * total) / config.k);
  return Math.ceil(least / step) * step;
}

/**
 * The lcm variant's epochs hold a multiple of this many batches: m·k must fill whole windows of
 * ranks×batch, so batches per epoch = m·k/(W·B) is a multiple of k/gcd(k, W·B).
 */
export function lcmBatchesStep(config: LayoutConfig): number {
  return config.k / gcd(config.k, config.ranks * config.batch);
}

export const flowGrpoLcm: SamplerSpec = {
  name: 'flow-grpo-lcm',
  title: 'flow_grpo-style DistributedKRepeatSampler with k not dividing W·B (one permutation per epoch, lcm-sized epochs)',
  // Same training loop as flow-grpo: batches are concatenated per rank and gathered once per epoch.
  gatherScope: 'epoch',
  // One permutation per epoch; a group's k copies may sit in two consecutive batches.
  drawScope: 'epoch',
  validate(config, passes) {
    const m = lcmPromptsPerEpoch(config);
    if (m > config.datasetSize) {
      const ok = passes({ datasetSize: m });
      return configError(
        [
          fact('flow-grpo-lcm.epoch-short', { m, stepSamples: config.ranks * config.batch, datasetSize: config.datasetSize, fix: ok }),
          ...(ok ? [] : fixClauses([])),
        ],
        ok ? [{ datasetSize: m }] : [],
      );
    }
    return null;
  },
  effective(config) {
    const m = lcmPromptsPerEpoch(config);
    return { ...config, batchesPerEpoch: (m * config.k) / (config.ranks * config.batch) };
  },
  ignores: { stepsPerGeneration: 'ignores.trl-only' },
  // scripts/train_sd3.py at 74db691: DataLoader(batch_sampler=train_sampler, num_workers=1), not prepared.
  defaults: { numWorkers: 1, prefetchFactor: 2, acceleratePrepare: 0 },
  counts: (config) => flowGrpoLoopCounts(config, 'flow_grpo (lcm sampler)'),
  perRankPerStep: (config) => config.batch,
  draws: (c) => c.epochs * (c.datasetSize + c.batchesPerEpoch * c.ranks * c.batch),
  // The script (74db691) calls set_epoch(epoch) and makes a new iterator every epoch, so a fresh pass starts each epoch.
  steps: (config) => loaderSteps(config, lcmPromptsPerEpoch(config), config.batchesPerEpoch, 'epoch'),
  notes(config) {
    const m = lcmPromptsPerEpoch(config);
    return [
      fact('note.flow-grpo-lcm.epoch', { m, k: config.k, batches: config.batchesPerEpoch, stepSamples: config.ranks * config.batch }),
      lcmLoaderNote(config),
    ];
  },
  stepNoun: 'batch',
  ownSettings: [],
  configFields: [],
  buildsPerLayout: 2,
  seedNotes: epochSeedNotes,
};

/** What the 'epoch' loop's loader does (the lcm script makes a new iterator after set_epoch(epoch) every epoch). */
function lcmLoaderNote(config: LayoutConfig): Fact {
  if (config.acceleratePrepare !== 1) return fact('note.flow-grpo-lcm.new-iterator', loaderParams(config));
  return config.ranks > 1
    ? fact('note.flow-grpo-lcm.shards', { ranks: config.ranks, batches: config.batchesPerEpoch })
    : fact('note.flow-grpo-lcm.repeats-pass-0');
}
