import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

// In the test's process (runCli): under Deno the Deno CLI's code (Web Workers), under Node Node's (worker_threads).

test('dynamic --preset seed-002: 48 → 56 → 60 → 62 of 64, naive slice leaves rank 3 with 14, the gather fails (exit 1)', async () => {
  const res = await runCli(['dynamic', '--preset', 'seed-002', '--timeout-ms', '2000']);
  assert.equal(res.status, 1, res.stderr);
  for (const line of [
    /initial batch +64 generated, 32 groups, 8 flat → 48 valid \(by rank: 12 12 12 12\) → pool 48\/64/,
    /resample 1 .* \+8 \(by rank: 2 2 2 2\) → pool 56\/64/,
    /resample 2 .* \+4 \(by rank: 2 0 2 0\) → pool 60\/64/,
    /resample 3 .* \+2 \(by rank: 0 0 2 0\) → pool 62\/64/,
    /^Shortage: 2\/64$/m,
    /rank 0 slice +\[0:16\] +16 samples, 8 groups: 12 from rank 0, 4 from rank 1/,
    /rank 3 slice +\[48:62\] +14 samples, 7 groups: .* ← 14 of 16/,
    /all 4 ranks made identical decisions/,
    // NCCL, the default: the ranks hang in the gather until the simulated watchdog, then its report with the diagnosis.
    /A collective's mismatch is shown as NCCL would \(imitated: the world hangs until a simulated watchdog fires; no NCCL runs here\)/,
    /ranks 0–3: WatchdogTimeoutError: as NCCL would behave/,
    /WorkNCCL\(SeqNum=\d+, OpType=ALLGATHER, NumelIn=14, NumelOut=56, Timeout\(ms\)=2000\) ran for 2000 milliseconds before timing out/,
    /sandbox diagnosis: allGather #\d+: shape mismatch: ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/,
  ])
    assert.match(res.stdout, line);
  assert.equal(res.stderr, '');
});

test("dynamic --preset seed-002 --backend-behaviour sandbox|detail: the same failure at once, in the sandbox's words or as DETAIL raises it", async () => {
  const sandbox = await runCli(['dynamic', '--preset', 'seed-002', '--backend-behaviour', 'sandbox']);
  assert.equal(sandbox.status, 1, sandbox.stderr);
  assert.match(sandbox.stdout, /in the sandbox's own words \(no real backend reports it this way\)/);
  assert.match(
    sandbox.stdout,
    /ranks 0–3: ShapeMismatchError: allGather #\d+: shape mismatch: ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/,
  );
  const detail = await runCli(['dynamic', '--preset', 'seed-002', '--backend-behaviour', 'detail']);
  assert.equal(detail.status, 1, detail.stderr);
  assert.match(detail.stdout, /rank 3: RuntimeError: \(as torch raises it with TORCH_DISTRIBUTED_DEBUG=DETAIL; torch 2\.13\.0 wording/);
  assert.match(
    detail.stdout,
    /Rank 3 is running collective: CollectiveFingerPrint\(SequenceNumber=\d+, OpType=ALLGATHER, TensorShape=\[14, 1\]/,
  );
  const bad = await runCli(['dynamic', '--preset', 'seed-002', '--backend-behaviour', 'gloo', '--watchdog-ms', '100']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--watchdog-ms is NCCL's watchdog and applies to --backend-behaviour nccl, not 'gloo'/);
});

test('dynamic --preset seed-004: 56/64, one resample to 64/64, slices [0:16]…[48:64]; device error unfixed, success fixed (exit 0)', async () => {
  const res = await runCli(['dynamic', '--preset', 'seed-004']);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  const [unfixed, fixed] = res.stdout.split(/— run 2: device fix on —/);
  assert.match(unfixed!, /— run 1: device fix off —/);
  for (const part of [unfixed!, fixed!]) {
    assert.match(part, /initial batch .* → pool 56\/64/);
    assert.match(part, /resample 1 .* \+8 .* → pool 64\/64/);
    assert.match(part, /final pool +64\/64 after 1 resample; 128 generations/);
    for (const [r, range] of ['[0:16]', '[16:32]', '[32:48]', '[48:64]'].entries())
      assert.match(part, new RegExp(`rank ${r} slice +${range.replace(/[[\]]/g, '\\$&')} +16 samples, 2 groups`));
  }
  assert.match(
    unfixed!,
    /rank 2: DeviceMismatchError: Expected all tensors to be on the same device, but found tensors on sim:3 and sim:2/,
  );
  // A rank's own error, not a collective's: no claim that NCCL would hang.
  assert.match(unfixed!, /^the simulated run failed; every worker is stopped:$/m);
  assert.doesNotMatch(unfixed!, /shown as NCCL would/);
  assert.match(fixed!, /rank 2 +stacked \[16, 1\] on sim:2 \(slice was on sim:2, sim:3\); gathered 64 rows/);
  assert.match(fixed!, /ok: the step trained on all 4 ranks/);
});

test('dynamic: fallback logs the shortage and kept invalid groups (exit 0); raise fails with verl’s ValueError (exit 1)', async () => {
  const fallback = await runCli(['dynamic', '--preset', 'seed-002', '--policy', 'fallback']);
  assert.equal(fallback.status, 0, fallback.stdout + fallback.stderr);
  assert.match(fallback.stdout, /warning +There are still std=0 groups present after 3 retries\./);
  assert.match(fallback.stdout, /invalid groups kept: 8/);
  assert.match(fallback.stdout, /rank 3 slice +\(original batch\) 16 samples, 8 groups: 16 from rank 3/);
  const raise = await runCli(['dynamic', '--preset', 'seed-002', '--policy', 'raise']);
  assert.equal(raise.status, 1);
  assert.match(raise.stdout, /ranks 0–3: ValueError: num_gen_batches=4 >= max_num_gen_batches=4\. Generated too many\./);
});

test('dynamic --policy raise: verl’s ValueError comes from the generation loop, after the last batch, and no train step runs', async () => {
  const res = await runCli(['dynamic', '--preset', 'seed-002', '--policy', 'raise']);
  assert.equal(res.status, 1, res.stderr);
  const lines = res.stdout.trimEnd().split('\n');
  const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
  // The log in verl's order: the 4 generation batches, the pool, then the error; the trainer never stacks a slice.
  const last = at(/^resample 3 /);
  const check = at(/^check +all 4 ranks made identical decisions/);
  const failed = at(/^the simulated run failed in the generation loop, where verl raises: right after filtering generation batch 4 /);
  const error = at(/ValueError: num_gen_batches=4 >= max_num_gen_batches=4/);
  assert.ok(last >= 0 && last < check && check < failed && failed + 1 === error, res.stdout);
  assert.equal(error, lines.length - 1, 'the error is the last line');
  assert.doesNotMatch(res.stdout, /torch\.stack|train step +each rank|slice +\[|'consume'/);
  const json = JSON.parse((await runCli(['dynamic', '--preset', 'seed-002', '--policy', 'raise', '--json'])).stdout);
  assert.equal(json.runs[0].failedIn, 'generation loop');
  assert.match(json.runs[0].failure, /^ranks 0–3: ValueError: num_gen_batches=4 >= max_num_gen_batches=4/);
  // A failure in the train step still says so (seed-002 naive: the gather's shape mismatch).
  const naive = JSON.parse((await runCli(['dynamic', '--preset', 'seed-002', '--json'])).stdout);
  assert.equal(naive.runs[0].failedIn, 'train step');
});

test('dynamic --preset seed-002 --policy stream: the give-up advice fits scripted draws (no “success probability”)', async () => {
  const res = await runCli(['dynamic', '--preset', 'seed-002', '--policy', 'stream']);
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stdout, /StreamStalled: stream \(OpenRLHF\) is still 2 prompts short after 6400 generations/);
  assert.match(res.stdout.replace(/\n +/g, ' '), /reward draws are scripted for 4 draws and every later group ties/);
  assert.doesNotMatch(res.stdout, /success probability/);
  // With random rewards the advice is about the success probability.
  const random = await runCli(['dynamic', '--policy', 'stream', '--p', '0.001', '--ranks', '1', '--per-rank', '4']);
  assert.equal(random.status, 1, random.stderr);
  assert.match(random.stdout, /1 prompt short after 400 generations; .*Make the task easier \(higher success probability\)/);
});

test('dynamic: counts agree with their nouns (1 resample, 1 group, 1 rank, 1 prompt, 1 row)', async () => {
  const res = await runCli(['dynamic', '--ranks', '1', '--per-rank', '4', '--k', '4', '--p', '0.3', '--seed', '1']);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /^1 simulated rank \(a worker each\); policy /m);
  assert.match(res.stdout, /k = 4, 1 prompt × 4 = 4 per rank/);
  assert.match(res.stdout, / 1 group, /);
  assert.match(res.stdout, /ok: the step trained on its one rank/);
  for (const text of [res.stdout, (await runCli(['dynamic', '--preset', 'seed-004'])).stdout])
    assert.doesNotMatch(text, /\b1 (resamples|groups|ranks|prompts|rows|generations|samples|replacement rounds)\b/, text);
});

test('dynamic: bad flags are one line on stderr, nothing on stdout, exit 2', async () => {
  for (const [args, message] of [
    [['--policy', 'drop'], /--policy must be one of fallback, pad, rebalance, raise, raise-nemo, stream, naive, got 'drop'/],
    [['--per-rank', '10', '--k', '4'], /per-rank batch 10 must be a multiple of k = 4 .*try --per-rank 8 or 12/],
    [['--p', '1.5'], /--p must be a probability from 0 to 1, got '1.5'/],
    [['--preset', 'seed-009'], /--preset must be one of seed-002, seed-004/],
    [['--preset', 'seed-002', '--k', '4'], /--preset seed-002 fixes --ranks, --per-rank, --k/],
    [['--device-fix', 'maybe'], /--device-fix must be on or off/],
    [['--trials', '3'], /--trials belongs to --sweep/],
    [['--sweep', '--ps', '0,0.5'], /--ps values must be probabilities strictly between 0 and 1, got '0'/],
    [['--sweep', '--html', 'out.png'], /--html must name an \.html file/],
  ] as const) {
    const res = await runCli(['dynamic', ...args]);
    assert.equal(res.status, 2, `${args.join(' ')}: ${res.stdout}${res.stderr}`);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
  }
});

test('dynamic --sweep: table with theory beside simulation, --json, self-contained HTML chart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyn-sweep-'));
  try {
    const html = join(dir, 'sweep.html');
    const args = [
      'dynamic',
      '--sweep',
      '--ps',
      '0.1,0.5',
      '--policies',
      'fallback,stream',
      '--trials',
      '4',
      '--runs',
      '1',
      '--budget',
      '2',
    ];
    const res = await runCli([...args, '--html', html]);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /policy +p +tie th +tie sim +short th +short +fail +resamples +eff +waste +reward +failed runs/);
    assert.match(res.stdout, /^fallback +0\.1 +0\.656 /m, 'theory p^k + (1-p)^k = 0.9^4 + 0.1^4');
    assert.match(res.stdout, /^stream +0\.5 +0\.125 /m);
    const page = readFileSync(html, 'utf8');
    assert.match(page, /new uPlot\(/);
    assert.match(page, /\.uplot/, 'uPlot CSS inlined');
    assert.doesNotMatch(page, /<script[^>]+src=|<link[^>]+href=/, 'no external resources');
    const json = JSON.parse((await runCli([...args, '--json'])).stdout);
    assert.equal(json.rows.length, 4);
    assert.equal(json.rows[0].policy, 'fallback');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
