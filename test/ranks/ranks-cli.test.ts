import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliDeno } from '../helpers/cli.ts';

// Under Deno this file drives the Deno CLI (Web Workers); under Node, bin/grpo-sandbox.js (worker_threads).
const cli = 'Deno' in globalThis ? runCliDeno : runCli;

test('grpo-sandbox ranks: 8 ranks all-gather, all-reduce and gather objects, identically on every rank', () => {
  const res = cli(['ranks', '--world', '8']);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /every rank now holds \[16, 1\], rank-major/);
  assert.match(res.stdout, /allGatherObject {2}pool of 16 samples; origin rank of each: 0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7/);
  assert.match(res.stdout, /all 8 ranks received identical results/);
});

test('grpo-sandbox ranks --fault shape|deadlock|device|throw: each failure is explained, exit 1; --fix makes it pass', () => {
  const cases: [string, RegExp][] = [
    ['shape', /ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/],
    ['deadlock', /rank 3: not in a collective; last finished allReduce #1[\s\S]*rank 3 never entered allGatherObject #2/],
    ['mismatch', /ranks 0–2 called allGatherObject #2; rank 3 called barrier #2/],
    ['device', /Expected all tensors to be on the same device, but found tensors on sim:1 and sim:0/],
    ['throw', /ranks 0, 2, 3: RankFailedError: rank 1 failed: Error: reward model crashed on rank 1/],
  ];
  for (const [fault, expected] of cases) {
    const res = cli(['ranks', '--fault', fault, '--timeout-ms', '300']);
    assert.equal(res.status, 1, `${fault}: ${res.stderr}`);
    assert.match(res.stdout, expected, fault);
    assert.match(res.stdout, /every worker is stopped/);
  }
  // One fix through the CLI (each spawns a process and its workers); the programs' fixes are
  // also covered by faults.test.ts.
  const fixed = cli(['ranks', '--fault', 'device', '--fix']);
  assert.equal(fixed.status, 0, `device --fix: ${fixed.stdout}${fixed.stderr}`);
  assert.match(fixed.stdout, /rank 2: \{"slice":\[32,48\],"shape":\[16,1\],"device":"sim:2","origins":\["sim:2","sim:3"\]\}/);
});

test('grpo-sandbox ranks: bad flags are one line on stderr and exit 2', () => {
  for (const [args, message] of [
    [['--world', '0'], /--world must be between 1 and 256, got 0/],
    [['--world', '300'], /--world must be between 1 and 256, got 300/],
    [['--fault', 'nope'], /--fault must be one of none, shape, deadlock, mismatch, device, throw, got 'nope'/],
    [['--fault', 'deadlock', '--world', '1'], /needs at least 2 ranks/],
    [['--fix'], /--fix applies to --fault shape, deadlock, mismatch or device/],
  ] as [string[], RegExp][]) {
    const res = cli(['ranks', ...args]);
    assert.equal(res.status, 2, args.join(' '));
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split('\n').length, 1);
  }
});
