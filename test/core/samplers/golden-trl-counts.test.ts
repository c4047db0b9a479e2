// TRL's step counts and errors against test/fixtures/golden-trl-counts.json: real GRPOConfig
// (trl 1.13.0) for W processes, len(DataLoader) through accelerate's BatchSamplerShard, and
// transformers' Trainer.set_initial_training_values (scripts/golden/make_fixtures.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/core/errors.ts';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { buildLayout, trlStepsPerGeneration, validateConfig } from '../../../src/core/samplers/index.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  input: {
    ranks: number;
    batch: number;
    k: number;
    ga: number;
    spg?: number;
    gbs?: number;
    mu?: number;
    datasetSize: number;
    epochs: number;
  };
  error?: string;
  stepsPerGeneration?: number;
  generationBatchSize?: number;
  generationBatchesPerEpoch?: number;
  microStepsPerEpoch?: number;
  optimizerStepsPerEpoch?: number;
  maxSteps?: number;
}
const golden = fixture<{ cases: Case[] }>('golden-trl-counts.json');

/** Our configuration for a case, or the ConfigError we raise for it. */
function ours(c: Case['input']): LayoutConfig | ConfigError {
  try {
    const stepsPerGeneration = trlStepsPerGeneration({
      batch: c.batch,
      ranks: c.ranks,
      gradientAccumulationSteps: c.ga,
      stepsPerGeneration: c.spg,
      generationBatchSize: c.gbs,
    });
    const config: LayoutConfig = {
      sampler: 'trl',
      ranks: c.ranks,
      batch: c.batch,
      k: c.k,
      batchesPerEpoch: 1,
      epochs: c.epochs,
      datasetSize: c.datasetSize,
      seed: 42,
      stepsPerGeneration,
      numIterations: c.mu ?? 1,
      gradientAccumulationSteps: c.ga,
      numWorkers: 1,
      prefetchFactor: 2,
      acceleratePrepare: 1,
    };
    return validateConfig(config) ?? config;
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
}

test('the fixture has counted cases and rejected ones', () => {
  assert.ok(golden.cases.filter((c) => c.error).length >= 4);
  assert.ok(golden.cases.filter((c) => !c.error).length >= 8);
});

for (const c of golden.cases) {
  const label = JSON.stringify(c.input);
  if (c.error) {
    test(`TRL rejects ${label}; our one-line error quotes TRL's own message`, () => {
      const r = ours(c.input);
      assert.ok(r instanceof ConfigError, 'expected a ConfigError');
      assert.ok(!r.message.includes('\n'));
      assert.ok(r.message.endsWith(`TRL 1.13.0 raises: ${c.error}`), `${r.message}\n  should end with TRL's: ${c.error}`);
    });
  } else {
    test(`TRL counts ${label}: steps_per_generation, generation batches, micro-steps, optimizer steps, max_steps`, () => {
      const config = ours(c.input);
      assert.ok(!(config instanceof ConfigError), String(config));
      assert.equal(config.stepsPerGeneration, c.stepsPerGeneration);
      const { counts } = buildLayout(config);
      assert.equal(counts.perEpoch.generationBatches, c.generationBatchesPerEpoch);
      assert.equal(counts.perEpoch.microSteps, c.microStepsPerEpoch);
      assert.equal(counts.perEpoch.optimizerSteps, c.optimizerStepsPerEpoch);
      assert.equal(counts.total.optimizerSteps, c.maxSteps);
    });
  }
}
