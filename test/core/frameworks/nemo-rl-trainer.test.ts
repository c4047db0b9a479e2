// NeMo RL's trainer (src/core/frameworks/nemo-rl/trainer.ts) against its own code: each case of
// test/fixtures/golden-nemo-rl-trainer.json (scripts/golden/nemo-rl_trainer.py: batched_data_dict.py's shards and
// micro-batches and masked_mean run from the checkout, weights by autograd) gives the same micro-batches per rank and
// the same per-token weights, to 1e-12 relative. A dummy micro-batch (sequence packing) has no samples here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { home } from '../../../src/core/frameworks/nemo-rl/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkStep } from '../../../src/core/frameworks/types.ts';

interface Case {
  config: Record<string, number | string>;
  seqlens: number[];
  completionTokens: number[];
  steps: { microBatches: { rank: number; samples: number[]; dummy: boolean; weights: number[] }[] }[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-nemo-rl-trainer.json', import.meta.url), 'utf8')) as {
  cases: Case[];
};

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b), 1e-300);

for (const [n, c] of golden.cases.entries()) {
  const cfg = c.config;
  test(`nemo-rl trainer case ${n}: ${cfg.mode}, dp ${cfg.dp}, gbs ${cfg.gbs}, token_level_loss ${cfg.loss}`, () => {
    const settings = {
      ...defaultSettings(home.keys),
      ranks: cfg.dp!,
      'train-batch-size': c.seqlens.length,
      k: 1,
      'train-global-batch-size': cfg.gbs!,
      'train-micro-batch-size': cfg.mbs!,
      'make-sequence-length-divisible-by': cfg.padMultiple!,
      'dynamic-batching': cfg.mode === 'dynamic',
      'dynamic-batching-train-mb-tokens': cfg.trainMbTokens!,
      'dynamic-batching-sequence-length-round': cfg.seqRound!,
      'sequence-packing': cfg.mode === 'packing',
      'sequence-packing-train-mb-tokens': cfg.trainMbTokens!,
      'sequence-packing-algorithm': cfg.algorithm!,
      'sequence-packing-microbatch-order': 'packer',
      'token-level-loss': cfg.loss === 'true',
    };
    const step: FrameworkStep = { epoch: 0, step: 0, prompts: [], ranks: [], sources: [], seqlens: c.seqlens };
    const got = home.trainer!.optimizerSteps(step, c.completionTokens, settings, String(cfg.loss), 5);
    assert.equal(got.length, c.steps.length);
    got.forEach((s, j) => {
      assert.equal(s.index, 5 + j);
      const want = c.steps[j]!.microBatches;
      assert.deepEqual(
        s.microBatches.map((m) => [m.rank, m.samples]),
        want.map((m) => [m.rank, m.dummy ? [] : m.samples]),
      );
      s.microBatches.forEach((m, i) => {
        assert.equal(m.policyVersion, 5);
        assert.equal(m.trainVersion, 5 + j);
        const w = want[i]!.dummy ? [] : want[i]!.weights;
        assert.equal(m.weights.length, w.length);
        m.weights.forEach((x, k) => assert.ok(close(x, w[k]!), `step ${j} mb ${i} sample ${k}: ${x} vs ${w[k]}`));
      });
    });
  });
}
