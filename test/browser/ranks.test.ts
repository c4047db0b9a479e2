// src/ranks in a real browser: 8 module Web Workers (bundled by Vite from the literal
// `new Worker(new URL('./rank-worker.ts', import.meta.url))`) share one SharedArrayBuffer
// on the cross-origin-isolated page; collectives checked against the same references as Node's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage } from './harness.ts';
import { refAllGather, refAllReduce } from '../ranks/reference.ts';

test('8 Web Worker ranks all-gather, all-reduce and gather objects in Chromium, matching the references', async () => {
  const results = await withPage('/', (page) =>
    page.evaluate(async () => {
      const { World } = await import('/src/ranks/world.ts' as string);
      const { liveRankWorkers } = await import('/src/ranks/spawn.ts' as string);
      const world = await World.start({ size: 8, timeoutMs: 20_000 });
      let res: unknown;
      try {
        res = await world.run(
          { module: new URL('/test/ranks/programs.ts', location.href).href, name: 'everyCollective' },
          { n: 5, seed: 3 },
        );
      } finally {
        await world.stop();
      }
      if (liveRankWorkers() !== 0) throw new Error(`${liveRankWorkers()} rank workers left`);
      return { res, isolated: crossOriginIsolated };
    }),
  );
  assert.equal(results.isolated, true);
  const ranks = Array.from({ length: 8 }, (_, r) => r);
  for (const [rank, got] of (results.res as Record<string, unknown>[]).entries()) {
    assert.equal(got.device, `sim:${rank}`);
    assert.deepEqual(got.gathered, refAllGather(8, 5, 3));
    assert.deepEqual(got.sum, Array.from(refAllReduce(8, 5, 3, 'sum')), 'bit-identical to the rank-order reference, as in Node and Deno');
    assert.deepEqual(got.max, Array.from(refAllReduce(8, 5, 3, 'max')));
    assert.deepEqual(
      (got.objects as { device: string }[]).map((o) => o.device),
      ranks.map((r) => `sim:${r}`),
    );
  }
});

test('in Chromium a rank that skips a collective is diagnosed (no frozen page) and the workers are stopped', async () => {
  const message = await withPage('/', (page) =>
    page.evaluate(async () => {
      const { World } = await import('/src/ranks/world.ts' as string);
      const { liveRankWorkers } = await import('/src/ranks/spawn.ts' as string);
      const world = await World.start({ size: 8, timeoutMs: 300 });
      try {
        await world.run({ module: 'builtin:seeds', name: 'skippedCollective' }, { fix: false, then: 'nothing' });
        return 'no failure';
      } catch (err) {
        return `${(err as Error).message}\nlive: ${liveRankWorkers()}`;
      }
    }),
  );
  assert.match(message, /ranks 0–6: waiting in allGatherObject #2/);
  assert.match(message, /rank 7: its step returned; last collective allReduce #1/);
  assert.match(message, /rank 7 skipped allGatherObject #2/);
  assert.match(message, /live: 0$/);
});
