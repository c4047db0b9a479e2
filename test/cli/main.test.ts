import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliProcess } from '../helpers/cli.ts';

// The entry's own statuses as a process's exit status (src/cli/bin.ts); the flag mistakes in the test's process.

test('an unknown command exits 2 with one line on stderr and nothing on stdout', () => {
  const res = runCliProcess(['no-such-command']);
  assert.equal(res.status, 2);
  assert.equal(res.stdout, '');
  assert.match(res.stderr, /unknown command 'no-such-command'/);
  assert.equal(res.stderr.trim().split('\n').length, 1);
});

test('--help lists the commands and exits 0', () => {
  const res = runCliProcess(['--help']);
  assert.equal(res.status, 0);
  assert.match(res.stdout, /usage: grpo-sandbox <command>/);
  // Every command is listed with its one-line summary.
  for (const name of ['layout', 'ranks', 'loss']) assert.match(res.stdout, new RegExp(`^  ${name} +\\S.+$`, 'm'));
});

test('bare grpo-sandbox prints the usage on stderr (nothing on stdout) and exits 2', () => {
  const res = runCliProcess([]);
  assert.equal(res.status, 2);
  assert.equal(res.stdout, '');
  assert.match(res.stderr, /^usage: grpo-sandbox <command>/);
});

test('one line for each flag mistake, nothing on stdout, exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [['layout', '--sampler', '--json'], /^grpo-sandbox layout: --sampler needs a value, but is followed by the flag '--json'/],
    [['layout', '--seed', '--5'], /^grpo-sandbox layout: --seed needs a value/],
    [['layout', '--preset', '__proto__'], /^grpo-sandbox layout: unknown preset '__proto__'; presets: seed-000/],
    [['layout', '--preset', 'constructor'], /^grpo-sandbox layout: unknown preset 'constructor'/],
    [['layout', '--sampler', 'toString'], /^grpo-sandbox layout: unknown --sampler 'toString'; choose one of flow-grpo/],
    [['layout', '--k', '2', '--k', '4'], /^grpo-sandbox layout: --k is given twice \('2' and '4'\); give it once\n$/],
    [['ranks', '--world'], /^grpo-sandbox ranks: --world needs a value/],
    [['__proto__'], /^grpo-sandbox: unknown command '__proto__'/],
  ];
  for (const [args, expected] of cases) {
    const res = await runCli(args);
    assert.equal(res.status, 2, args.join(' '));
    assert.equal(res.stdout, '', args.join(' '));
    assert.match(res.stderr, expected);
    assert.equal(res.stderr.split('\n').length, 2, res.stderr);
  }
});
