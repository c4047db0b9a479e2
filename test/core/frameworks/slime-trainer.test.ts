// slime's trainer (src/core/frameworks/slime/trainer.ts) against its own code: each case of
// test/fixtures/golden-slime-trainer.json (scripts/golden/slime_trainer.py: build_dp_schedule and
// get_sum_of_sample_mean run from the checkout, weights by autograd) gives the same micro-batches per rank and step and
// the same per-token weights, to 1e-12 relative, with --calculate-per-token-loss off and on. (A sample without
// loss-mask tokens has no weight there.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { home } from '../../../src/core/frameworks/slime/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkStep } from '../../../src/core/frameworks/types.ts';

interface Case {
  config: {
    dp: number;
    micro: number;
    gbs: number;
    dynamic: boolean;
    maxTokens: number | null;
    perToken: boolean;
    seqlens: number[];
    completionTokens: number[];
  };
  steps: { microBatches: { rank: number; samples: number[]; weights: (number | null)[] }[] }[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-slime-trainer.json', import.meta.url), 'utf8')) as { cases: Case[] };

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b), 1e-300);

for (const [n, { config: c, steps }] of golden.cases.entries()) {
  const loss = String(c.perToken);
  test(`slime trainer case ${n}: dp ${c.dp}, global batch ${c.gbs}, dynamic ${c.dynamic}, calculate_per_token_loss ${loss}`, () => {
    const settings = {
      ...defaultSettings(home.keys),
      ranks: c.dp,
      'train-batch-size': c.seqlens.length,
      k: 1,
      'num-rollout': 1,
      'global-batch-size': c.gbs,
      'micro-batch-size': c.micro,
      'use-dynamic-batch-size': c.dynamic,
      'max-tokens-per-gpu': c.maxTokens,
      'calculate-per-token-loss': c.perToken,
    };
    const step: FrameworkStep = { epoch: 0, step: 0, prompts: [], ranks: [], sources: [], seqlens: c.seqlens };
    const got = home.trainer!.optimizerSteps(step, c.completionTokens, settings, loss, 4);
    assert.equal(got.length, steps.length);
    got.forEach((s, p) => {
      const want = steps[p]!.microBatches;
      assert.deepEqual(
        s.microBatches.map((m) => [m.rank, m.samples]),
        want.map((m) => [m.rank, m.samples]),
      );
      s.microBatches.forEach((m, j) => {
        assert.equal(m.policyVersion, 4);
        assert.equal(m.trainVersion, 4 + p);
        m.weights.forEach((w, x) => {
          const expected = want[j]!.weights[x];
          if (expected !== null) assert.ok(close(w, expected!), `step ${p} mb ${j} sample ${m.samples[x]}: ${w} vs ${expected}`);
        });
      });
    });
  });
}
