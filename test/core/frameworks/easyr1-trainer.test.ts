// EasyR1's trainer (src/core/frameworks/easyr1/trainer.ts) against its own code: each case of
// test/fixtures/golden-easyr1-trainer.json (scripts/golden/easyr1_trainer.py: average_loss, masked_mean and
// rearrange_micro_batches run from the checkout, weights by autograd) gives the same micro-batches per rank and the
// same per-token weights, to 1e-12 relative, for loss_avg_mode token and seq, with and without dynamic batching.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { home } from '../../../src/core/frameworks/easyr1/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkStep } from '../../../src/core/frameworks/types.ts';

interface Case {
  ranks: number;
  perRank: number;
  width: number;
  microBatchSize: number;
  dynamicBatching: boolean;
  lossAvgMode: string;
  seqlens: number[];
  responseTokens: number[];
  microBatches: number[][][];
  weights: number[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-easyr1-trainer.json', import.meta.url), 'utf8')) as { cases: Case[] };

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b), 1e-300);

for (const [n, c] of golden.cases.entries()) {
  test(`easyr1 trainer case ${n}: ${c.ranks} ranks × ${c.perRank}, loss_avg_mode ${c.lossAvgMode}, dynamic_batching ${c.dynamicBatching}`, () => {
    const samples = c.ranks * c.perRank;
    const settings = {
      ...defaultSettings(home.keys),
      ranks: c.ranks,
      'train-batch-size': samples,
      k: 1,
      'global-batch-size': samples,
      'micro-batch-size-per-device-for-update': c.microBatchSize,
      'max-prompt-length': 0,
      'max-response-length': c.width,
      'dynamic-batching': c.dynamicBatching,
      'loss-avg-mode': c.lossAvgMode,
    };
    const sources = Array.from({ length: c.ranks }, (_, r) => Array.from({ length: c.perRank }, (_, i) => r * c.perRank + i));
    const step: FrameworkStep = { epoch: 0, step: 0, prompts: [], ranks: [], sources, seqlens: c.seqlens };
    const got = home.trainer!.optimizerSteps(step, c.responseTokens, settings, c.lossAvgMode, 2);
    assert.equal(got.length, 1);
    const [s] = got;
    assert.deepEqual(
      s!.microBatches.map((m) => [m.rank, m.samples]),
      c.microBatches.flatMap((mbs, r) => mbs.map((mb) => [r, mb])),
    );
    for (const mb of s!.microBatches) {
      assert.equal(mb.policyVersion, 2);
      assert.equal(mb.trainVersion, 2);
      mb.samples.forEach((i, x) => assert.ok(close(mb.weights[x]!, c.weights[i]!), `sample ${i}: ${mb.weights[x]} vs ${c.weights[i]}`));
    }
  });
}
