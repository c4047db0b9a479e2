// `grpo-sandbox train --dynamic-sampling …` as a user runs it, under Node and Deno: the per-step
// metrics in metrics.jsonl and the progress line, the simulated failures (exit 1 with the
// diagnosis on stderr, nothing on stdout) and bad flags (exit 2, one line). Node-only file: it
// starts both runtimes itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, runCliDeno, runCliNode } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const sparse = ['--ranks', '3', '--batch', '8', '--k', '4', '--sampler', 'contiguous', '--reward', 'sparse', '--filter-metric', 'accuracy'];

test('train --dynamic-sampling pad writes the dynamic metrics per step and shows them in the progress line', async () => {
  const out = tempDir('grpo-dyntrain-');
  const r = await runCli(['train', ...sparse, '--dynamic-sampling', 'pad', '--max-resample-times', '1', '--steps', '4', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /dynamic sampling pad \(≤ 1 resamples, flat by accuracy\)/);
  assert.match(r.stdout, /step 1\/4 .* valid \d+(→\d+)?\/24, [01] resamples?/);
  const lines = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 4);
  for (const m of lines) {
    for (const key of [
      'validAfter',
      'resamples',
      'shortage',
      'invalidGroupsKept',
      'duplicated',
      'discardedSurplus',
      'extraGenerations',
      'rows',
    ])
      assert.ok(key in m.dynamic, key);
    assert.equal(m.dynamic.policy, 'pad');
  }
  assert.ok(
    lines.some((m) => m.dynamic.duplicated > 0),
    'pad duplicated samples in some step',
  );
  const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8'));
  assert.deepEqual([config.dynamicSampling, config.maxResampleTimes, config.filterMetric], ['pad', 1, 'accuracy']);
  const ckpt = JSON.parse(readFileSync(join(out, 'checkpoint.json'), 'utf8'));
  const last = lines.at(-1);
  assert.equal(ckpt.rng.nextLayoutStep, last.layoutStep + last.dynamic.draws, 'the checkpoint holds the sampler counter');
});

for (const [name, cli] of [
  ['Node', runCliNode],
  ['Deno', runCliDeno],
] as const) {
  test(`${name}: naive fails with the shape mismatch, raise with verl's message (exit 1, diagnosis on stderr)`, () => {
    const naive = cli(['train', ...sparse, '--dynamic-sampling', 'naive', '--max-resample-times', '1', '--steps', '4', '--json']);
    assert.equal(naive.status, 1, naive.stderr);
    assert.equal(naive.stdout, '');
    assert.match(naive.stderr, /the run failed: .*ShapeMismatchError/);
    assert.match(naive.stderr, /shape mismatch: .*Use allGatherVariable for uneven sizes/);
    const raise = cli(['train', ...sparse, '--dynamic-sampling', 'raise', '--max-resample-times', '0', '--steps', '4', '--json']);
    assert.equal(raise.status, 1, raise.stderr);
    assert.equal(raise.stdout, '');
    assert.match(raise.stderr, /ValueError: num_gen_batches=1 >= max_num_gen_batches=1\. Generated too many\./);
  });
}

test('bad dynamic-sampling flags: one line on stderr, exit 2', async () => {
  for (const [args, message] of [
    [['--dynamic-sampling', 'sometimes'], /--dynamic-sampling must be one of fallback, pad, rebalance, raise, raise-nemo, stream, naive/],
    [['--max-resample-times', '2'], /--max-resample-times only applies with --dynamic-sampling POLICY/],
    [['--dynamic-sampling', 'pad', '--filter-metric', 'loss'], /--filter-metric must be one of reward, accuracy/],
    [['--dynamic-sampling', 'stream', '--sampler', 'flow-grpo', '--batch', '8', '--k', '4'], /stream needs every group on one rank/],
  ] as [string[], RegExp][]) {
    const r = await runCli(['train', '--ranks', '2', ...args]);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, message);
  }
});
