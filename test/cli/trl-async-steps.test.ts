// `steps --framework trl-async` as a user meets it: TRL's own setting names as flags, each rank's packed rows per
// optimizer step, the samples TokenBudgetBatcher drops said in the text and the JSON, and one line (exit 2) for a
// budget it cannot know. The weights themselves are checked against TRL's code in test/core/frameworks/trl-async-trainer.test.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const GIVEN = ['--framework', 'trl-async', '--num-processes', '2', '--gradient-accumulation-steps', '2', '--num-generations', '2'];

/** 8 samples: 300-token prompts and the completions below; 1500 and 1400 tokens exceed token_budget 1200. */
function seqlensFile(): { seqlens: string; lengths: string } {
  const dir = tempDir('trl-async-steps');
  const completions = [100, 200, 1200, 50, 1100, 300, 400, 250, 120, 80, 60, 40];
  const seqlens = join(dir, 'seqlens.json');
  const lengths = join(dir, 'lengths.json');
  writeFileSync(seqlens, JSON.stringify(completions.map((c) => 300 + c)));
  writeFileSync(lengths, JSON.stringify(completions));
  return { seqlens, lengths };
}

test('steps --framework trl-async: rows per rank, padding, the drops said loudly, weights and findings', async () => {
  const { seqlens, lengths } = seqlensFile();
  const res = await runCli(['steps', ...GIVEN, '--token-budget', '1200', '--seqlens', seqlens, '--lengths', lengths, '--steps', '1']);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /^TRL AsyncGRPOTrainer \(huggingface\/trl @ v1\.13\.0/);
  assert.match(res.stdout, /optimizer step 0 \(training step 0/);
  assert.match(res.stdout, /rank 1: 2 micro-batches/);
  assert.match(res.stdout, /normaliser Σ loss \/ clamp\(global_n_tokens \d+ \/ num_processes 2, min=1\)/);
  assert.match(res.stdout, /DROPPED sample 2 \(1500 tokens\): longer than token_budget=1200; it trains nowhere/);
  assert.match(res.stdout, /DROPPED sample 4 \(1400 tokens\)/);
  assert.match(res.stdout, /finding: TokenBudgetBatcher dropped 2 samples longer than token_budget=1200/);
  assert.match(res.stdout, /finding: Packing makes a token's weight depend on which micro-batch it lands in/);
});

test('steps --framework trl-async --json: each step’s dropped samples and per-rank micro-batches', async () => {
  const { seqlens, lengths } = seqlensFile();
  const res = await runCli(['steps', ...GIVEN, '--token-budget', '1200', '--seqlens', seqlens, '--lengths', lengths, '--json']);
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.equal(out.framework, 'trl-async');
  assert.equal(out.loss, 'micro-batch-token-mean');
  const first = out.steps[0];
  assert.deepEqual(
    first.dropped.map((d: { sample: number }) => d.sample),
    [2, 4],
  );
  assert.equal(first.microBatches.length, 4); // 2 ranks × gradient_accumulation_steps 2
  for (const mb of first.microBatches) assert.ok(mb.completions.length > 0, 'TokenBudgetBatcher leaves no row empty');
});

test('steps --framework trl-async: FixedCountBatcher with token_budget 0, and max_model_len for token_budget None', async () => {
  const fixed = await runCli([
    'steps',
    ...GIVEN,
    ...['--token-budget', '0', '--per-device-train-batch-size', '2', '--dataset-size', '8', '--epochs', '1', '--json'],
  ]);
  assert.equal(fixed.status, 0, fixed.stderr);
  const out = JSON.parse(fixed.stdout);
  for (const step of out.steps) {
    assert.equal(step.dropped, undefined);
    // per_device_train_batch_size 2 × num_processes 2 samples a micro-batch, balanced by Σ L² (a row may hold 1 and the other 3)
    const perMicroBatch = [0, 1].map((m) => step.microBatches.filter((_: unknown, j: number) => j % 2 === m));
    for (const mbs of perMicroBatch)
      assert.equal(
        mbs.reduce((a: number, mb: { completions: number[] }) => a + mb.completions.length, 0),
        4,
      );
  }
  const none = await runCli(['steps', ...GIVEN, '--max-model-len', '2048', '--dataset-size', '8', '--epochs', '1']);
  assert.equal(none.status, 0, none.stderr);
});

test('steps --framework trl-async: token_budget None without max_model_len is one line, exit 2; --help lists TRL’s keys', async () => {
  const res = await runCli(['steps', ...GIVEN]);
  assert.equal(res.status, 2);
  assert.equal(res.stderr.trim().split('\n').length, 1);
  assert.match(res.stderr, /token_budget is None.*--max-model-len/);
  const help = await runCli(['steps', '--framework', 'trl-async', '--help']);
  assert.equal(help.status, 0, help.stderr);
  for (const flag of [
    '--token-budget',
    '--num-processes',
    '--gradient-accumulation-steps',
    '--per-device-train-batch-size',
    '--num-generations',
  ])
    assert.ok(help.stdout.includes(flag), flag);
});

test('steps --framework trl-async --config: AsyncGRPOConfig kwargs as JSON, flags over the file, other fields ignored and said', async () => {
  const file = join(tempDir('trl-async-config'), 'config.json');
  writeFileSync(file, JSON.stringify({ token_budget: 1000, gradient_accumulation_steps: 2, num_generations: 4, learning_rate: 1e-6 }));
  const res = await runCli([
    'steps',
    '--framework',
    'trl-async',
    '--config',
    file,
    '--num-processes',
    '2',
    '--token-budget',
    '1100',
    '--json',
  ]);
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.equal(out.settings['token-budget'], 1100);
  assert.equal(out.settings['gradient-accumulation-steps'], 2);
  assert.equal(out.origins['token-budget'], 'flag');
  assert.equal(out.origins['num-generations'], 'config');
  assert.deepEqual(out.config.ignored, ['learning_rate']);
});
