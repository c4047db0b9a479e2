// flow_grpo's and DanceGRPO's optimizer-step counts against test/fixtures/golden-loop-counts.json:
// their loops run on a one-parameter model (flow_grpo through real accelerate 1.15 accumulation),
// every real optimizer.step() counted (scripts/golden/make_fixtures.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { buildLayout, defaultConfig } from '../../../src/core/samplers/index.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Golden {
  flowGrpo: {
    epochs: number;
    numInnerEpochs: number;
    batchesPerEpoch: number;
    gradientAccumulationSteps: number;
    optimizerStepsPerEpoch: number[];
    optimizerSteps: number;
    microSteps: number;
  }[];
  danceGrpo: { steps: number; batch: number; gradientAccumulationSteps: number; optimizerSteps: number }[];
}
const golden = fixture<Golden>('golden-loop-counts.json');

for (const c of golden.flowGrpo) {
  const name = `${c.epochs} epochs × ${c.numInnerEpochs} inner × ${c.batchesPerEpoch} batches, GA ${c.gradientAccumulationSteps}`;
  test(`flow_grpo: ${name} → ${c.optimizerSteps} optimizer steps (accelerate)`, () => {
    const config: LayoutConfig = {
      ...defaultConfig,
      sampler: 'flow-grpo',
      ranks: 1,
      batch: 2,
      k: 2,
      datasetSize: 10,
      epochs: c.epochs,
      batchesPerEpoch: c.batchesPerEpoch,
      numIterations: c.numInnerEpochs,
      gradientAccumulationSteps: c.gradientAccumulationSteps,
    };
    const { counts } = buildLayout(config);
    assert.equal(counts.total.microSteps, c.microSteps);
    assert.equal(counts.total.optimizerSteps, c.optimizerSteps);
    // accelerate's counter carries across epochs: per epoch is the first epoch's count.
    assert.equal(counts.perEpoch.optimizerSteps, c.optimizerStepsPerEpoch[0]);
  });
}

for (const c of golden.danceGrpo) {
  test(`DanceGRPO: ${c.steps} steps of ${c.batch} samples, GA ${c.gradientAccumulationSteps} → ${c.optimizerSteps} optimizer steps`, () => {
    // k = 1 so that batch = prompts; one pass of exactly `steps` batches on one rank.
    const config: LayoutConfig = {
      ...defaultConfig,
      sampler: 'dance-grpo',
      ranks: 1,
      k: 1,
      batch: c.batch,
      datasetSize: c.steps * c.batch,
      epochs: 1,
      gradientAccumulationSteps: c.gradientAccumulationSteps,
    };
    const { counts } = buildLayout(config);
    assert.equal(counts.total.generationBatches, c.steps);
    assert.equal(counts.total.microSteps, c.steps * c.batch);
    assert.equal(counts.total.optimizerSteps, c.optimizerSteps);
  });
}
