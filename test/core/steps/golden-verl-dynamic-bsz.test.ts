// verl's actor.use_dynamic_bsz against its own rearrange_micro_batches and update_policy's loss_scale_factor,
// exec'd from the verl checkout at b178a3c by scripts/golden/verl_dynamic_bsz.py
// (test/fixtures/golden-verl-dynamic-bsz.json): each case is one step of the verl sampler with balance_batch off,
// its ranks' mini-batches cut into token-budget micro-batches. The packer alone, then `steps --sampler verl
// --use-dynamic-bsz true`, must give the same micro-batches in the same order, and each completion's weight the scale.
// Cases 60 on run with actor.ulysses_sequence_parallel_size 2, 4 or 8: `ranks` is the data-parallel size (the script runs
// every GPU of each group and keeps one per rank), max_token_len is ppo_max_token_len_per_gpu × sp as update_policy
// computes it, and the mini-batch is normalised by GPUs // sp as the worker's __init__ does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildLayout } from '../../../src/core/samplers/index.ts';
import { buildSteps } from '../../../src/core/steps/index.ts';
import { dynamicMicroBatches, verlMaxTokenLen } from '../../../src/core/frameworks/verl/rearrange.ts';
import { verlSizes } from '../../../src/core/frameworks/verl/sampler.ts';

interface DynamicCase {
  ranks: number;
  k: number;
  prompts: number;
  miniBatchPrompts: number;
  normalisedMini: number;
  width: number;
  maxTokenLenPerGpu: number;
  /** actor.ulysses_sequence_parallel_size; the run's GPUs are ranks × it. */
  ulyssesSp: number;
  gpus: number;
  /** update_policy's max_token_len, eval'd from verl's expression. */
  maxTokenLen: number;
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
  const sp = golden.cases.filter((c) => c.ulyssesSp > 1);
  assert.ok(sp.length >= 30, 'cases with Ulysses sequence parallelism');
  assert.ok(sp.filter((c) => c.maxTokenLenPerGpu < Math.max(...c.seqlens)).length >= 10, 'a per-GPU budget below the longest sample');
  assert.ok(sp.filter((c) => c.miniBatches[0]!.microBatches[0]!.length >= 3).length >= 10, 'SP cases of three or more micro-batches');
});

test('Ulysses SP: max_token_len = ppo_max_token_len_per_gpu × sp, and the mini-batch is normalised by the data-parallel size', () => {
  for (const c of golden.cases) {
    const m = verlMaxTokenLen({ ppoMaxTokenLenPerGpu: c.maxTokenLenPerGpu, ulyssesSequenceParallelSize: c.ulyssesSp });
    assert.equal(m.tokens, c.maxTokenLen, `T ${c.maxTokenLenPerGpu}, sp ${c.ulyssesSp}`);
    assert.equal(c.gpus, c.ranks * c.ulyssesSp);
    const sizes = verlSizes({ ...layoutConfig(c), ulyssesSequenceParallelSize: c.ulyssesSp });
    assert.equal(sizes.normalisedMini, c.normalisedMini, `mini ${c.miniBatchPrompts} × k ${c.k} over ${c.gpus} GPUs, sp ${c.ulyssesSp}`);
  }
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
        verlMaxTokenLen({ ppoMaxTokenLenPerGpu: c.maxTokenLenPerGpu, ulyssesSequenceParallelSize: c.ulyssesSp }).tokens,
      ).map((parts, r) => parts.map((p) => p.map((i) => ids[r]![i]!)));
      assert.deepEqual(got, m.microBatches);
    });
  }
});

/** The sandbox's configuration of a case: its step, balance_batch off, use_dynamic_bsz at its budget and SP size. */
function layoutConfig(c: DynamicCase) {
  return {
    sampler: 'verl' as const,
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
    ulyssesSequenceParallelSize: c.ulyssesSp,
    seqlens: c.seqlens,
  };
}

for (const [n, c] of golden.cases.entries()) {
  const sp = c.ulyssesSp > 1 ? `, Ulysses sp ${c.ulyssesSp}` : '';
  test(`steps --sampler verl --use-dynamic-bsz true, case ${n}: W=${c.ranks}, mini ${c.normalisedMini}, budget ${c.maxTokenLenPerGpu}${sp}`, () => {
    const layout = buildLayout(layoutConfig(c));
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
function dynamicLayout(budget: number, ulyssesSequenceParallelSize = 1) {
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
    ulyssesSequenceParallelSize,
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

test('Ulysses SP: the layout counts and refuses at ppo_max_token_len_per_gpu × sp (update_policy’s max_token_len)', () => {
  // 600 per GPU is below the longest synthetic sample, 600 × 2 is not: verl runs it with sp 2 and refuses it with sp 1.
  assert.throws(() => dynamicLayout(600), /Got max_token_len=600 and max_seq_len=1024/);
  const layout = dynamicLayout(600, 2);
  const report = buildSteps(layout);
  assert.equal(
    layout.counts.total.microSteps,
    report.steps.reduce((n, s) => n + s.microSteps, 0),
  );
  assert.ok(layout.counts.factors.some((f) => f.includes('ppo_max_token_len_per_gpu 600 × ulysses_sequence_parallel_size 2 = 1200')));
  // The same cut as the budget of 1200 on one GPU per rank: SP changes the budget, not the data path.
  const plain = buildSteps(dynamicLayout(1200));
  assert.deepEqual(
    report.steps.map((s) => s.microBatches.map((m) => m.rows.map((r) => s.rows[r]!.completion))),
    plain.steps.map((s) => s.microBatches.map((m) => m.rows.map((r) => s.rows[r]!.completion))),
  );
  assert.throws(() => dynamicLayout(500, 2), /Got max_token_len=1000 and max_seq_len=1024/);
});

test('Ulysses SP without use_dynamic_bsz: the step’s samples must split over ranks × sp GPUs (validate_config, in verl’s words)', () => {
  const config = { ...dynamicLayout(16384).config, useDynamicBsz: false, ranks: 2, batch: 3, k: 3, datasetSize: 12, ppoMiniBatchSize: 0 };
  assert.equal(buildLayout({ ...config, ulyssesSequenceParallelSize: 3 }).config.ulyssesSequenceParallelSize, 3);
  // verl's validate_config raised these words on the config `layout --emit verl` writes for it (n_gpus_per_node 4),
  // run through scripts/golden/verl_config_check.py.
  const says = 'verl b178a3c raises: AssertionError: real_train_batch_size (6) must be divisible by minimal possible batch size (4)';
  assert.throws(
    () => buildLayout({ ...config, ulyssesSequenceParallelSize: 2 }),
    (err: Error) => err.message.includes('6 samples per step must split over the 4 GPUs') && err.message.endsWith(says),
  );
  // With use_dynamic_bsz validate_config skips the check.
  assert.equal(buildLayout({ ...config, useDynamicBsz: true, ulyssesSequenceParallelSize: 2 }).steps.length, 12);
});
