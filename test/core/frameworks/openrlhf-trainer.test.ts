// OpenRLHF's optimizer steps and token weights against OpenRLHF's own loss code run with torch autograd
// (scripts/golden/openrlhf_trainer.py → golden-openrlhf-trainer.json). Weights equal to 1e-12 relative.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { home } from '../../../src/core/frameworks/openrlhf/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings, FrameworkStep, TrainerStep } from '../../../src/core/frameworks/types.ts';

interface FixtureMicroBatch {
  rank: number;
  samples: number[];
  weights: number[];
  optimizerStep?: number;
}
interface Case {
  ranks: number;
  maxEpochs: number;
  loss: string;
  tokens: number[];
  sources: number[][];
  microBatches: FixtureMicroBatch[][];
}
interface StaticCase extends Case {
  trainMicroBatchSize: number;
  gas: number;
}
interface DynamicCase extends Case {
  trainBatchSize: number;
  trainMaxTokensPerGpu: number;
  seqlens: number[];
}
const fixture: { commit: string; cases: StaticCase[]; dynamicCases: DynamicCase[] } = JSON.parse(
  readFileSync(new URL('../../fixtures/golden-openrlhf-trainer.json', import.meta.url), 'utf8'),
);
const trainer = home.trainer!;
const TOL = 1e-12;

function stepOf(c: Case, seqlens?: number[]): FrameworkStep {
  return { epoch: 0, step: 0, prompts: [0], ranks: c.sources.map((r) => r.map(() => 0)), sources: c.sources, seqlens };
}

function settingsOf(c: Case, extra: FrameworkSettings): FrameworkSettings {
  const n = c.tokens.length;
  return { ...defaultSettings(home.keys), ranks: c.ranks, 'train-batch-size': 1, k: n, 'max-epochs': c.maxEpochs, ...extra };
}

/** Each rank's micro-batches in order, and the index of the optimizer step each belongs to. */
function perRank(steps: TrainerStep[], rank: number) {
  return steps.flatMap((s, k) => s.microBatches.filter((mb) => mb.rank === rank).map((mb) => ({ mb, k })));
}

function check(steps: TrainerStep[], c: Case, first: number, label: string, ends?: boolean): void {
  for (let r = 0; r < c.ranks; r++) {
    const got = perRank(steps, r);
    const want = c.microBatches[r]!;
    assert.deepEqual(
      got.map((g) => g.mb.samples),
      want.map((w) => w.samples),
      `${label}: rank ${r} micro-batches`,
    );
    got.forEach(({ mb, k }, m) => {
      assert.equal(mb.policyVersion, first);
      assert.equal(mb.trainVersion, first + k);
      if (ends) assert.equal(got[m + 1]?.k !== k, want[m]!.optimizerStep === 1, `${label}: optimizer step boundary`);
      mb.weights.forEach((w, i) => {
        const x = want[m]!.weights[i]!;
        assert.ok(Math.abs(w - x) <= TOL * Math.abs(x), `${label}: rank ${r} mb ${m} sample ${i}: ${w} vs ${x}`);
      });
    });
  }
}

test('openrlhf trainer: fixture made by OpenRLHF 3c3be62', () => {
  assert.match(fixture.commit, /^3c3be62/);
  assert.deepEqual(trainer.losses, ['ppo', 'gspo']);
  assert.ok(fixture.cases.length >= 40 && fixture.dynamicCases.length >= 20);
});

test('openrlhf trainer: gas windows of micro-batches, one global normaliser per optimizer step (aggregate_loss by autograd)', () => {
  for (const [i, c] of fixture.cases.entries()) {
    const settings = settingsOf(c, {
      'train-micro-batch-size': c.trainMicroBatchSize,
      'train-global-batch-size': c.gas * c.trainMicroBatchSize * c.ranks,
      'policy-loss-type': c.loss,
    });
    const steps = trainer.optimizerSteps(stepOf(c), c.tokens, settings, c.loss, 2 * i);
    for (const s of steps) for (let r = 0; r < c.ranks; r++) assert.equal(s.microBatches.filter((mb) => mb.rank === r).length, c.gas);
    check(steps, c, 2 * i, `case ${i} ${c.loss}`);
  }
});

test('openrlhf trainer: dynamic batching, setup_dynamic_batch steps and normalisers', () => {
  for (const [i, c] of fixture.dynamicCases.entries()) {
    const settings = settingsOf(c, {
      'dynamic-batch-enable': true,
      'train-global-batch-size': c.trainBatchSize,
      'train-max-tokens-per-gpu': c.trainMaxTokensPerGpu,
    });
    check(trainer.optimizerSteps(stepOf(c, c.seqlens), c.tokens, settings, c.loss, i), c, i, `dynamic ${i} ${c.loss}`, true);
  }
});

test('openrlhf trainer: refusals', () => {
  const c = fixture.cases[0]!;
  const settings = settingsOf(c, { 'train-micro-batch-size': 1, 'train-global-batch-size': c.ranks });
  assert.throws(() => trainer.optimizerSteps(stepOf(c), c.tokens, settings, 'dapo', 0), /invalid choice: 'dapo'/);
  assert.throws(
    () => trainer.optimizerSteps(stepOf(c), c.tokens, { ...settings, 'train-global-batch-size': 1000 * c.ranks }, 'ppo', 0),
    /not a multiple of accumulated_gradient/,
  );
  const uneven = { ...c, sources: [[0, 1, 2], [3]], ranks: 2 };
  assert.throws(() => trainer.optimizerSteps(stepOf(uneven), c.tokens, { ...settings, ranks: 2 }, 'ppo', 0), ConfigError);
});
