// allReduce among logical ranks (several ranks of a world on one thread): the ranks of a thread reduce
// their payloads in that thread's memory, and only what crosses threads goes through the arena, with
// every element still reduced in rank order 0, 1, …, W−1 whatever thread a rank is on (the same bits as
// one rank per thread, checked against the rank-order reference).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { World } from '../../src/ranks/world.ts';
import { refAllReduce } from './reference.ts';

const programs = new URL('./programs.ts', import.meta.url);
const SIZE = 8;

type Mode = 'fresh' | 'inPlace' | 'shared';

const sameBits = (a: Uint32Array, b: Uint32Array) => a.length === b.length && a.every((x, i) => x === b[i]);

type Args = { n: number; seed: number; op: 'sum' | 'mean' | 'max'; repeat: number; mode: Mode };

/** Each of `calls` on one world of 8 ranks on `threads` threads: every rank's results, and the ranks' counters after all. */
async function reduceOn(threads: number, calls: Args[]) {
  const world = await World.start({ size: SIZE, threads, waitMode: 'async', timeoutMs: 30_000 });
  try {
    const results = [];
    for (const args of calls)
      results.push(await world.run<{ runs: Uint32Array[]; kept: boolean }>({ module: programs, name: 'reduceModes' }, args));
    return { results, metrics: await world.metrics() };
  } finally {
    await world.stop();
  }
}

// 4096 elements: every thread reduces the whole payload; 65536: a reduce-scatter, a chunk per thread.
test('allReduce on 8 ranks gives the rank-order bits on 1, 2 and 3 threads, in every mode', async () => {
  const calls: Args[] = [4096, 65536].flatMap((n) =>
    (['sum', 'mean', 'max'] as const).flatMap((op) =>
      (['fresh', 'inPlace', 'shared'] as const).map((mode) => ({ n, seed: 11, op, repeat: 2, mode })),
    ),
  );
  for (const threads of [1, 2, 3]) {
    const { results } = await reduceOn(threads, calls);
    calls.forEach(({ n, op, mode }, i) => {
      const expected = new Uint32Array(refAllReduce(SIZE, n, 11, op).buffer);
      results[i]!.forEach(({ runs, kept }, rank) => {
        for (const bits of runs) assert.ok(sameBits(bits, expected), `${n} ${op}, ${threads} thread(s), ${mode}, rank ${rank}`);
        assert.ok(kept, `${n} ${op}, ${threads} thread(s), ${mode}: rank ${rank}'s payload was changed`);
      });
    });
  }
});

test('only what crosses threads goes through the arena: none on one thread, a prefix and the other thread’s payloads on two', async () => {
  const n = 65536;
  const bytes = 4 * n;
  const written = async (threads: number) => {
    const { metrics } = await reduceOn(threads, [{ n, seed: 5, op: 'sum', repeat: 3, mode: 'inPlace' }]);
    return metrics.reduce((sum, m) => sum + m.bytesWritten, 0) / 3;
  };
  // One rank per thread: every rank's payload crosses.
  assert.equal(await written(8), SIZE * bytes);
  // One thread: the whole reduction stays in its memory.
  assert.equal(await written(1), 0);
  // Ranks 0–3 and 4–7: the first block's reduction (one payload) and the second block's four.
  assert.equal(await written(2), (1 + 4) * bytes);
});

test("allReduce's shared result takes no out", async () => {
  const world = await World.start({ size: 2, timeoutMs: 10_000 });
  try {
    await assert.rejects(
      world.run({ module: programs, name: 'reduceWithOptions' }, { options: { shared: true, out: new Float32Array(1) } }),
      /'shared' gives every rank of a thread one result array; it takes no 'out'/,
    );
  } finally {
    await world.stop();
  }
});
