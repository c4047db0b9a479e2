// Flow-Factory's GroupDistributedSampler: every rank walks the same prompt sequence and holds
// k/W copies of each prompt, so one step of every rank together is group-complete.
import { ConfigError } from '../errors.ts';
import type { LayoutConfig, LayoutStep } from '../layout/types.ts';
import { Mt19937, randperm } from '../rng/index.ts';
import { flowGrpoLoopCounts } from './counts.ts';
import { divisors, listText, nearest } from './rules.ts';
import type { SamplerSpec } from './spec.ts';

/** Prompts per epoch: batchesPerEpoch × W·B / k (Flow-Factory's unique_sample_num for this many batches). */
function promptsPerEpoch(config: LayoutConfig): number {
  return (config.batchesPerEpoch * config.ranks * config.batch) / config.k;
}

export const groupDistributed: SamplerSpec = {
  name: 'group-distributed',
  title: 'Flow-Factory GroupDistributedSampler: every rank sees the same prompts with k/ranks copies each',
  // Each step is group-complete across ranks, so the regrouping gather happens per step.
  gatherScope: 'step',
  drawScope: 'step',
  validate(config) {
    const { k, ranks, batch } = config;
    if (k % ranks !== 0) {
      const ks = [1, 2, 3, 4, 6, 8].map((f) => f * ranks).filter((c) => (ranks * batch) % c === 0);
      const rs = divisors(k);
      return new ConfigError(
        `k=${k} must be a multiple of ranks=${ranks} (each rank holds k/ranks copies of every prompt); ` +
          `${ks.length ? `valid k here: ${ks.join(', ')}; or ` : ''}ranks=${listText(nearest(rs, ranks), rs.length)}, or use --sampler flow-grpo`,
        [...(ks.length ? [{ k: nearest(ks, k, 1)[0]! }] : []), { ranks: nearest(rs, ranks, 1)[0]! }, { sampler: 'flow-grpo' }],
      );
    }
    if ((ranks * batch) % k !== 0) {
      const per = k / ranks;
      const up = Math.ceil(batch / per) * per;
      const down = Math.floor(batch / per) * per;
      const batches = down >= 1 && down !== up ? [up, down] : [up];
      return new ConfigError(
        `k=${k} must divide ranks×batch=${ranks * batch} (each step must hold whole groups); ` +
          batches.map((b) => `batch=${b} (→${ranks * b})`).join(' or '),
        batches.map((b) => ({ batch: b })),
      );
    }
    const m = promptsPerEpoch(config);
    if (m > config.datasetSize) {
      return new ConfigError(
        `an epoch of batches-per-epoch=${config.batchesPerEpoch} needs ${m} distinct prompts but dataset-size=${config.datasetSize}; use ` +
          `dataset-size ≥ ${m} or fewer batches per epoch`,
        [{ datasetSize: m }, { batchesPerEpoch: Math.max(1, Math.floor((config.datasetSize * k) / (ranks * batch))) }],
      );
    }
    return null;
  },
  effective: (config) => ({ ...config }),
  ignores: { stepsPerGeneration: 'steps-per-generation is TRL’s (use --sampler trl)' },
  counts: (config) => flowGrpoLoopCounts(config, "counted with flow_grpo's training loop (assumed for Flow-Factory's samplers)"),
  perRankPerStep: (config) => config.batch,
  draws: (c) => c.epochs * (c.datasetSize + promptsPerEpoch(c)),
  steps(config) {
    const m = promptsPerEpoch(config);
    const copies = config.k / config.ranks;
    const steps: LayoutStep[] = [];
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      const gen = new Mt19937(BigInt(config.seed) + BigInt(epoch));
      const chosen = randperm(config.datasetSize, gen).subarray(0, m);
      const order = randperm(m, gen);
      // The same sequence on every rank: each chosen prompt k/W times in a row.
      const mine: number[] = [];
      for (let g = 0; g < m; g++) for (let c = 0; c < copies; c++) mine.push(chosen[order[g]!]!);
      for (let step = 0; step < config.batchesPerEpoch; step++) {
        const slots = mine.slice(step * config.batch, (step + 1) * config.batch);
        steps.push({ epoch, step, ranks: Array.from({ length: config.ranks }, () => [...slots]) });
      }
    }
    return steps;
  },
  notes(config) {
    return [
      `Every rank receives the same prompt ids in the same order, ${config.k / config.ranks} copies each; the ranks' generators differ, so the ` +
        `completions differ. One permutation per epoch (seed + epoch).`,
    ];
  },
};
