// `grpo-sandbox async`: its JSON (steps[t] with the trainer's version and samples with prompt and version(s), dropped),
// the side-by-side table, its one-line errors, and the same bytes on Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli, runCliDeno, runCliNode } from '../helpers/cli.ts';

const json = async (args: string[]) => {
  const r = await runCli(['async', ...args, '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

test('--json: steps[t] carry the trainer version and each sample’s prompt and version or versions; dropped says why', async () => {
  const d = await json(['--framework', 'nemo-rl', '--steps', '6', '--concurrency', '16', '--step-time', '5', '--seed', '1']);
  assert.equal(d.framework, 'nemo-rl');
  assert.equal(d.settings['async_rl.sampler.name'], 'windowed');
  assert.equal(d.steps.length, 6);
  d.steps.forEach((s: { step: number; version: number; samples: Record<string, unknown>[] }, t: number) => {
    assert.equal(s.step, t);
    assert.equal(s.version, t);
    assert.equal(s.samples.length, 16);
    for (const x of s.samples) {
      assert.equal(typeof x.prompt, 'number');
      assert.ok(typeof x.version === 'number' || (Array.isArray(x.versions) && x.versions.length >= 2), JSON.stringify(x));
      assert.equal(typeof x.lag, 'number');
      assert.equal(typeof x.wait, 'number');
    }
  });
  assert.ok(d.dropped.length > 0);
  for (const x of d.dropped) assert.ok(['evicted', 'aborted-in-flight'].includes(x.why) && x.requeued === false);
  assert.equal(d.workload.lengths.name, 'bimodal');
});

test('--compare and --framework all run one workload under every rule, one row each', async () => {
  const all = await json(['--framework', 'all', '--steps', '4']);
  assert.deepEqual(
    all.runs.map((r: { framework: string }) => r.framework),
    ['areal', 'nemo-rl', 'prime-rl', 'trl-async', 'open-instruct', 'openrlhf', 'verl', 'roll', 'skyrl', 'slime'],
  );
  const some = await json(['--compare', 'areal,trl-async', '--max-staleness', '1', '--steps', '4']);
  assert.deepEqual(
    some.runs.map((r: { settings: Record<string, unknown> }) => [r.settings['rollout.max_head_offpolicyness'], r.settings.max_staleness]),
    [
      [1, undefined],
      [undefined, 1],
    ],
  );
  const text = await runCli(['async', '--compare', 'areal,nemo-rl,slime', '--steps', '3']);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /framework +setting +mean lag +max lag +dropped +completions\/s/);
  assert.match(text.stdout, /slime +no version control/);
});

test('one run in words: each step’s batch by version and each group’s lag, drops, the length bias and how the rule was checked', async () => {
  const r = await runCli([
    'async',
    '--framework',
    'trl-async',
    '--max-staleness',
    '1',
    '--concurrency',
    '16',
    '--step-time',
    '5',
    '--steps',
    '6',
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^trl-async \(huggingface\/trl 1\.13\.0 \(wheel\)\): max_staleness=1, max_inflight_tasks=16, token_budget=max_model_len, num_processes=1\n/,
  );
  assert.match(r.stdout, /step +version +start +end +trainer idle +generator idle +batch by version/);
  assert.match(r.stdout, /P\d+ v\d+(→\d+)? lag \d/);
  assert.match(r.stdout, /dropped: \d+ groups \(stale-at-consumption \d+\)/);
  assert.match(r.stdout, /length bias: trained mean [\d.]+ tokens vs generated [\d.]+ \([+−][\d.]+%\)/);
  assert.match(r.stdout, /checked: test\/fixtures\/golden-async-predicates\.json/);
});

test('mistakes are one line and exit 2', async () => {
  for (const [args, pattern] of [
    [[], /--framework is required/],
    [['--framework', 'nope'], /unknown framework 'nope'/],
    [['--framework', 'areal', '--sampler-policy', 'in_order'], /--sampler-policy is not areal's setting \(it is nemo-rl's\)/],
    [['--framework', 'slime', '--max-staleness', '1'], /slime has no staleness bound to set: no version control/],
    [['--framework', 'nemo-rl', '--sampler-policy', 'custom'], /custom loads a PromptGroupSampler/],
    [['--framework', 'open-instruct', '--max-staleness', '0'], /must be at least 1/],
    [['--framework', 'roll', '--max-staleness', '0.5'], /async_generation_ratio must be >= 1\.0/],
    [['--framework', 'areal', '--step-time', '3', '--train-tokens-per-second', '9'], /exactly one of --step-time/],
    [['--framework', 'areal', '--steps', '100000', '--train-batch-size', '64'], /would need about .* lower --steps/],
    [['--compare', 'areal,trl-async', '--max-inflight-tasks', '4'], /--max-inflight-tasks is trl-async's own setting/],
    [['--framework', 'areal', '--lengths', 'no/such/file.json'], /--lengths 'no\/such\/file.json': cannot read it/],
  ] as [string[], RegExp][]) {
    const r = await runCli(['async', ...args]);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('--help names every framework, its settings with their own keys and shipped defaults', async () => {
  const r = await runCli(['async', '--help']);
  assert.equal(r.status, 0);
  for (const key of [
    'rollout.max_head_offpolicyness = 0',
    'async_rl.sampler.name = windowed',
    'orchestrator.max_off_policy_steps = 8',
    'max_staleness = 4',
    'async_steps = 8',
    '--train.async_queue_size = 1',
    'async_training.staleness_threshold = 0.1',
    'async_generation_ratio = 0',
    'trainer.fully_async.max_staleness_steps = 4',
  ]) {
    assert.ok(r.stdout.includes(key), key);
  }
});

test('the same seed gives the same JSON bytes on Node and Deno', async () => {
  const args = ['async', '--framework', 'all', '--steps', '6', '--seed', '5', '--length-distribution', 'long-tail', '--json'];
  const here = await runCli(args);
  // The other runtime, as a process: Deno when this test runs under Node, Node under Deno.
  const there = 'Deno' in globalThis ? runCliNode(args) : runCliDeno(args);
  assert.equal(there.status, 0, there.stderr);
  assert.equal(there.stdout, here.stdout);
});
