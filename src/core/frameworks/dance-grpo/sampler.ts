// DanceGRPO's real loop (fastvideo/train_grpo_flux.py, XueZeyue/DanceGRPO 22b85ef):
//   sampler = DistributedSampler(dataset, rank, num_replicas, shuffle=True, seed=sampler_seed)
//   loader  = DataLoader(sampler=sampler, batch_size=train_batch_size (prompts), drop_last=True)
//   for epoch in range(1): sampler.set_epoch(epoch)          ← the only set_epoch call, with 0
//     for step in 1..max_train_steps: next(loader)            ← loader = `while True: for b in dataloader`
//   train_one_step: repeat_interleave(num_generations), advantages per group on the rank.
// Every pass over the DataLoader re-iterates the sampler with epoch 0, so every pass repeats the
// first pass's order: the same prompts meet the same ranks in the same order, pass after pass.
import { type Fact, fact } from '../../messages/index.ts';
import type { LayoutStep } from '../../layout/types.ts';
import { batchesInEpoch, datasetShortError, kDividesBatchError } from '../../samplers/contiguous.ts';
import { danceGrpoCounts } from '../../samplers/counts.ts';
import { distributedSamplerIndices } from '../../samplers/distributed-sampler.ts';
import { DANCE_GRPO_VERSION } from '../../samplers/framework-errors.ts';
import type { SamplerSpec } from '../../samplers/spec.ts';
import { loaderSettingsIgnored } from '../../samplers/loader.ts';

export const danceGrpo: SamplerSpec = {
  name: 'dance-grpo',
  title:
    `DanceGRPO (${DANCE_GRPO_VERSION}): DistributedSampler(shuffle, seed), set_epoch(0) once, DataLoader(drop_last=True) looped with while True; ` +
    `each prompt repeated k times on its rank`,
  // Advantages per group on the rank; the per-step gather only logs rewards.
  gatherScope: 'step',
  drawScope: 'step',
  validate(config, passes) {
    const { k, batch } = config;
    return (
      kDividesBatchError(config, passes, fact('dance-grpo.batch-k', { batch, k })) ??
      datasetShortError(config, passes, (perRank, trainBatch) =>
        fact('dance-grpo.dataset-short', { datasetSize: config.datasetSize, ranks: config.ranks, perRank, trainBatch }),
      )
    );
  },
  // One epoch here = one pass over the DataLoader: every full batch of train_batch_size prompts.
  effective: (config) => ({ ...config, batchesPerEpoch: batchesInEpoch(config) }),
  ignores: {
    ...loaderSettingsIgnored,
    batchesPerEpoch: 'ignores.dance-batches',
    stepsPerGeneration: 'ignores.trl-only',
    numIterations: 'ignores.dance-iterations',
  },
  counts: danceGrpoCounts,
  perRankPerStep: (config) => config.batch,
  draws: (c) => c.datasetSize * c.ranks,
  steps(config) {
    const promptsPerStep = config.batch / config.k;
    // set_epoch(0) is the only call: every rank's sampler seeds seed + 0 on every pass.
    const perRank = Array.from({ length: config.ranks }, (_, r) =>
      distributedSamplerIndices(config.datasetSize, config.ranks, r, config.seed, 0),
    );
    const steps: LayoutStep[] = [];
    for (let pass = 0; pass < config.epochs; pass++) {
      for (let step = 0; step < config.batchesPerEpoch; step++) {
        const ranks = perRank.map((mine) =>
          mine.slice(step * promptsPerStep, (step + 1) * promptsPerStep).flatMap((id) => Array<number>(config.k).fill(id)),
        );
        steps.push({ epoch: pass, step, ranks });
      }
    }
    return steps;
  },
  notes(config) {
    const perRank = Math.ceil(config.datasetSize / config.ranks);
    const notes: Fact[] = [
      fact('note.dance-grpo.one-order', { passes: config.epochs, steps: config.batchesPerEpoch }),
      fact('note.dance-grpo.local-groups'),
    ];
    const padded = perRank * config.ranks;
    if (padded !== config.datasetSize) {
      notes.push(fact('note.padded', { from: config.datasetSize, to: padded, per: 'pass' }));
    }
    const dropped = perRank - config.batchesPerEpoch * (config.batch / config.k);
    if (dropped > 0) notes.push(fact('note.dance-grpo.dropped', { dropped }));
    return notes;
  },
  stepNoun: 'batch',
  ownSettings: [],
  configFields: [],
  buildsPerLayout: 1,
  // set_epoch(0) is called once; each pass over the DataLoader re-iterates the sampler seeded seed + 0.
  seedNotes: (layout) => (stepIndex) => {
    const step = layout.steps[stepIndex]!;
    return step.step === 0 ? `; set_epoch(0) → manual_seed(${layout.config.seed} + 0) again for pass ${step.epoch}` : '';
  },
};
