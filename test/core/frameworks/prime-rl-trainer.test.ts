// prime-rl's optimizer step and token weights against its own loss code run with torch autograd
// (scripts/golden/prime_rl_trainer.py → golden-prime-rl-trainer.json). Weights equal to 1e-12 relative.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { home } from '../../../src/core/frameworks/prime-rl/index.ts';
import { trainedTokens } from '../../../src/core/frameworks/prime-rl/trainer.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings, FrameworkStep } from '../../../src/core/frameworks/types.ts';

interface Case {
  ranks: number;
  seqLen: number;
  prompts: number[];
  completions: number[];
  rlScale: number;
  microBatches: { samples: number[]; weights: number[] }[][];
}
const fixture: { commit: string; cases: Case[] } = JSON.parse(
  readFileSync(new URL('../../fixtures/golden-prime-rl-trainer.json', import.meta.url), 'utf8'),
);
const trainer = home.trainer!;
const TOL = 1e-12;

function setup(c: Case): { step: FrameworkStep; settings: FrameworkSettings; seqlens: number[] } {
  const seqlens = c.prompts.map((p, i) => p + c.completions[i]!);
  const sources = c.microBatches.map((r) => r.flatMap((mb) => mb.samples));
  const step: FrameworkStep = { epoch: 0, step: 0, prompts: [0], ranks: sources.map((r) => r.map(() => 0)), sources, seqlens };
  const settings: FrameworkSettings = { ...defaultSettings(home.keys), ranks: c.ranks, 'seq-len': c.seqLen };
  return { step, settings, seqlens };
}

test('prime-rl trainer: fixture made by prime-rl 559b447', () => {
  assert.match(fixture.commit, /^559b447/);
  assert.ok(fixture.cases.length >= 30);
  assert.deepEqual(trainer.losses, ['global-token-mean']);
});

test('prime-rl trainer: prepare_batch micro-batches, one optimizer step, rl_scale over all ranks (compute_loss by autograd)', () => {
  for (const [i, c] of fixture.cases.entries()) {
    const { step, settings, seqlens } = setup(c);
    const steps = trainer.optimizerSteps(step, c.completions, settings, 'global-token-mean', i);
    assert.equal(steps.length, 1);
    assert.equal(steps[0]!.index, i);
    const mbs = steps[0]!.microBatches;
    assert.deepEqual(
      c.microBatches.map((_r, rank) => mbs.filter((mb) => mb.rank === rank).map((mb) => mb.samples)),
      c.microBatches.map((r) => r.map((mb) => mb.samples)),
      `case ${i}: micro-batches`,
    );
    assert.equal(
      Math.max(
        1,
        mbs.reduce((a, mb) => a + mb.tokens, 0),
      ),
      c.rlScale,
      `case ${i}: rl_scale`,
    );
    for (let r = 0; r < c.ranks; r++) {
      const got = mbs.filter((mb) => mb.rank === r);
      got.forEach((mb, m) => {
        assert.equal(mb.policyVersion, i);
        assert.equal(mb.trainVersion, i);
        mb.weights.forEach((w, j) => {
          const x = c.microBatches[r]![m]!.weights[j]!;
          // a sample whose completion was cut away entirely (or empty) has no tokens to weigh (0 in the fixture)
          if (x === 0) assert.equal(trainedTokens(mb.samples[j]!, seqlens, c.completions, c.seqLen), 0, `case ${i}: untrained sample`);
          else assert.ok(Math.abs(w - x) <= TOL * Math.abs(x), `case ${i}: rank ${r} mb ${m} sample ${j}: ${w} vs ${x}`);
        });
      });
    }
  }
});

test('prime-rl trainer: refusals', () => {
  const { step, settings } = setup(fixture.cases[0]!);
  assert.throws(() => trainer.optimizerSteps(step, fixture.cases[0]!.completions, settings, 'token-mean', 0), ConfigError);
  assert.throws(
    () => trainer.optimizerSteps(step, fixture.cases[0]!.completions, { ...settings, cp: 2, 'num-train-gpus': 2 }, 'global-token-mean', 0),
    /cp 1/,
  );
});
