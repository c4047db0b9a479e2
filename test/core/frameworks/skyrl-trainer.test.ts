// SkyRL's trainer (src/core/frameworks/skyrl/trainer.ts) against its own code: each case of
// test/fixtures/golden-skyrl-trainer.json (scripts/golden/skyrl_trainer.py: apply_loss_reduction_to_advantages_minibatch
// and reduce_loss run from the checkout, weights by autograd) gives every sample the same weight in its mini-batch's
// optimizer step, to 1e-12 relative, for every loss_reduction. (A sample without loss-mask tokens has no weight there.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { home } from '../../../src/core/frameworks/skyrl/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkStep } from '../../../src/core/frameworks/types.ts';

interface Case {
  config: {
    loss: string;
    k: number;
    prompts: number;
    miniBatchPrompts: number;
    dp: number;
    micro: number;
    maxSeqLen: number;
    completionTokens: number[];
  };
  miniBatches: { start: number; weights: (number | null)[] }[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-skyrl-trainer.json', import.meta.url), 'utf8')) as { cases: Case[] };

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b), 1e-300);

for (const [n, { config: c, miniBatches }] of golden.cases.entries()) {
  test(`skyrl trainer case ${n}: ${c.loss}, ${c.prompts} prompts × k ${c.k}, mini-batch ${c.miniBatchPrompts}, dp ${c.dp}`, () => {
    const settings = {
      ...defaultSettings(home.keys),
      ranks: c.dp,
      'train-batch-size': c.prompts,
      k: c.k,
      'policy-mini-batch-size': c.miniBatchPrompts,
      'micro-train-batch-size-per-gpu': c.micro,
      'max-seq-len': c.maxSeqLen,
      'loss-reduction': c.loss,
    };
    const prompts = Array.from({ length: c.prompts }, (_, i) => i);
    const step: FrameworkStep = { epoch: 0, step: 0, prompts, ranks: [], sources: [] };
    const got = home.trainer!.optimizerSteps(step, c.completionTokens, settings, c.loss, 3);
    assert.equal(got.length, miniBatches.length);
    got.forEach((s, j) => {
      const want = miniBatches[j]!;
      const seen: number[] = [];
      for (const mb of s.microBatches) {
        assert.equal(mb.policyVersion, 3);
        assert.equal(mb.trainVersion, 3 + j);
        mb.samples.forEach((i, x) => {
          seen.push(i);
          const w = want.weights[i - want.start];
          assert.notEqual(w, undefined, `sample ${i} is not in mini-batch ${j}`);
          if (w !== null) assert.ok(close(mb.weights[x]!, w!), `mini-batch ${j} sample ${i}: ${mb.weights[x]} vs ${w}`);
        });
      }
      assert.deepEqual(
        seen.sort((a, b) => a - b),
        want.weights.map((_, x) => want.start + x),
      );
    });
  });
}

test('skyrl trainer: seq_mean_token_sum_norm without max_seq_len is refused in SkyRL’s words', () => {
  const settings = { ...defaultSettings(home.keys), ranks: 1, 'train-batch-size': 2, k: 2, 'loss-reduction': 'seq_mean_token_sum_norm' };
  const step: FrameworkStep = { epoch: 0, step: 0, prompts: [0, 1], ranks: [], sources: [] };
  assert.throws(
    () => home.trainer!.optimizerSteps(step, [1, 2, 3, 4], settings, 'seq_mean_token_sum_norm', 0),
    /max_seq_len` must be set explicitly/,
  );
});
