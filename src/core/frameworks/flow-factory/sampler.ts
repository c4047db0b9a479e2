// Flow-Factory's GroupDistributedSampler: every rank walks the same prompt sequence and holds
// k/W copies of each prompt, so one step of every rank together is group-complete.
import { configError, fact, fixClauses } from '../../messages/index.ts';
import type { LayoutConfig, LayoutStep } from '../../layout/types.ts';
import { Mt19937, randperm } from '../../rng/index.ts';
import { flowGrpo } from '../flow-grpo/sampler.ts';
import { flowGrpoLoopCounts } from '../../samplers/counts.ts';
import { batchesFact, byNearness, divisors, passingMultiples, passingValues, validKFact } from '../../samplers/rules.ts';
import type { SamplerSpec } from '../../samplers/spec.ts';
import { epochSeedNotes } from '../../samplers/seed-notes.ts';
import { loaderSettingsIgnored } from '../../samplers/loader.ts';

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
  validate(config, passes) {
    const { k, ranks, batch } = config;
    if (k % ranks !== 0) {
      // Multiples of ranks near k (k itself must divide ranks×batch too; the check says which do), and
      // world sizes dividing k; only those that pass every rule are named.
      const multiples = Array.from({ length: 32 }, (_, i) => (Math.max(1, Math.round(k / ranks) - 8) + i) * ranks);
      const ks = passingValues(byNearness(multiples, k), 'k', passes, 6);
      const rs = divisors(k);
      const rsOk = passingValues(byNearness(rs, ranks), 'ranks', passes);
      const flowOk = passes({ sampler: flowGrpo.name });
      return configError(
        [
          fact('group-distributed.k-multiple', { k, ranks }),
          ...fixClauses([validKFact(ks), validKFact(rsOk, 'ranks'), flowOk ? fact('fix.sampler', { sampler: flowGrpo.name }) : null]),
        ],
        [
          ...ks.values.slice(0, 1).map((v) => ({ k: v })),
          ...rsOk.values.slice(0, 1).map((v) => ({ ranks: v })),
          ...(flowOk ? [{ sampler: flowGrpo.name }] : []),
        ],
      );
    }
    if ((ranks * batch) % k !== 0) {
      const batches = passingMultiples(batch, k / ranks, passes);
      return configError(
        [fact('group-distributed.k-divide', { k, total: ranks * batch }), ...fixClauses([batchesFact(batches, ranks)])],
        batches.map((b) => ({ batch: b })),
      );
    }
    const m = promptsPerEpoch(config);
    if (m > config.datasetSize) {
      const fewer = Math.max(1, Math.floor((config.datasetSize * k) / (ranks * batch)));
      const fixes = [{ datasetSize: m }, { batchesPerEpoch: fewer }].filter((f) => passes(f));
      return configError(
        [
          fact('group-distributed.epoch-short', { batchesPerEpoch: config.batchesPerEpoch, m, datasetSize: config.datasetSize }),
          ...fixClauses(
            fixes.map((f) => ('datasetSize' in f ? fact('fix.dataset-size', { min: m }) : fact('fix.batches-per-epoch', { value: fewer }))),
          ),
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
    return [fact('note.group-distributed.same-ids', { copies: config.k / config.ranks })];
  },
  stepNoun: 'batch',
  ownSettings: [],
  configFields: [],
  buildsPerLayout: 1,
  seedNotes: epochSeedNotes,
};
