// The fast matmul with helper threads (src/ops/fast/kernel-team.ts): this test's thread owns the
// team, and its helper is a real worker on the training entry (the one World.start's `helpers` start),
// joined as the world joins them. A product shared with the helper, or left to it alone, has the bits
// of the same product on one thread, at shapes on both sides of the size a team shares.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as Comlink from 'comlink';
import { joinKernelHelpers, kernelTeam, leaveRowsToHelpers } from '../../src/ops/fast/kernel-team.ts';
import { simdKernel } from '../../src/ops/fast/simd.ts';
import { liveRankWorkers, spawnRankWorker } from '../../src/ranks/spawn.ts';
import { TRAIN_WORKER } from '../../src/train/worker.ts';
import { productCases, runProducts } from './kernel-team-cases.ts';

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

test('products shared with a helper thread, or left to it, have the bits of one thread', async () => {
  const cases = productCases();
  const alone = runProducts(simdKernel()!, cases);
  const before = liveRankWorkers();
  const helper = await spawnRankWorker('0', 1, TRAIN_WORKER, 'helper 1');
  try {
    const { port1, port2 } = new MessageChannel();
    await helper.api.serveAsHelper(Comlink.transfer(port2, [port2]));
    joinKernelHelpers([port1]);
    const team = kernelTeam()!;
    assert.equal(team.helpers, 1);
    for (const helpersOnly of [false, true]) {
      leaveRowsToHelpers(helpersOnly);
      const rows = { own: team.ownRows, shared: team.sharedRows, products: team.shared };
      const together = runProducts(simdKernel()!, cases);
      together.forEach((got, i) =>
        assert.deepEqual(bits(got), bits(alone[i]!), `output ${i}, helper${helpersOnly ? ' alone' : 's sharing'}`),
      );
      // The two largest shapes are shared (forward and weight gradient each); the small ones run on the owner.
      assert.ok(team.shared - rows.products >= 4, `${team.shared - rows.products} products shared`);
      if (helpersOnly) assert.equal(team.ownRows, rows.own, 'the owner claimed rows it was told to leave');
      else assert.ok(team.sharedRows - rows.shared > 0);
    }
    // Products of different row counts back to back, as a step runs them: a helper late for one must
    // not claim rows of it with the next one's words.
    leaveRowsToHelpers(false);
    const [, big, mid] = cases;
    for (let i = 0; i < 30; i++) {
      for (const [at, { m, n, K, a, b, bias }] of [
        [4, big!],
        [8, mid!],
      ] as const) {
        const { c } = simdKernel()!.matmul({ data: a, rowStride: K, kStride: 1 }, b, m, n, K, bias, true);
        assert.deepEqual(bits(c), bits(alone[at]!), `product ${i} of ${m} rows`);
      }
    }
    port1.close();
  } finally {
    leaveRowsToHelpers(false);
    joinKernelHelpers([]);
    await helper.terminate();
  }
  assert.equal(liveRankWorkers(), before);
  assert.equal(kernelTeam(), null);
});
