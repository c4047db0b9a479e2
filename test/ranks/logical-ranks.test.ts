// Logical ranks: a world's ranks placed on fewer worker threads than ranks give the same results,
// the same collectives and the same faults (named by rank) as one thread per rank.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeRanks, World, WorldFailure, type RankOutcome } from '../../src/ranks/world.ts';
import { liveRankWorkers } from '../../src/ranks/spawn.ts';
import { ConfigError } from '../../src/core/errors.ts';

const programs = new URL('./programs.ts', import.meta.url);

test('ranks are placed on threads in contiguous blocks, the first ones one larger', () => {
  assert.deepEqual(placeRanks(8, 2), [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ]);
  assert.deepEqual(placeRanks(8, 3), [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7],
  ]);
  assert.deepEqual(placeRanks(3, 3), [[0], [1], [2]]);
  assert.deepEqual(placeRanks(5, 1), [[0, 1, 2, 3, 4]]);
});

test('threads outside 1…size, or blocking waits on a shared thread, are ConfigErrors', async () => {
  await assert.rejects(
    World.start({ size: 4, threads: 5 }),
    (e: Error) => e instanceof ConfigError && /threads must be .* 1 to the world size 4, got 5/.test(e.message),
  );
  await assert.rejects(World.start({ size: 4, threads: 0 }), ConfigError);
  await assert.rejects(
    World.start({ size: 4, threads: 2, waitMode: 'block' }),
    /waitMode 'block' needs one rank per thread, but 4 ranks share 2 threads/,
  );
  assert.equal(liveRankWorkers(), 0);
});

test('helper threads: a whole number up to 64, and only on an entry that serves them', async () => {
  await assert.rejects(
    World.start({ size: 1, helpers: 1.5 }),
    (e: Error) =>
      e instanceof ConfigError && /helpers must be a whole number from 0 to 64 \(helper threads per rank thread\), got 1.5/.test(e.message),
  );
  await assert.rejects(World.start({ size: 1, helpers: -1 }), ConfigError);
  // The ranks' own entry has no helper hooks: the world says so and leaves no worker behind.
  await assert.rejects(World.start({ size: 2, helpers: 1 }), /this worker entry has no helper threads/);
  assert.equal(liveRankWorkers(), 0);
});

async function runOn<R>(size: number, threads: number, name: string, args: unknown, timeoutMs = 10_000): Promise<R[]> {
  const world = await World.start({ size, threads, timeoutMs });
  try {
    assert.equal(world.threads, threads);
    return await world.run<R>({ module: programs, name }, args);
  } finally {
    await world.stop();
  }
}

test('every collective gives the same results on 8 threads, 3 threads and 1 thread', async () => {
  const args = { n: 37, seed: 5 };
  const one = await runOn(8, 8, 'everyCollective', args);
  assert.deepEqual(await runOn(8, 3, 'everyCollective', args), one);
  assert.deepEqual(await runOn(8, 1, 'everyCollective', args), one);
});

test('float32 reductions are the same bits on shared threads', async () => {
  const args = { n: 4099, seed: 2, op: 'sum', repeat: 3 };
  const one = await runOn(6, 6, 'reduceBits', args);
  assert.deepEqual(await runOn(6, 2, 'reduceBits', args), one);
});

/** The failure of `name` on a world of `size` ranks on `threads` threads, with wall-clock figures masked. */
async function failureOn(size: number, threads: number, name: string, args: unknown, timeoutMs: number) {
  const world = await World.start({ size, threads, timeoutMs });
  let failure: unknown;
  try {
    // Every thread imports the programs first, so a short timeout measures the fault, not one thread's late import.
    await world.run({ module: programs, name: 'loaded' }, null);
    await world.run({ module: programs, name }, args);
  } catch (err) {
    failure = err;
  }
  if (world.alive) await world.stop();
  assert.ok(failure instanceof WorldFailure, `expected a WorldFailure, got ${String(failure)}`);
  assert.equal(liveRankWorkers(), 0, 'no rank worker outlives a failed world');
  // Wall-clock figures, and which rank was released while doing what (a race between threads, also with one rank per thread).
  const mask = (s: string) => s.replace(/\d+ ms/g, 'N ms').replace(/\n\s*\(rank \d+ .* was released; the world is shut down\)/, '');
  return {
    message: mask(failure.message),
    root: failure.root,
    ranks: failure.ranks.map((o: RankOutcome) => (o.ok ? 'ok' : `${o.name}: ${mask(o.message)}`)),
  };
}

for (const [what, name, args, timeoutMs] of [
  ['a crashed rank', 'throwing', { thrower: 2 }, 10_000],
  ['a rank that skips a collective (the hang, diagnosed)', 'skipCollective', { skipper: 1, then: 'nothing' }, 400],
  ['a rank in another collective', 'skipCollective', { skipper: 3, then: 'barrier' }, 60_000],
  ['uneven shapes (seed-002)', 'unevenGather', { pool: 62, perRank: 16 }, 10_000],
  ['tensors stacked across devices (seed-004)', 'stackPooledRewards', { counts: [14, 18, 14, 18], fix: false }, 5_000],
] as const) {
  test(`${what} fails alike, named by rank, on 4 threads, 2 threads and 1 thread`, async () => {
    const separate = await failureOn(4, 4, name, args, timeoutMs);
    assert.deepEqual(await failureOn(4, 2, name, args, timeoutMs), separate);
    assert.deepEqual(await failureOn(4, 1, name, args, timeoutMs), separate);
  });
}
