import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.ts';

// In the test's process (runCli): under Deno the Deno CLI's code (Web Workers), under Node Node's (worker_threads).

test('grpo-sandbox ranks: 8 ranks all-gather, all-reduce and gather objects, identically on every rank', async () => {
  const res = await runCli(['ranks', '--world', '8']);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /every rank now holds \[16, 1\], rank-major/);
  assert.match(res.stdout, /allGatherObject {2}pool of 16 samples; origin rank of each: 0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7/);
  assert.match(res.stdout, /all 8 ranks received identical results/);
});

test('ranks --fault shape|deadlock|mismatch|device|throw: each failure explained (as NCCL shows it, if a mismatch), exit 1; --fix passes', async () => {
  const cases: [string, RegExp][] = [
    ['shape', /ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/],
    [
      'deadlock',
      /rank 3: its step returned; last collective allReduce #1[\s\S]*rank 3 skipped allGatherObject #2 \(finished the step without it\)/,
    ],
    ['mismatch', /ranks 0–2 called allGatherObject #2; rank 3 called barrier #2/],
    ['device', /Expected all tensors to be on the same device, but found tensors on sim:1 and sim:0/],
    ['throw', /ranks 0, 2, 3: RankFailedError: rank 1 failed: Error: reward model crashed on rank 1/],
  ];
  for (const [fault, expected] of cases) {
    // 3 s, not less: only the deadlock waits for it (the others are caught at once), and a shorter
    // hang clock mistook a slow healthy allReduce for the hang on a loaded machine.
    const res = await runCli(['ranks', '--fault', fault, '--timeout-ms', '3000']);
    assert.equal(res.status, 1, `${fault}: ${res.stderr}`);
    // The diagnosis (with its timings) goes to stderr; stdout holds one stable line.
    assert.match(res.stderr, expected, fault);
    assert.match(res.stderr, /every worker is stopped/);
    // Only a collective's mismatch is worded as the backend shows it (NCCL: a hang until its watchdog); a rank's own
    // error, and the sandbox's own hang detector (deadlock: a skipped collective), read the same under any.
    const worded = fault === 'shape' || fault === 'mismatch';
    assert.equal(/Shown as NCCL would/.test(res.stderr), worded, `${fault}: says how NCCL shows it only for a collective's mismatch`);
    assert.match(res.stdout, /^failed: \w+ on rank \d+ \(the diagnosis is on stderr\)\n$/);
  }
  // One fix through the CLI (each spawns a process and its workers); the programs' fixes are
  // also covered by faults.test.ts.
  const fixed = await runCli(['ranks', '--fault', 'device', '--fix']);
  assert.equal(fixed.status, 0, `device --fix: ${fixed.stdout}${fixed.stderr}`);
  assert.match(fixed.stdout, /rank 2: \{"slice":\[32,48\],"shape":\[16,1\],"device":"sim:2","origins":\["sim:2","sim:3"\]\}/);
});

test('ranks --fault shape: NCCL (default) hangs until --watchdog-ms; gloo, DETAIL and the sandbox raise; each says whose behaviour it shows', async () => {
  const nccl = await runCli(['ranks', '--fault', 'shape', '--watchdog-ms', '500']);
  assert.equal(nccl.status, 1, nccl.stderr);
  assert.match(nccl.stderr, /backend behaviour nccl/);
  assert.match(nccl.stderr, /Shown as NCCL would \(imitated: the world hangs until a simulated watchdog fires; no NCCL runs here\)/);
  assert.match(nccl.stderr, /Timeout\(ms\)=500\) ran for 500 milliseconds before timing out/);
  assert.match(nccl.stderr, /collective_seq_id/);
  assert.match(nccl.stdout, /^failed: WatchdogTimeoutError on rank \d \(the diagnosis is on stderr\)\n$/);
  const detail = JSON.parse((await runCli(['ranks', '--fault', 'shape', '--backend-behaviour', 'detail', '--json'])).stdout);
  assert.equal(detail.backend, 'detail');
  assert.ok(detail.ranks.every((r: { error: string }) => r.error === 'RuntimeError'));
  const gloo = await runCli(['ranks', '--fault', 'shape', '--backend-behaviour', 'gloo']);
  assert.match(gloo.stdout, /^failed: gloo::EnforceNotMet on rank 3 /);
  assert.match(
    gloo.stderr,
    /ranks 0–2: RuntimeError: \(as gloo behaves \(torch 2\.13\.0 with gloo, reproduced on real processes\), once rank 3's process is gone\)/,
  );
  const sandbox = await runCli(['ranks', '--fault', 'shape', '--backend-behaviour', 'sandbox']);
  assert.match(sandbox.stderr, /in the sandbox's own words \(no real backend reports it this way\)/);
  assert.match(sandbox.stdout, /^failed: ShapeMismatchError on rank \d /);
});

test('grpo-sandbox ranks: bad flags are one line on stderr and exit 2', async () => {
  for (const [args, message] of [
    [['--world', '0'], /--world must be between 1 and 256, got 0/],
    [['--world', '300'], /--world must be between 1 and 256, got 300/],
    [['--fault', 'nope'], /unknown --fault 'nope'; choose one of none, shape, deadlock, mismatch, device, throw/],
    [['--fault', 'deadlock', '--world', '1'], /--fault deadlock cannot happen with --world 1: it needs at least 2 ranks/],
    [['--fault', 'shape', '--world', '1'], /--fault shape cannot happen with --world 1/],
    [['--fault', 'device', '--world', '1'], /--fault device cannot happen with --world 1/],
    [['--world', '4', '--world', '8'], /--world is given twice/],
    [['--fix'], /--fix applies to --fault shape, deadlock, mismatch or device/],
    [['--backend-behaviour', 'mpi'], /unknown --backend-behaviour 'mpi'; choose one of nccl, gloo, detail, sandbox/],
    [['--backend-behaviour', 'detail', '--watchdog-ms', '100'], /--watchdog-ms is NCCL's watchdog and applies to --backend-behaviour nccl/],
  ] as [string[], RegExp][]) {
    const res = await runCli(['ranks', ...args]);
    assert.equal(res.status, 2, args.join(' '));
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split('\n').length, 1);
  }
});

test('grpo-sandbox ranks: stdout is byte-stable (no timings) and --json parses; timings go to stderr', async () => {
  const a = await runCli(['ranks', '--world', '3']);
  const b = await runCli(['ranks', '--world', '3']);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.doesNotMatch(a.stdout, /\d+ ms/);
  assert.match(a.stderr, /the step finished on all 3 ranks in \d+ ms/);
  const j = await runCli(['ranks', '--world', '2', '--fault', 'deadlock', '--timeout-ms', '300', '--json']);
  assert.equal(j.status, 1);
  const out = JSON.parse(j.stdout);
  assert.deepEqual(
    { ...out, ranks: out.ranks.length },
    { world: 2, fault: 'deadlock', fix: false, backend: 'nccl', ok: false, error: 'CollectiveTimeoutError on rank 0', ranks: 2 },
  );
});

test('grpo-sandbox ranks: a tiny timeout on a healthy step never names one rank both waiting and skipping', async () => {
  for (let i = 0; i < 3; i++) {
    const res = await runCli(['ranks', '--world', '4', '--timeout-ms', '1']);
    if (res.status === 0) continue; // fast enough this time
    assert.equal(res.status, 1);
    const hint = /→ (.*)$/m.exec(res.stderr)?.[1] ?? '';
    // Every rank waiting in an earlier collective (behind) or computing is not blamed for skipping.
    assert.doesNotMatch(hint, /skipped/, res.stderr);
  }
});

test('ranks: the default hang timeout grows with the world (a big world on few cores is slow, not hung); --help says so', async () => {
  const { defaultTimeoutMs } = await import('../../src/cli/ranks.ts');
  assert.equal(defaultTimeoutMs(4), 2000);
  assert.equal(defaultTimeoutMs(40), 2000);
  assert.equal(defaultTimeoutMs(256), 12_800);
  const res = await runCli(['ranks', '--help']);
  assert.match(res.stdout + res.stderr, /default max\(2000, 50 × world\)/);
});
