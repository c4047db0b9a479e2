// Flow-Factory's group-contiguous layout: DistributedSampler over prompts, each rank takes batch/k
// prompts per step and repeat_interleaves each k times, so every copy of a prompt stays on one rank
// and advantages need no gather. The loop is the corrected one: the first batches-per-epoch batches
// of each epoch, then set_epoch(e + 1). DanceGRPO's own loop (set_epoch(0) only) is dance-grpo.ts.
import { type Fact, configError, fact, fixClauses } from '../messages/index.ts';
import type { LayoutConfig, LayoutStep } from '../layout/types.ts';
import { distributedSamplerAllRanks } from './distributed-sampler.ts';
import { flowGrpoLoopCounts } from './counts.ts';
import { batchesFact, byNearness, divisors, type FixCheck, passingMultiples, passingValues, validKFact } from './rules.ts';
import type { ConfigError } from '../errors.ts';
import type { SamplerSpec } from './spec.ts';
import { epochSeedNotes } from './seed-notes.ts';
import { loaderSettingsIgnored } from './loader.ts';

/** Full batches one epoch holds: per-rank prompts ceil(D/W), in batches of batch/k, the incomplete last one dropped. */
export function batchesInEpoch(config: LayoutConfig): number {
  return Math.floor(Math.ceil(config.datasetSize / config.ranks) / (config.batch / config.k));
}

/**
 * The error when k does not divide the per-rank batch (each rank repeats batch/k prompts k times), with the nearest k
 * and batches that pass every rule; `said` names the rule in the sampler's words.
 */
export function kDividesBatchError(config: LayoutConfig, passes: FixCheck, said: Fact): ConfigError | null {
  const { k, batch } = config;
  if (batch % k === 0) return null;
  // Only fixes that pass every rule (the dataset, the size limits) are named.
  const ks = passingValues(byNearness(divisors(batch), k), 'k', passes);
  const batches = passingMultiples(batch, k, passes);
  return configError(
    [said, ...fixClauses([validKFact(ks), batchesFact(batches)])],
    [...ks.values.slice(0, 1).map((v) => ({ k: v })), ...batches.map((b) => ({ batch: b }))],
  );
}

/**
 * The error when a rank's share of the dataset holds no full batch of batch/k prompts; `said` gets the share per rank
 * and the prompts per step and names the rule in the sampler's words.
 */
export function datasetShortError(
  config: LayoutConfig,
  passes: FixCheck,
  said: (perRank: number, perStep: number) => Fact,
): ConfigError | null {
  if (batchesInEpoch(config) >= 1) return null;
  const need = (config.batch / config.k) * config.ranks;
  const ok = passes({ datasetSize: need });
  return configError(
    [
      said(Math.ceil(config.datasetSize / config.ranks), config.batch / config.k),
      ...fixClauses([ok ? fact('fix.dataset-size', { min: need }) : null]),
    ],
    ok ? [{ datasetSize: need }] : [],
  );
}

export const contiguous: SamplerSpec = {
  name: 'contiguous',
  title:
    'Flow-Factory group-contiguous: DistributedSampler(shuffle, seed) + set_epoch(epoch), the first batches-per-epoch batches of each epoch, ' +
    'each prompt repeated k times on its rank',
  // Advantages are computed locally per group; DanceGRPO gathers per step only for logging.
  gatherScope: 'step',
  drawScope: 'step',
  validate(config, passes) {
    const { k, batch } = config;
    const error =
      kDividesBatchError(config, passes, fact('contiguous.k-divide-batch', { k, batch })) ??
      datasetShortError(config, passes, (perRank, perStep) =>
        fact('contiguous.dataset-short', { datasetSize: config.datasetSize, ranks: config.ranks, perRank, perStep }),
      );
    if (error) return error;
    const most = batchesInEpoch(config);
    if (config.batchesPerEpoch > most) {
      const need = Math.ceil(((config.batchesPerEpoch * batch) / k) * config.ranks);
      const fixes = [{ batchesPerEpoch: most }, { datasetSize: need }].filter((f) => passes(f));
      return configError(
        [
          fact('contiguous.batches-over', {
            batchesPerEpoch: config.batchesPerEpoch,
            ranks: config.ranks,
            perRank: Math.ceil(config.datasetSize / config.ranks),
            most,
            perStep: batch / k,
          }),
          ...fixClauses([
            fixes.length === 0
              ? null
              : fact('fix.batches-per-epoch-or-dataset', {
                  most: fixes.some((f) => 'batchesPerEpoch' in f) ? most : null,
                  need: fixes.some((f) => 'datasetSize' in f) ? need : null,
                }),
          ]),
        ],
        fixes,
      );
    }
    return null;
  },
  effective: (config) => ({ ...config }),
  ignores: { ...loaderSettingsIgnored, stepsPerGeneration: 'ignores.trl-only' },
  counts: (config) => flowGrpoLoopCounts(config, "counted with flow_grpo's training loop (assumed for Flow-Factory's samplers)"),
  perRankPerStep: (config) => config.batch,
  draws: (c) => c.epochs * c.datasetSize,
  steps(config) {
    const promptsPerStep = config.batch / config.k;
    const steps: LayoutStep[] = [];
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      // Each rank builds its own DistributedSampler; all seed seed + epoch and agree on the permutation.
      const perRank = distributedSamplerAllRanks(config.datasetSize, config.ranks, config.seed, epoch);
      // The training loop stops after batches-per-epoch batches and calls set_epoch(epoch + 1).
      for (let step = 0; step < config.batchesPerEpoch; step++) {
        const ranks = perRank.map((mine) =>
          mine.slice(step * promptsPerStep, (step + 1) * promptsPerStep).flatMap((id) => Array<number>(config.k).fill(id)),
        );
        steps.push({ epoch, step, ranks });
      }
    }
    return steps;
  },
  notes(config) {
    const notes: Fact[] = [fact('note.local-groups')];
    const padded = Math.ceil(config.datasetSize / config.ranks) * config.ranks;
    if (padded !== config.datasetSize) {
      notes.push(fact('note.padded', { from: config.datasetSize, to: padded, per: 'epoch' }));
    }
    const unused = Math.ceil(config.datasetSize / config.ranks) - config.batchesPerEpoch * (config.batch / config.k);
    if (unused > 0) {
      notes.push(
        config.batchesPerEpoch < batchesInEpoch(config)
          ? fact('note.contiguous.unused', { unused, taken: config.batchesPerEpoch, batches: batchesInEpoch(config) })
          : fact('note.contiguous.dropped', { dropped: unused }),
      );
    }
    return notes;
  },
  stepNoun: 'batch',
  ownSettings: [],
  configFields: [],
  buildsPerLayout: 1,
  seedNotes: epochSeedNotes,
};
