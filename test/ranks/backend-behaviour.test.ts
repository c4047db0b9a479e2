// How a collective whose ranks disagree ends under each backend behaviour (src/ranks/backend.ts): the gloo and
// TORCH_DISTRIBUTED_DEBUG=DETAIL texts against test/fixtures/dist-errors.json (torch 2.13 on real gloo processes,
// made by scripts/golden/dist_errors.py), and NCCL's hang until the simulated watchdog on a real world of ranks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detailMismatchMessage, glooMismatch, type PostedCollective } from '../../src/ranks/backend.ts';
import { liveRankWorkers } from '../../src/ranks/spawn.ts';
import { World, WorldFailure } from '../../src/ranks/world.ts';
import { fixture } from '../helpers/fixtures.ts';

interface RankResult {
  rank: number;
  ok: boolean;
  type: string | null;
  message: string | null;
}
const golden = fixture<{
  versions: { torch: string };
  world: number;
  timeoutSeconds: number;
  cases: { case: string; debug: string; ranks: RankResult[]; launcherLog: string[] }[];
}>('dist-errors.json');
const real = (name: string, debug: 'OFF' | 'DETAIL') => golden.cases.find((c) => c.case === name && c.debug === debug)!;

/** The fixture's processes: a barrier (#1), then the case's collective (#2); the last rank posts 14 where the others post 16. */
function posted(kind: string, shape: (last: boolean) => number[], dtype: string | null = 'float32'): PostedCollective[] {
  return Array.from({ length: golden.world }, (_, rank) => ({
    rank,
    seq: 2,
    kind,
    dtype,
    shape: shape(rank === golden.world - 1),
    world: golden.world,
  }));
}

/** The torch part of a sandbox message: after the "(as … )" label, before the sandbox's own diagnosis. */
const torchPart = (message: string) => message.replace(/^\([^)]*(\([^)]*\)[^)]*)*\) /, '').split('\n  sandbox diagnosis: ')[0]!;

test('the fixture is torch 2.13 on real gloo processes', () => {
  assert.match(golden.versions.torch, /^2\.13\.0/);
});

for (const [name, kind, shape] of [
  ['allgather-rows', 'allGather', (last: boolean) => [last ? 14 : 16, 1]],
  ['allreduce-numel', 'allReduce', (last: boolean) => [last ? 14 : 16]],
] as const) {
  test(`DETAIL (${name}): every rank's message is torch's, word for word`, () => {
    const world = posted(kind, shape);
    for (const r of real(name, 'DETAIL').ranks) {
      assert.equal(r.type, 'builtins.RuntimeError');
      const ours = detailMismatchMessage(world, r.rank, 'x');
      assert.match(ours, /^\(as torch raises it with TORCH_DISTRIBUTED_DEBUG=DETAIL; torch 2\.13\.0 wording, reproduced with gloo\) /);
      assert.equal(torchPart(ours), r.message, `rank ${r.rank}`);
    }
  });

  test(`gloo (${name}): the short rank aborts with gloo's enforce; the others lose their peer, as torch 2.13 printed them`, () => {
    const world = posted(kind, shape);
    const c = real(name, 'OFF');
    const last = golden.world - 1;
    // The short rank's process aborted: its what() line is in the launcher's log (byte counts are not modelled).
    const what = c.launcherLog.find((l) => l.includes('what():'))!.trim();
    const abort = glooMismatch(world, last, 'x', 1000);
    assert.equal(abort.kind, 'abort');
    assert.ok(c.launcherLog.some((l) => l.includes("terminate called after throwing an instance of 'gloo::EnforceNotMet'")));
    const ourWhat = abort.message
      .split('\n')
      .find((l) => l.includes('what():'))!
      .trim();
    assert.equal(ourWhat, what.replace(/\/__w\/pytorch\/pytorch\/third_party\/gloo\//, '').replace(/\d+ vs \d+/, 'A vs B'));
    for (const r of c.ranks.filter((x) => x.rank !== last)) {
      const ours = glooMismatch(world, r.rank, 'x', 1000);
      assert.equal(ours.kind, 'peer-gone');
      assert.equal(
        torchPart(ours.message),
        r.message!.replace(/\/__w\/pytorch\/pytorch\/third_party\/gloo\//, '').replace(/:\d+:/, ':PORT:'),
      );
    }
  });
}

test('gloo (op-mismatch): all_reduce against barrier is not checked; the ranks wait until the timeout, as torch 2.13 printed it', () => {
  const world = posted('allReduce', () => [4]).map((p, r) =>
    r === golden.world - 1 ? { ...p, kind: 'barrier', dtype: null, shape: [] } : p,
  );
  const timedOut = real('op-mismatch', 'OFF').ranks.filter((r) => /Timed out waiting/.test(r.message ?? ''));
  assert.ok(timedOut.length >= 1);
  for (const r of timedOut) {
    const ours = glooMismatch(world, r.rank, 'x', golden.timeoutSeconds * 1000);
    assert.equal(ours.kind, 'timeout');
    assert.equal(torchPart(ours.message), r.message!.replace(/\/__w\/pytorch\/pytorch\/third_party\/gloo\//, ''));
  }
});

const programs = new URL('./programs.ts', import.meta.url);

test('nccl: a shape mismatch hangs until the watchdog, then the watchdog lines, the flight-recorder table and the diagnosis', async () => {
  const world = await World.start({ size: 4, timeoutMs: 10_000, backend: 'nccl', watchdogMs: 400 });
  const t0 = Date.now();
  let failure: unknown;
  try {
    await world.run({ module: programs, name: 'unevenGather' }, { pool: 62, perRank: 16 });
  } catch (err) {
    failure = err;
  }
  const waited = Date.now() - t0;
  assert.ok(failure instanceof WorldFailure, String(failure));
  assert.equal(liveRankWorkers(), 0);
  assert.ok(waited >= 400, `the world hung ${waited} ms, less than the watchdog's 400`);
  for (const o of failure.ranks) assert.equal(o.ok ? null : o.name, 'WatchdogTimeoutError');
  const root = failure.ranks[failure.root]!;
  assert.ok(!root.ok);
  const m = root.message;
  assert.match(m, /^as NCCL would behave \(imitated, no NCCL runs here\): NCCL does not compare what the ranks posted/);
  assert.match(
    m,
    new RegExp(
      String.raw`\[Rank 3\] Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=1, OpType=ALLGATHER, NumelIn=14, NumelOut=56, ` +
        String.raw`Timeout\(ms\)=400\) ran for 400 milliseconds before timing out\.`,
    ),
  );
  assert.match(m, /ranks 0–2 +1 +ALLGATHER +\[\[16, 1\]\] +\[\[64, 1\]\] +Float +started, never completed/);
  assert.match(m, /rank 3 +1 +ALLGATHER +\[\[14, 1\]\] +\[\[56, 1\]\]/);
  assert.match(m, /sandbox diagnosis: allGather #1: shape mismatch: ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/);
});

test('the sandbox behaviour (the World default) still raises its own diagnosis at once', async () => {
  const world = await World.start({ size: 2, timeoutMs: 10_000 });
  await assert.rejects(world.run({ module: programs, name: 'unevenGather' }, { pool: 30, perRank: 16 }), (e: WorldFailure) =>
    e.ranks.every((o) => !o.ok && o.name === 'ShapeMismatchError'),
  );
});
