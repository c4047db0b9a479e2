// `grpo-sandbox layout` as a user runs it: exit codes, the JSON shape, the text report, Node = Deno.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliDeno, runCliNode } from '../helpers/cli.ts';
import { Mt19937, randperm } from '../../src/core/rng/index.ts';

test('--json prints exactly one object {sampler, config, steps, stats} for seed-000', async () => {
  const res = await runCli(['layout', '--preset', 'seed-000', '--json']);
  assert.equal(res.status, 0, res.stderr);
  assert.equal(res.stderr, '');
  assert.equal(res.stdout.trim().split('\n').length, 1);
  const out = JSON.parse(res.stdout);
  assert.deepEqual(Object.keys(out), ['sampler', 'config', 'steps', 'stats']);
  assert.equal(out.sampler, 'flow-grpo');
  assert.deepEqual(out.config, {
    sampler: 'flow-grpo',
    ranks: 8,
    batch: 2,
    k: 4,
    batchesPerEpoch: 2,
    epochs: 1,
    datasetSize: 32,
    seed: 42,
    stepsPerGeneration: 1,
    numIterations: 1,
    gradientAccumulationSteps: 1,
    numWorkers: 1,
    prefetchFactor: 2,
    acceleratePrepare: 1,
  });
  assert.equal(out.steps.length, 2);
  for (const [i, s] of out.steps.entries()) {
    assert.deepEqual(Object.keys(s), ['epoch', 'step', 'ranks']);
    assert.deepEqual([s.epoch, s.step], [0, i]);
    assert.equal(s.ranks.length, 8);
    for (const slots of s.ranks) assert.equal(slots.length, 2);
  }
  // The prompts of batch 0 are the first 4 of PyTorch's randperm(32) for seed 42.
  const first4 = Array.from(randperm(32, new Mt19937(42)))
    .slice(0, 4)
    .sort((a, b) => a - b);
  assert.deepEqual(
    [...new Set<number>(out.steps[0].ranks.flat())].sort((a, b) => a - b),
    first4,
  );
  assert.equal(out.stats.samplesPerBatch, 16);
  assert.equal(out.stats.uniquePromptsPerBatch, 4);
  assert.equal(out.stats.samplesPerEpoch, 32);
  assert.equal(out.stats.uniquePromptsPerEpoch, 8);
});

test('flags override the preset and derived settings show in config', async () => {
  const out = JSON.parse(
    (await runCli(['layout', '--preset', 'seed-002', '--steps-per-generation', '2', '--num-iterations', '3', '--json'])).stdout,
  );
  assert.equal(out.sampler, 'trl');
  assert.equal(out.config.stepsPerGeneration, 2);
  assert.equal(out.config.numIterations, 3);
  assert.equal(out.config.batchesPerEpoch, 2); // 64 prompts / (4 × 16 × 2 / 4 = 32 per generation batch)
  assert.equal(out.steps[0].ranks[0].length, 32);
});

test('every preset seed-000 … seed-004 is accepted', async () => {
  for (let i = 0; i <= 4; i++) {
    const res = await runCli(['layout', '--preset', `seed-00${i}`, '--json']);
    assert.equal(res.status, 0, res.stderr);
    JSON.parse(res.stdout);
  }
});

test('text report: step tables with p-ids, copies, regroup flags, statistics and the explanation', async () => {
  const res = await runCli(['layout', '--preset', 'seed-000']);
  assert.equal(res.status, 0, res.stderr);
  const text = res.stdout;
  assert.match(text, /epoch 0, batch 0/);
  assert.match(text, /rank 7 +p\d+ +p\d+/);
  assert.match(text, /r\d\.\d→\d+/);
  assert.match(text, /view\(-1, k\).*flagged/);
  assert.match(text, /!MIXED/);
  assert.match(text, /samples per batch +16/);
  assert.match(text, /8 × 2 = 16 samples = 4 prompts × k=4 copies/);
  assert.match(text, /32 samples, 8 prompt draws/);
});

test('trl text notes the batches TRL loads but does not generate from', async () => {
  const res = await runCli(['layout', '--preset', 'seed-002', '--num-iterations', '2']);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /only loads the other 1/);
  assert.match(res.stdout, /not extra steps/);
});

test('bad flags and invalid configurations: exit 2, one line on stderr, nothing on stdout', async () => {
  const cases: [string[], RegExp][] = [
    [
      ['layout', '--k', '3'],
      new RegExp(
        '^grpo-sandbox layout: k=3 must divide ranks×batch=16; valid k here: 1, 2, 4, 8, 16; or batch=3 \\(→24\\); ' +
          'or use --sampler flow-grpo-lcm; flow_grpo .* raises: AssertionError: k can not divide n\\*b, k3-num_replicas8-batch_size2$',
        'm',
      ),
    ],
    [['layout', '--preset', 'seed-999'], /unknown preset 'seed-999'/],
    [['layout', '--sampler', 'nope'], /unknown --sampler 'nope'/],
    [['layout', '--ranks', 'two'], /--ranks must be a whole number/],
    [['layout', '--ranks', '0'], /--ranks must be between 1/],
    [['layout', '--bogus'], /unknown flag '--bogus'/],
    [['layout', '--sampler', 'trl', '--k', '1'], /at least 2/],
    [['layout', '--seed', '1.5'], /--seed must be a whole number/],
    [['layout', '--ranks', '-3'], /--ranks must be between 1/],
    [['layout', '--seed', '18446744073709551615'], /--seed 4294967295 gives the same stream/],
    [['layout', '--seed', '99999999999999999999999'], /outside PyTorch's/],
  ];
  for (const [args, pattern] of cases) {
    const res = await runCli(args);
    assert.equal(res.status, 2, args.join(' '));
    assert.equal(res.stdout, '', args.join(' '));
    assert.match(res.stderr, pattern, args.join(' '));
    assert.equal(res.stderr.trim().split('\n').length, 1, args.join(' '));
    assert.doesNotMatch(res.stderr, /at .*\.ts:\d+/);
  }
});

test("negative seeds are taken as PyTorch does (two's complement, low 32 bits)", async () => {
  const a = JSON.parse((await runCli(['layout', '--seed', '-1', '--json'])).stdout);
  const b = JSON.parse((await runCli(['layout', '--seed=4294967295', '--json'])).stdout);
  assert.equal(a.config.seed, -1);
  assert.deepEqual(a.steps[0], b.steps[0]);
});

test('long reports are not cut short when stdout is a pipe (the CLI exits right after)', async () => {
  const args = ['layout', '--sampler', 'dance-grpo', '--dataset-size', '4000', '--batch', '4'];
  const json = await runCli([...args, '--json']);
  assert.ok(json.stdout.length > 100_000);
  assert.equal(JSON.parse(json.stdout).steps.length, 500);
  const text = await runCli(args);
  assert.ok(text.stdout.length > 500_000);
  assert.match(text.stdout, /copies are consecutive\.\n$/);
});

test('--help prints the flags', async () => {
  const res = await runCli(['layout', '--help']);
  assert.equal(res.status, 0);
  assert.match(res.stdout, /--batches-per-epoch/);
});

test('Deno prints the same JSON and the same text as Node for seed-000', () => {
  for (const args of [
    ['layout', '--preset', 'seed-000', '--json'],
    ['layout', '--preset', 'seed-000'],
    ['layout', '--preset', 'seed-002', '--json', '--epochs', '2'],
  ]) {
    const node = runCliNode(args);
    const deno = runCliDeno(args);
    assert.equal(deno.status, 0, deno.stderr);
    assert.equal(deno.stdout, node.stdout, args.join(' '));
  }
  const bad = runCliDeno(['layout', '--k', '3']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /k=3 must divide/);
});

test('every setting of the table is a documented layout flag that sets its field', async () => {
  const { LAYOUT_SETTINGS } = await import('../../src/core/settings.ts');
  const { samplerNames, samplers, VERL_ONLY_FIELDS } = await import('../../src/core/samplers/index.ts');
  const { configFromFlags } = await import('../../src/cli/layout.ts');
  const help = (await runCli(['layout', '--help'])).stdout.replace(/\n +/g, ' ');
  for (const s of LAYOUT_SETTINGS) {
    assert.ok(help.includes(`--${s.flag} ${s.metavar}`), `--help lists --${s.flag}`);
    assert.ok(help.includes(s.hint), `--help gives the hint of --${s.flag}`);
    // A sampler that reads the setting (the others refuse it).
    const verlOnly = (VERL_ONLY_FIELDS as readonly string[]).includes(s.field);
    const sampler = verlOnly ? 'verl' : samplerNames.find((n) => !(s.field in samplers[n].ignores))!;
    const value = s.kind === 'sampler' ? 'contiguous' : s.kind === 'bool' ? 'false' : String(Math.min(3, s.max));
    const args = s.kind === 'sampler' ? [`--${s.flag}`, value] : ['--sampler', sampler, `--${s.flag}`, value];
    const got = configFromFlags(args).config as unknown as Record<string, unknown>;
    assert.equal(got[s.field], s.kind === 'sampler' ? value : s.kind === 'bool' ? false : Number(value), `--${s.flag} sets ${s.field}`);
  }
  assert.throws(() => configFromFlags(['--ranks', '0']), /--ranks must be between 1 and/);
});
