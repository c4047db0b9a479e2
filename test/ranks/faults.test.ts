import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World, WorldFailure, type RankOutcome } from '../../src/ranks/world.ts';
import { liveRankWorkers } from '../../src/ranks/spawn.ts';
import { ConfigError } from '../../src/core/errors.ts';

const programs = new URL('./programs.ts', import.meta.url);

/** Runs `name` on a fresh world that must fail; returns the failure after checking nothing is left running. */
async function expectFailure(size: number, name: string, args: unknown, timeoutMs = 300): Promise<WorldFailure> {
  const world = await World.start({ size, timeoutMs });
  let failure: unknown;
  try {
    // Every worker imports the programs before the timed run: on a loaded machine one worker's import
    // could otherwise finish more than the timeout after another's, and that rank would time out in the
    // first collective instead of where the test's fault is.
    await world.run({ module: programs, name: 'loaded' }, null);
    await world.run({ module: programs, name }, args);
  } catch (err) {
    failure = err;
  }
  if (world.alive) await world.stop();
  assert.ok(failure instanceof WorldFailure, `expected a WorldFailure, got ${String(failure)}`);
  assert.equal(world.alive, false, 'a failed world stops itself');
  assert.equal(liveRankWorkers(), 0, 'no rank worker outlives a failed world');
  return failure;
}

const failed = (o: RankOutcome) => (o.ok ? null : o);

test("seed-002: uneven slices of a 62-sample pool make allGather raise on every rank, naming each rank's shape", async () => {
  const f = await expectFailure(4, 'unevenGather', { pool: 62, perRank: 16 });
  for (const o of f.ranks) {
    assert.equal(failed(o)?.name, 'ShapeMismatchError');
    assert.match(failed(o)!.message, /allGather #1: shape mismatch: ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/);
    assert.match(failed(o)!.message, /allGatherVariable/);
  }
  assert.match(f.message, /world of 4 ranks failed in 'unevenGather'/);
});

test('seed-004 V2: a rank that skips a collective and calls another one is reported at once as a collective mismatch', async () => {
  // A mismatch (not a CollectiveTimeoutError) on every rank is the proof it was caught when the
  // headers disagreed, before the 60 s timeout: no wall-clock assertion (the machine may be loaded).
  const f = await expectFailure(4, 'skipCollective', { skipper: 3, then: 'barrier' }, 60_000);
  for (const o of f.ranks) {
    assert.equal(failed(o)?.name, 'CollectiveMismatchError');
    assert.match(failed(o)!.message, /collective mismatch: ranks 0–2 called allGather #2; rank 3 called barrier #2/);
  }
});

test('seed-004 V2: a rank that never arrives turns the hang into a timeout on every waiting rank, naming where each rank is', async () => {
  const f = await expectFailure(4, 'skipCollective', { skipper: 1, then: 'nothing' });
  assert.deepEqual(
    f.ranks.map((o) => (o.ok ? 'ok' : o.name)),
    ['CollectiveTimeoutError', 'ok', 'CollectiveTimeoutError', 'CollectiveTimeoutError'],
  );
  for (const r of [0, 2, 3]) {
    const m = failed(f.ranks[r]!)!.message;
    assert.match(m, /no progress for 300 ms in allGather #2/);
    assert.match(m, /ranks 0, 2, 3: waiting in allGather #2 \(for \d+ ms\)/);
    assert.match(m, /rank 1: its step returned; last collective allReduce #1/);
    assert.match(m, /rank 1 skipped allGather #2 \(finished the step without it\)/);
  }
});

test('a rank stuck outside any collective is diagnosed, then terminated with the world', async () => {
  // 'Unresponsive' means world.run gave up on rank 2 (after timeout + 500 ms) while its 3 s loop still ran.
  // A 600 ms timeout, not 300: in a loaded CI run (Deno beside the Node pass) rank 1 took 316 ms to leave
  // allReduce #1, and the diagnosis rightly named it as not yet at allGather #2 too. The loop still outlasts
  // the grace period (1.1 s) by 1.9 s.
  const f = await expectFailure(3, 'skipCollective', { skipper: 2, then: 'sleep' }, 600);
  assert.equal(f.ranks[0]!.ok ? '' : f.ranks[0]!.name, 'CollectiveTimeoutError');
  assert.equal(f.ranks[2]!.ok ? '' : f.ranks[2]!.name, 'Unresponsive');
  assert.match(f.message, /rank 2: computing, not in a collective; last finished allReduce #1/);
  // Still computing is slowness (or a loop), not a skipped collective.
  assert.match(f.message, /rank 2 has not reached allGather #2 after \d+ ms \(still computing/);
  assert.doesNotMatch(f.message, /skipped/);
  assert.match(f.message, /rank 2: Unresponsive: did not return/);
});

test('a rank that throws releases the others with an error naming it, and the world shuts down', async () => {
  const f = await expectFailure(4, 'throwing', { thrower: 2 }, 10_000);
  assert.match(failed(f.ranks[2]!)!.message, /reward model crashed on rank 2/);
  for (const r of [0, 1, 3]) {
    assert.equal(failed(f.ranks[r]!)?.name, 'RankFailedError');
    assert.match(failed(f.ranks[r]!)!.message, /rank 2 failed: Error: reward model crashed on rank 2/);
    assert.match(failed(f.ranks[r]!)!.message, new RegExp(`rank ${r} was (waiting in|about to enter) allGather #2 and was released`));
  }
  assert.match(f.message, /\(rank 2: Error\)/, 'the summary names the root cause, not a released rank');
});

test('seed-004: stacking pooled samples from other ranks raises the device error; .to(rank.device) fixes it', async () => {
  // Ranks produced 14, 18, 14, 18 valid samples: in the pool of 64, rank 0's slice [0:16] holds two
  // of rank 1's samples and rank 2's slice [32:48] two of rank 3's (as in the seed).
  const counts = [14, 18, 14, 18];
  const f = await expectFailure(4, 'stackPooledRewards', { counts, fix: false }, 5_000);
  assert.equal(failed(f.ranks[0]!)?.name, 'DeviceMismatchError');
  assert.match(failed(f.ranks[0]!)!.message, /^Expected all tensors to be on the same device, but found tensors on sim:1 and sim:0/);
  assert.equal(failed(f.ranks[2]!)?.name, 'DeviceMismatchError');
  assert.match(
    failed(f.ranks[2]!)!.message,
    /^Expected all tensors to be on the same device, but found tensors on sim:3 and sim:2 \(stack: tensor 0 is on sim:2, tensor 14 on sim:3\)/,
  );
  assert.match(failed(f.ranks[2]!)!.message, /tensor\.to\(rank\.device\)/);
  assert.equal(f.ranks[1]!.ok, true, "rank 1's slice [16:32] holds only its own samples");
  assert.equal(f.ranks[3]!.ok, true, "rank 3's slice [48:64] holds only its own samples");

  const world = await World.start({ size: 4 });
  try {
    const fixed = await world.run<{ shape: number[]; device: string; origins: string[] }>(
      { module: programs, name: 'stackPooledRewards' },
      { counts, fix: true },
    );
    fixed.forEach((res, r) => {
      assert.deepEqual(res.shape, [16, 2]);
      assert.equal(res.device, `sim:${r}`);
    });
    assert.deepEqual(fixed[2]!.origins.slice(12), ['sim:2', 'sim:2', 'sim:3', 'sim:3'], 'the pooled samples kept their origin device');
  } finally {
    await world.stop();
  }
});

test('unknown collective options and ops fail on the rank that passed them and release the others', async () => {
  const f = await expectFailure(2, 'reduceWithOptions', { options: { opp: 'sum' } });
  assert.match(failed(f.ranks[0]!)!.message, /unknown option 'opp' for allReduce; known options: op/);
  const g = await expectFailure(2, 'reduceWithOptions', { options: { op: 'prod' } });
  assert.match(failed(g.ranks[1]!)!.message, /unknown allReduce op 'prod'; use one of sum, mean, max/);
});

test('a payload over the arena cap raises on every rank, saying how to size the arena', async () => {
  const world = await World.start({ size: 2, arenaBytes: 1024, maxArenaBytes: 4096 });
  await assert.rejects(world.run({ module: programs, name: 'gatherBytes' }, { bytes: 4000 }), (err: WorldFailure) => {
    for (const o of err.ranks)
      assert.match(
        failed(o)!.message,
        /allGather #1 needs 7\.8 KiB of arena \(2 ranks × 3\.9 KiB\) but the arena is capped at 4\.0 KiB; start the world with maxArenaBytes of at least 8000/,
      );
    return true;
  });
  assert.equal(liveRankWorkers(), 0);
});

test('bad world options are ConfigErrors with the numbers and the valid range', async () => {
  await assert.rejects(
    World.start({ size: 0 }),
    (e: Error) => e instanceof ConfigError && /world size must be a whole number from 1 to 256, got 0/.test(e.message),
  );
  await assert.rejects(World.start({ size: 257 }), /from 1 to 256, got 257/);
  await assert.rejects(World.start({ size: 2.5 }), /got 2\.5/);
  await assert.rejects(World.start({ size: 2, timeout: 5 } as never), /unknown world option 'timeout'; known options: size, timeoutMs/);
  await assert.rejects(
    World.start({ size: 2, maxArenaBytes: 10, arenaBytes: 100 }),
    /maxArenaBytes must be .* ≥ arenaBytes \(100\), got 10/,
  );
  await assert.rejects(World.start({ size: 2, waitMode: 'spin' as never }), /waitMode must be 'block' or 'async', got 'spin'/);
  assert.equal(liveRankWorkers(), 0);
});

test('a second step while one runs is refused; a missing rank program is named with the exports there are, and the world stops', async () => {
  const world = await World.start({ size: 2, timeoutMs: 2_000 });
  try {
    const first = world.run({ module: programs, name: 'asyncWaits' }, { slow: 0, ms: 50 });
    await assert.rejects(
      world.run({ module: programs, name: 'asyncWaits' }, { slow: 0, ms: 50 }),
      /already running a step \('asyncWaits'\)/,
    );
    assert.equal((await first).length, 2);
    await assert.rejects(
      world.run({ module: programs, name: 'noSuchProgram' }),
      /has no exported rank program 'noSuchProgram'; exported functions: .*everyCollective/,
    );
    assert.equal(world.alive, false);
  } finally {
    await world.stop();
  }
});
