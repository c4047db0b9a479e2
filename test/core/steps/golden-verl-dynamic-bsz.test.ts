// verl's actor.use_dynamic_bsz against its own rearrange_micro_batches and update_policy's loss_scale_factor,
// exec'd from the verl checkout at b178a3c by scripts/golden/verl_dynamic_bsz.py
// (test/fixtures/golden-verl-dynamic-bsz.json): each case is one step of the verl sampler with balance_batch off,
// its ranks' mini-batches cut into token-budget micro-batches. The packer alone, then `steps --sampler verl
// --use-dynamic-bsz true`, must give the same micro-batches in the same order, and each completion's weight the scale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildLayout } from '../../../src/core/samplers/index.ts';
import { buildSteps } from '../../../src/core/steps/index.ts';
import { dynamicMicroBatches } from '../../../src/core/frameworks/verl/rearrange.ts';

interface DynamicCase {
  ranks: number;
  k: number;
  prompts: number;
  miniBatchPrompts: number;
  normalisedMini: number;
  width: number;
  maxTokenLenPerGpu: number;
  seqlens: number[];
  miniBatches: { microBatches: number[][][]; lossScale: number[][] }[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-verl-dynamic-bsz.json', import.meta.url), 'utf8')) as {
  commit: string;
  cases: DynamicCase[];
};

test('the dynamic-bsz fixture names the commit its rearrange_micro_batches was read from, and packs', () => {
  assert.equal(golden.commit, 'b178a3cd56f58b2d502255daba591e92833930a7');
  assert.ok(golden.cases.length >= 50);
  const counts = golden.cases.flatMap((c) => c.miniBatches.map((m) => m.microBatches[0]!.length));
  assert.ok(counts.filter((n) => n >= 3).length >= 20, 'many mini-batches of three or more micro-batches');
});

test('rearrange_micro_batches: every rank’s micro-batches of every mini-batch, in verl’s run order', () => {
  for (const c of golden.cases) {
    const per = (c.prompts * c.k) / c.ranks;
    c.miniBatches.forEach((m, mi) => {
      const start = mi * c.normalisedMini;
      const ids = Array.from({ length: c.ranks }, (_, r) =>
        Array.from({ length: Math.min(c.normalisedMini, per - start) }, (_, i) => r * per + start + i),
      );
      const got = dynamicMicroBatches(
        ids.map((ix) => ix.map((i) => c.seqlens[i]!)),
        c.maxTokenLenPerGpu,
      ).map((parts, r) => parts.map((p) => p.map((i) => ids[r]![i]!)));
      assert.deepEqual(got, m.microBatches);
    });
  }
});

for (const [n, c] of golden.cases.entries()) {
  test(`steps --sampler verl --use-dynamic-bsz true, case ${n}: W=${c.ranks}, mini ${c.normalisedMini}, budget ${c.maxTokenLenPerGpu}`, () => {
    const layout = buildLayout({
      sampler: 'verl',
      ranks: c.ranks,
      batch: (c.prompts * c.k) / c.ranks,
      k: c.k,
      batchesPerEpoch: 1,
      epochs: 1,
      datasetSize: c.prompts,
      seed: 1,
      stepsPerGeneration: 1,
      numIterations: 1,
      gradientAccumulationSteps: 1,
      numWorkers: 0,
      prefetchFactor: 2,
      acceleratePrepare: 0,
      balanceBatch: false,
      ppoMiniBatchSize: c.miniBatchPrompts,
      ppoMicroBatchSizePerGpu: 0,
      dataloaderNumWorkers: 0,
      useDynamicBsz: true,
      ppoMaxTokenLenPerGpu: c.maxTokenLenPerGpu,
      seqlens: c.seqlens,
    });
    const report = buildSteps(layout);
    assert.equal(report.steps.length, c.miniBatches.length, 'one optimizer step per mini-batch');
    report.steps.forEach((step, mi) => {
      const want = c.miniBatches[mi]!;
      assert.equal(step.microSteps, want.microBatches[0]!.length);
      for (const mb of step.microBatches) {
        const j = mb.microStep - step.microBatches[0]!.microStep;
        const rows = mb.rows.map((i) => step.rows[i]!);
        assert.deepEqual(
          rows.map((r) => r.completion),
          want.microBatches[mb.rank]![j],
        );
        const tokens = rows.reduce((t, r) => t + r.tokens, 0);
        assert.equal(
          mb.packedTokens,
          rows.reduce((t, r) => t + c.seqlens[r.completion]!, 0),
        );
        // token-mean: each token's weight is loss_scale_factor / micro-batch tokens, averaged over the W ranks.
        for (const r of rows) {
          const scale = r.weight * c.ranks * tokens;
          assert.ok(Math.abs(scale - want.lossScale[mb.rank]![j]!) < 1e-12, `scale ${scale} vs ${want.lossScale[mb.rank]![j]}`);
        }
      }
    });
  });
}

/** A verl layout with use_dynamic_bsz on the synthetic seqlens (64…1024 tokens), balance_batch as verl's default. */
function dynamicLayout(budget: number) {
  return buildLayout({
    sampler: 'verl',
    ranks: 4,
    batch: 12,
    k: 4,
    batchesPerEpoch: 1,
    epochs: 2,
    datasetSize: 30,
    seed: 7,
    stepsPerGeneration: 1,
    numIterations: 2,
    gradientAccumulationSteps: 1,
    numWorkers: 0,
    prefetchFactor: 2,
    acceleratePrepare: 0,
    ppoMiniBatchSize: 6,
    useDynamicBsz: true,
    ppoMaxTokenLenPerGpu: budget,
  });
}

test('the layout counts the micro-steps the steps run (use_dynamic_bsz: per mini-batch, the ranks’ maximum)', () => {
  const layout = dynamicLayout(2048);
  const report = buildSteps(layout);
  const micro = report.steps.reduce((n, s) => n + s.microSteps, 0);
  assert.equal(layout.counts.total.microSteps, micro);
  assert.equal(layout.counts.total.optimizerSteps, report.steps.length);
  assert.ok(layout.counts.factors.some((f) => f.includes('rearrange_micro_batches(max_token_len = ppo_max_token_len_per_gpu 2048)')));
});

test('a budget below the longest sample is refused in verl’s words (rearrange_micro_batches’ assertion)', () => {
  assert.throws(
    () => dynamicLayout(1000),
    /verl b178a3c raises: AssertionError: max_token_len must be greater than the sequence length\. Got max_token_len=1000 and max_seq_len=1024/,
  );
});
