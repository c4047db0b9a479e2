// The training loop in a real browser: the same src/train code, each rank a module Web Worker of
// the page (builtin:train bundled into the rank worker), compared with the same run in Node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTrain, withoutTime } from '../train/helpers.ts';
import { withPage } from './harness.ts';

const config = { ranks: 4, batch: 16, k: 4, sampler: 'trl', steps: 3 } as const;

test('4 Web Worker ranks in Chromium train the controller as Node does', async () => {
  const page = await withPage('/', (p) =>
    p.evaluate(async (c) => {
      const { train } = await import('/src/train/run.ts' as string);
      const { DEFAULT_TRAIN } = await import('/src/train/config.ts' as string);
      const { liveRankWorkers } = await import('/src/ranks/spawn.ts' as string);
      const r = await train({ config: { ...DEFAULT_TRAIN, ...c } });
      return { metrics: r.metrics, params: Array.from(r.final.params as Float32Array), live: liveRankWorkers() };
    }, config),
  );
  assert.equal(page.live, 0, 'every rank worker stopped');
  const node = await runTrain(config);
  const inPage = withoutTime(page.metrics);
  // Chromium's V8 may round Math.exp/log's last bit differently from Node's (see the Deno test in
  // test/cli/train-cli.node.test.ts): float32 results are compared exactly, float64 exp/log sums to 1e-9.
  assert.deepEqual(page.params, Array.from(node.final.params));
  inPage.forEach((m, i) => {
    const n = node.plain[i]!;
    for (const key of ['rewardMean', 'rewardStd', 'optimumFraction', 'zeroStdFraction', 'gradNorm'] as const)
      assert.equal(m[key], n[key], key);
    assert.ok(Math.abs(m.loss - n.loss) <= 1e-9 * Math.max(Math.abs(n.loss), 1e-30) + 1e-15, `loss ${m.loss} vs ${n.loss}`);
    for (const h of Object.keys(n.entropy) as (keyof typeof n.entropy)[])
      assert.ok(Math.abs(m.entropy[h] - n.entropy[h]) <= 1e-9 * n.entropy[h]);
  });
});
