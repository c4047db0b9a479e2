// ROLL's optimizer steps and token weights against ROLL's own loss code run with torch autograd
// (scripts/golden/roll_trainer.py → golden-roll-trainer.json). Weights equal to 1e-12 relative.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { home } from '../../../src/core/frameworks/roll/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings, FrameworkStep, TrainerStep } from '../../../src/core/frameworks/types.ts';

interface FixtureMicroBatch {
  rank: number;
  samples: number[];
  weights: number[];
}
interface Case {
  ranks: number;
  gradientAccumulationSteps: number;
  ppoEpochs: number;
  loss: string;
  tokens: number[];
  sources: number[][];
  steps: FixtureMicroBatch[][];
}
interface StaticCase extends Case {
  perDeviceTrainBatchSize: number;
  seed: number;
  sequenceLength: number;
}
interface DynamicCase extends Case {
  maxTokens: number;
  round: number;
  seqlens: number[];
}
const fixture: { commit: string; source: string; cases: StaticCase[]; dynamicCases: DynamicCase[] } = JSON.parse(
  readFileSync(new URL('../../fixtures/golden-roll-trainer.json', import.meta.url), 'utf8'),
);
const trainer = home.trainer!;
const TOL = 1e-12;

function stepOf(sources: number[][], seqlens?: number[]): FrameworkStep {
  const n = sources.reduce((a, s) => a + s.length, 0);
  return { epoch: 0, step: 0, prompts: Array.from({ length: n }, (_, i) => i), ranks: sources, sources, seqlens };
}

function same(got: TrainerStep[], want: FixtureMicroBatch[][], first: number, label: string): void {
  assert.equal(got.length, want.length, `${label}: optimizer steps`);
  got.forEach((s, k) => {
    assert.equal(s.index, first + k);
    assert.deepEqual(
      s.microBatches.map((mb) => ({ rank: mb.rank, samples: mb.samples })),
      want[k]!.map((mb) => ({ rank: mb.rank, samples: mb.samples })),
      `${label}: step ${k} micro-batches`,
    );
    s.microBatches.forEach((mb, m) => {
      assert.equal(mb.policyVersion, first, label);
      assert.equal(mb.trainVersion, first + k, label);
      mb.weights.forEach((w, i) => {
        const x = want[k]![m]!.weights[i]!;
        assert.ok(Math.abs(w - x) <= TOL * Math.abs(x), `${label}: step ${k} mb ${m} sample ${i}: ${w} vs ${x}`);
      });
    });
  });
}

test('roll trainer: fixture made by ROLL 8eb27cc', () => {
  assert.match(fixture.commit, /^8eb27cc2/);
  assert.ok(fixture.cases.length >= 100 && fixture.dynamicCases.length >= 10);
  assert.deepEqual(trainer.losses[0], 'seq-mean-token-mean');
  assert.deepEqual(new Set(fixture.cases.map((c) => c.loss)), new Set(trainer.losses));
});

test('roll trainer: backward batches shuffled by make_iterator, every loss_agg_mode (ROLL agg_loss by autograd)', () => {
  for (const [i, c] of fixture.cases.entries()) {
    const settings: FrameworkSettings = {
      ...defaultSettings(home.keys),
      ranks: c.ranks,
      'per-device-train-batch-size': c.perDeviceTrainBatchSize,
      'gradient-accumulation-steps': c.gradientAccumulationSteps,
      'ppo-epochs': c.ppoEpochs,
      seed: c.seed,
      'loss-agg-mode': c.loss,
      'sequence-length': c.sequenceLength,
    };
    same(trainer.optimizerSteps(stepOf(c.sources), c.tokens, settings, c.loss, 3 * i), c.steps, 3 * i, `case ${i} ${c.loss}`);
  }
});

test('roll trainer: dynamic batching (Megatron): gradient_accumulation_steps micro-batches of the shared cut per step', () => {
  for (const [i, c] of fixture.dynamicCases.entries()) {
    const settings: FrameworkSettings = {
      ...defaultSettings(home.keys),
      ranks: c.ranks,
      'gradient-accumulation-steps': c.gradientAccumulationSteps,
      'ppo-epochs': c.ppoEpochs,
      'use-dynamic-batching-in-train': true,
      'max-tokens-per-microbatch-in-train': c.maxTokens,
      'sequence-length-round-in-train': c.round,
      'strategy-name': 'megatron_train',
    };
    same(trainer.optimizerSteps(stepOf(c.sources, c.seqlens), c.tokens, settings, c.loss, i), c.steps, i, `dynamic ${i} ${c.loss}`);
  }
});

test('roll trainer: refusals', () => {
  const c = fixture.cases[0]!;
  const settings = { ...defaultSettings(home.keys), ranks: c.ranks, 'per-device-train-batch-size': 1 };
  assert.throws(() => trainer.optimizerSteps(stepOf(c.sources), c.tokens, settings, 'seq-mean-token-sum-norm', 0), ConfigError);
  assert.throws(() => trainer.optimizerSteps(stepOf(c.sources), c.tokens, settings, 'sum', 0), /Invalid loss_agg_mode: sum/);
  const dyn = { ...settings, 'use-dynamic-batching-in-train': true, 'max-tokens-per-microbatch-in-train': 4096 };
  assert.throws(() => trainer.optimizerSteps(stepOf(c.sources, c.tokens), c.tokens, dyn, 'token-mean', 0), /megatron_train/);
  const odd = { ...settings, 'per-device-train-batch-size': 1000 };
  assert.throws(() => trainer.optimizerSteps(stepOf(c.sources), c.tokens, odd, 'token-mean', 0), /make_iterator/);
});
