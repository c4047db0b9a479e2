// Flow-Factory's group-contiguous layout: DistributedSampler over prompts, each rank takes batch/k
// prompts per step and repeat_interleaves each k times, so every copy of a prompt stays on one rank
// and advantages need no gather. The loop is the corrected one: the first batches-per-epoch batches
// of each epoch, then set_epoch(e + 1). DanceGRPO's own loop (set_epoch(0) only) is dance-grpo.ts.
import { ConfigError } from '../errors.ts';
import type { LayoutConfig, LayoutStep } from '../layout/types.ts';
import { distributedSamplerAllRanks } from './distributed-sampler.ts';
import { flowGrpoLoopCounts } from './counts.ts';
import { byNearness, divisors, fixesText, passingMultiples, passingValues, validKText } from './rules.ts';
import type { SamplerSpec } from './spec.ts';
import { loaderSettingsIgnored } from './loader.ts';

/** Full batches one epoch holds: per-rank prompts ceil(D/W), in batches of batch/k, the incomplete last one dropped. */
export function batchesInEpoch(config: LayoutConfig): number {
  return Math.floor(Math.ceil(config.datasetSize / config.ranks) / (config.batch / config.k));
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
    if (batch % k !== 0) {
      const valid = divisors(batch);
      // Only fixes that pass every rule (the dataset, the size limits) are named.
      const ks = passingValues(byNearness(valid, k), 'k', passes);
      const batches = passingMultiples(batch, k, passes);
      return new ConfigError(
        `k=${k} must divide batch=${batch} (each rank takes batch/k prompts per step and repeats each k times)` +
          fixesText([validKText(ks), batches.map((b) => `batch=${b}`).join(' or ')]),
        [...ks.values.slice(0, 1).map((v) => ({ k: v })), ...batches.map((b) => ({ batch: b }))],
      );
    }
    const most = batchesInEpoch(config);
    if (most < 1) {
      const need = (batch / k) * config.ranks;
      const ok = passes({ datasetSize: need });
      return new ConfigError(
        `dataset-size=${config.datasetSize} gives each of ranks=${config.ranks} only ${Math.ceil(config.datasetSize / config.ranks)} prompt(s), ` +
          `fewer than one step's batch/k=${batch / k}${fixesText([ok ? `use dataset-size ≥ ${need}` : ''])}`,
        ok ? [{ datasetSize: need }] : [],
      );
    }
    if (config.batchesPerEpoch > most) {
      const need = Math.ceil(((config.batchesPerEpoch * batch) / k) * config.ranks);
      const fixes = [{ batchesPerEpoch: most }, { datasetSize: need }].filter((f) => passes(f));
      return new ConfigError(
        `batches-per-epoch=${config.batchesPerEpoch} is more than an epoch holds: each of ranks=${config.ranks} gets ` +
          `${Math.ceil(config.datasetSize / config.ranks)} prompt(s) per epoch, ${most} full batch(es) of batch/k=${batch / k}` +
          fixesText([
            fixes.length === 0
              ? ''
              : `use ${fixes.map((f) => ('batchesPerEpoch' in f ? `batches-per-epoch ≤ ${most}` : `dataset-size ≥ ${need}`)).join(' or ')}`,
          ]),
        fixes,
      );
    }
    return null;
  },
  effective: (config) => ({ ...config }),
  ignores: { ...loaderSettingsIgnored, stepsPerGeneration: 'steps-per-generation is TRL’s (use --sampler trl)' },
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
    const notes = [
      `All k copies of a prompt sit on one rank (repeat_interleave); advantages are computed locally, the gather only serves logging.`,
    ];
    const padded = Math.ceil(config.datasetSize / config.ranks) * config.ranks;
    if (padded !== config.datasetSize) {
      notes.push(
        `DistributedSampler pads the permutation from ${config.datasetSize} to ${padded} by repeating its first ${padded - config.datasetSize} ` +
          `index(es), so those prompts are drawn twice per epoch.`,
      );
    }
    const unused = Math.ceil(config.datasetSize / config.ranks) - config.batchesPerEpoch * (config.batch / config.k);
    if (unused > 0) {
      notes.push(
        config.batchesPerEpoch < batchesInEpoch(config)
          ? `Each rank leaves its last ${unused} prompt(s) of each epoch unused: the loop takes ${config.batchesPerEpoch} of the epoch's ` +
              `${batchesInEpoch(config)} batches, then calls set_epoch(epoch + 1).`
          : `Each rank drops its last ${unused} prompt(s) per epoch (an incomplete batch, drop_last=True).`,
      );
    }
    return notes;
  },
};
