import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.ts';

test('an unknown command exits 2 with one line on stderr and nothing on stdout', () => {
  const res = runCli(['no-such-command']);
  assert.equal(res.status, 2);
  assert.equal(res.stdout, '');
  assert.match(res.stderr, /unknown command 'no-such-command'/);
  assert.equal(res.stderr.trim().split('\n').length, 1);
});

test('--help lists the commands and exits 0', () => {
  const res = runCli(['--help']);
  assert.equal(res.status, 0);
  assert.match(res.stdout, /usage: grpo-sandbox <command>/);
  // Every command is listed with its one-line summary.
  for (const name of ['layout', 'ranks', 'loss']) assert.match(res.stdout, new RegExp(`^  ${name} +\\S.+$`, 'm'));
});
