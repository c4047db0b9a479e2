// DanceGRPO's layout (Flow-Factory calls it group-contiguous): DistributedSampler over prompts,
// each rank takes batch/k prompts per step and repeat_interleaves each k times, so every copy of
// a prompt stays on one rank and advantages need no gather.
import { ConfigError } from '../errors.ts';
import type { LayoutConfig, LayoutStep } from '../layout/types.ts';
import { distributedSamplerAllRanks } from './distributed-sampler.ts';
import { divisors, listText, nearest, nearestMultiples } from './rules.ts';
import type { SamplerSpec } from './spec.ts';

/** Steps per epoch: per-rank prompts ceil(D/W), in batches of batch/k, the incomplete last one dropped. */
function stepsPerEpoch(config: LayoutConfig): number {
  return Math.floor(Math.ceil(config.datasetSize / config.ranks) / (config.batch / config.k));
}

export const contiguous: SamplerSpec = {
  name: 'contiguous',
  title:
    'DanceGRPO / Flow-Factory group-contiguous: DistributedSampler(shuffle, seed) + set_epoch(epoch), each prompt repeated k times on its rank',
  // Advantages are computed locally per group; DanceGRPO gathers per step only for logging.
  gatherScope: 'step',
  drawScope: 'step',
  validate(config) {
    const { k, batch } = config;
    if (batch % k !== 0) {
      const valid = divisors(batch);
      const batches = nearestMultiples(batch, k);
      return new ConfigError(
        `k=${k} must divide batch=${batch} (each rank takes batch/k prompts per step and repeats each k times); valid k here: ${listText(nearest(valid, k), valid.length)}; ` +
          `or ${batches.map((b) => `batch=${b}`).join(' or ')}`,
        [{ k: nearest(valid, k, 1)[0]! }, ...batches.map((b) => ({ batch: b }))],
      );
    }
    if (stepsPerEpoch(config) < 1) {
      const need = (batch / k) * config.ranks;
      return new ConfigError(
        `dataset-size=${config.datasetSize} gives each of ranks=${config.ranks} only ${Math.ceil(config.datasetSize / config.ranks)} prompt(s), fewer than one step's batch/k=${batch / k}; use dataset-size ≥ ${need}`,
        [{ datasetSize: need }],
      );
    }
    return null;
  },
  effective: (config) => ({ ...config, batchesPerEpoch: stepsPerEpoch(config) }),
  perRankPerStep: (config) => config.batch,
  draws: (c) => c.epochs * c.datasetSize,
  steps(config) {
    const promptsPerStep = config.batch / config.k;
    const steps: LayoutStep[] = [];
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      // Each rank builds its own DistributedSampler; all seed seed + epoch and agree on the permutation.
      const perRank = distributedSamplerAllRanks(config.datasetSize, config.ranks, config.seed, epoch);
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
        `DistributedSampler pads the permutation from ${config.datasetSize} to ${padded} by repeating its first ${padded - config.datasetSize} index(es), so those prompts are drawn twice per epoch.`,
      );
    }
    const dropped = Math.ceil(config.datasetSize / config.ranks) - config.batchesPerEpoch * (config.batch / config.k);
    if (dropped > 0) notes.push(`Each rank drops its last ${dropped} prompt(s) per epoch (an incomplete batch, drop_last=True).`);
    return notes;
  },
};
