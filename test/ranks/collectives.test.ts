import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World } from '../../src/ranks/world.ts';
import { liveRankWorkers, withoutTsx } from '../../src/ranks/spawn.ts';
import { inputFor } from './programs.ts';
import { refAllGather, refAllReduce } from './reference.ts';

const programs = new URL('./programs.ts', import.meta.url);

for (const size of [1, 2, 3, 8, 33]) {
  test(`every collective matches its reference with ${size} rank(s) in real workers`, async () => {
    const n = 5;
    const seed = 3;
    const world = await World.start({ size, timeoutMs: 20_000 });
    try {
      assert.deepEqual(
        world.devices.map((d) => d.device),
        Array.from({ length: size }, (_, r) => `sim:${r}`),
      );
      const results = await world.run<Record<string, unknown>>({ module: programs, name: 'everyCollective' }, { n, seed });
      const sum = Array.from(refAllReduce(size, n, seed, 'sum'));
      const mean = Array.from(refAllReduce(size, n, seed, 'mean'));
      const max = Array.from(refAllReduce(size, n, seed, 'max'));
      const ranks = Array.from({ length: size }, (_, r) => r);
      const rsum = ranks.reduce((a, b) => a + b, 0);
      for (const [rank, got] of results.entries()) {
        assert.equal(got.device, `sim:${rank}`);
        assert.deepEqual(got.bcast, Array.from(inputFor(size - 1, n, seed)), 'broadcast from the last rank');
        assert.deepEqual(got.gathered, refAllGather(size, n, seed), 'allGather is rank-major');
        assert.deepEqual(got.into, refAllGather(size, n, seed), "allGather({ out }) fills and returns the caller's array");
        assert.deepEqual(got.variable, { data: ranks.flatMap((r) => Array(r % 3).fill(r + 1)), lengths: ranks.map((r) => r % 3) });
        assert.deepEqual(got.sum, sum);
        assert.deepEqual(got.mean, mean);
        assert.deepEqual(got.max, max);
        assert.deepEqual(got.inPlace, mean, "allReduce({ out: payload }) reduces in place, into the caller's array");
        assert.deepEqual(
          got.isum,
          [rsum, 0 - rsum || 0, Array.from(new Int32Array([size * 2 ** 30]))[0]],
          'int32 sums wrap like torch int32',
        );
        assert.deepEqual(
          got.objects,
          ranks.map((r) => ({ rank: r, prompt: `p${r}`, device: `sim:${r}`, shape: [1, 1], reward: Math.fround(r / 2) })),
          'objects arrive in rank order and their tensors keep the origin device',
        );
        assert.deepEqual(got.toOne, rank === 0 ? ranks.map((r) => [r, { nested: [r * 2] }]) : null, 'gatherObject only reaches dst');
      }
      const metrics = await world.metrics();
      assert.ok(
        metrics.every((m) => m.collectives === 12),
        'each rank completed the 12 collectives',
      );
    } finally {
      await world.stop();
    }
    assert.equal(liveRankWorkers(), 0);
  });
}

// 4096 elements: every rank reduces the whole payload; 65536: a reduce-scatter (above LOCAL_REDUCE_ADDS, src/ranks/collectives.ts).
for (const n of [4096, 65536])
  test(`allReduce of ${n} float32 is bit-identical run to run, world to world, and equal to the rank-order reference`, async () => {
    const args = { n, seed: 7, op: 'sum', repeat: 3 };
    const runWorld = async () => {
      const world = await World.start({ size: 8 });
      try {
        return await world.run<number[][]>({ module: programs, name: 'reduceBits' }, args);
      } finally {
        await world.stop();
      }
    };
    const first = await runWorld();
    const second = await runWorld();
    const expected = Array.from(new Uint32Array(refAllReduce(8, args.n, args.seed, 'sum').buffer));
    for (const perRank of [...first, ...second]) for (const bits of perRank) assert.deepEqual(bits, expected);
    // The reference order matters: summing in another order gives different float32 bits here,
    // so equality above really checks the order (not just "close enough").
    const reversed = Float32Array.from(inputFor(7, args.n, args.seed));
    for (let r = 6; r >= 0; r--) {
      const x = inputFor(r, args.n, args.seed);
      for (let i = 0; i < args.n; i++) reversed[i] = reversed[i]! + x[i]!;
    }
    assert.notDeepEqual(Array.from(new Uint32Array(reversed.buffer)), expected);
  });

test("ranks may wait with Atomics.waitAsync (waitMode 'async'), keeping their event loop alive", async () => {
  const world = await World.start({ size: 4, waitMode: 'async', timeoutMs: 5_000 });
  try {
    const results = await world.run<{ mode: string; max: number }>({ module: programs, name: 'asyncWaits' }, { slow: 2, ms: 100 });
    assert.deepEqual(results, Array(4).fill({ mode: 'async', max: 3 }));
  } finally {
    await world.stop();
  }
});

test('the arena grows on demand for a payload larger than its initial size', async () => {
  const world = await World.start({ size: 3, arenaBytes: 1024, maxArenaBytes: 2 ** 22 });
  try {
    const before = world.arenaBytes;
    const results = await world.run<{ ok: boolean; length: number }>({ module: programs, name: 'gatherBytes' }, { bytes: 100_000 });
    assert.deepEqual(results, Array(3).fill({ ok: true, length: 300_000 }));
    assert.ok(world.arenaBytes >= before + 300_000 - 1024, `arena grew from ${before} to ${world.arenaBytes} bytes`);
  } finally {
    await world.stop();
  }
});

// Node: the rank worker is a plain-JavaScript bundle (src/ranks/node-bundle.ts), and a worker thread
// inherits its process's flags; tsx's loader among them cost each worker about 0.15 CPU-s to load.
test('rank workers start without the TypeScript loader the process has, and still run a TypeScript program module', async () => {
  const world = await World.start({ size: 2 });
  try {
    const flags = await world.run<string[] | null>({ module: programs, name: 'threadFlags' }, {});
    const own = (globalThis as { process?: { execArgv?: string[]; versions?: { node?: string } } }).process;
    if (own?.versions?.node && !('Deno' in globalThis)) {
      for (const f of flags) assert.deepEqual(f, withoutTsx(own.execArgv ?? []));
      for (const f of flags) assert.ok(!f!.some((a) => /tsx/.test(a)), `a rank thread's flags: ${f!.join(' ')}`);
    }
  } finally {
    await world.stop();
  }
});

test('withoutTsx drops the flags that load tsx and keeps the others', () => {
  assert.deepEqual(withoutTsx(['--import', 'tsx']), []);
  assert.deepEqual(withoutTsx(['--import=tsx', '--expose-gc']), ['--expose-gc']);
  assert.deepEqual(withoutTsx(['--require', '/x/node_modules/tsx/dist/cjs/index.cjs', '--max-old-space-size=100']), [
    '--max-old-space-size=100',
  ]);
  assert.deepEqual(withoutTsx(['--import', 'tsx/esm']), []);
  assert.deepEqual(withoutTsx(['--import', './setup.js', '--conditions', 'tsx']), ['--import', './setup.js', '--conditions', 'tsx']);
});
