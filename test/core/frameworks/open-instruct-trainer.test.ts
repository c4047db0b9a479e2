// open-instruct's optimizer steps and token weights against its own loss code run with torch autograd
// (scripts/golden/open-instruct_trainer.py → golden-open-instruct-trainer.json). Weights equal to 1e-12 relative.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { home } from '../../../src/core/frameworks/open-instruct/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings, FrameworkStep } from '../../../src/core/frameworks/types.ts';

interface Case {
  ranks: number;
  seqlens: number[];
  tokens: number[];
  packLength: number;
  perDevice: number;
  numMiniBatches: number;
  numEpochs: number;
  lossDenominator: string;
  sources: number[][];
  microBatches: { samples: number[]; weights: number[]; optimizerStep: number }[][];
}
const fixture: { commit: string; cases: Case[] } = JSON.parse(
  readFileSync(new URL('../../fixtures/golden-open-instruct-trainer.json', import.meta.url), 'utf8'),
);
const trainer = home.trainer!;
const TOL = 1e-12;

function setup(c: Case): { step: FrameworkStep; settings: FrameworkSettings } {
  const step: FrameworkStep = {
    epoch: 0,
    step: 0,
    prompts: [0],
    ranks: c.sources.map((r) => r.map(() => 0)),
    sources: c.sources,
    seqlens: c.seqlens,
  };
  const settings: FrameworkSettings = {
    ...defaultSettings(home.keys),
    ranks: c.ranks,
    'train-batch-size': 1,
    k: c.seqlens.length,
    'pack-length': c.packLength,
    'max-prompt-token-length': 8,
    'response-length': 8,
    'per-device-train-batch-size': c.perDevice,
    'num-mini-batches': c.numMiniBatches,
    'num-epochs': c.numEpochs,
    'loss-denominator': c.lossDenominator,
  };
  return { step, settings };
}

test('open-instruct trainer: fixture made by open-instruct e6c3044', () => {
  assert.match(fixture.commit, /^e6c3044/);
  assert.ok(fixture.cases.length >= 30);
  assert.ok(fixture.cases.some((c) => c.lossDenominator !== 'token'));
});

test('open-instruct trainer: packed micro-batches, accumulation groups, calculate_token_counts (masked_mean by autograd)', () => {
  for (const [i, c] of fixture.cases.entries()) {
    const { step, settings } = setup(c);
    const steps = trainer.optimizerSteps(step, c.tokens, settings, c.lossDenominator, i);
    for (let r = 0; r < c.ranks; r++) {
      const got = steps.flatMap((s, k) => s.microBatches.filter((mb) => mb.rank === r).map((mb) => ({ mb, k })));
      const want = c.microBatches[r]!;
      assert.deepEqual(
        got.map((g) => g.mb.samples),
        want.map((w) => w.samples),
        `case ${i}: rank ${r} micro-batches`,
      );
      got.forEach(({ mb, k }, m) => {
        assert.equal(mb.policyVersion, i);
        assert.equal(mb.trainVersion, i + k);
        assert.equal(got[m + 1]?.k !== k, want[m]!.optimizerStep === 1, `case ${i}: optimizer step boundary`);
        mb.weights.forEach((w, j) => {
          const x = want[m]!.weights[j]!;
          assert.ok(Math.abs(w - x) <= TOL * Math.abs(x), `case ${i}: rank ${r} mb ${m} sample ${j}: ${w} vs ${x}`);
        });
      });
    }
  }
});

test('open-instruct trainer: refusals in its words', () => {
  const { step, settings } = setup(fixture.cases[0]!);
  assert.throws(
    () => trainer.optimizerSteps(step, fixture.cases[0]!.tokens, settings, '-3', 0),
    /loss_denominator must be a valid float greater than 0/,
  );
  assert.throws(
    () => trainer.optimizerSteps(step, fixture.cases[0]!.tokens, { ...settings, 'loss-denominator': 'token' }, 'number', 0),
    ConfigError,
  );
});
