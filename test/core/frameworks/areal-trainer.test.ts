// AReaL's trainer (src/core/frameworks/areal/trainer.ts) against its own code: each case of
// test/fixtures/golden-areal-trainer.json (scripts/golden/areal_trainer.py: ppo_actor_loss_fn and
// compute_total_loss_weight run from the checkout, weights by autograd over seeded micro-batch splits) gives every
// sample the same per-token weight, to 1e-6 relative: AReaL computes each micro-batch's scale in float32, so the last
// bits depend on the split, and the golden's seeded splits are not AReaL's (the split AReaL makes is checked by
// golden-areal-packing.json). Beyond that rounding the weight does not depend on the split. (No weight for a sample
// without tokens.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { home } from '../../../src/core/frameworks/areal/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkStep } from '../../../src/core/frameworks/types.ts';

interface Case {
  ranks: number;
  perRank: number;
  completionTokens: number[];
  weights: (number | null)[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-areal-trainer.json', import.meta.url), 'utf8')) as { cases: Case[] };

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b), 1e-300);

for (const [n, c] of golden.cases.entries()) {
  test(`areal trainer case ${n}: ${c.ranks} ranks × ${c.perRank} samples`, () => {
    const settings = { ...defaultSettings(home.keys), ranks: c.ranks, 'ppo-n-minibatches': 1 };
    const sources = Array.from({ length: c.ranks }, (_, r) => Array.from({ length: c.perRank }, (_, i) => r * c.perRank + i));
    const seqlens = c.completionTokens.map((t) => t + 10);
    const step: FrameworkStep = { epoch: 0, step: 0, prompts: [], ranks: [], sources, seqlens };
    const got = home.trainer!.optimizerSteps(step, c.completionTokens, settings, 'token-mean', 1);
    assert.equal(got.length, 1);
    const seen: number[] = [];
    for (const mb of got[0]!.microBatches) {
      assert.equal(mb.policyVersion, 1);
      assert.equal(mb.trainVersion, 1);
      assert.ok(sources[mb.rank]!.includes(mb.samples[0] ?? sources[mb.rank]![0]!));
      mb.samples.forEach((i, x) => {
        seen.push(i);
        const w = c.weights[i];
        if (w !== null) assert.ok(close(mb.weights[x]!, w!), `sample ${i}: ${mb.weights[x]} vs ${w}`);
      });
    }
    assert.deepEqual(
      seen.sort((a, b) => a - b),
      c.weights.map((_, i) => i),
    );
  });
}

test('areal trainer: asynchronous rollouts (max_head_offpolicyness > 0) are refused', () => {
  const settings = { ...defaultSettings(home.keys), ranks: 1, 'max-head-offpolicyness': 2 };
  const step: FrameworkStep = { epoch: 0, step: 0, prompts: [], ranks: [], sources: [[0, 1]], seqlens: [20, 30] };
  assert.throws(() => home.trainer!.optimizerSteps(step, [5, 6], settings, 'token-mean', 0), /max_head_offpolicyness 0/);
});
