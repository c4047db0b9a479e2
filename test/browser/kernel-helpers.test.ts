// The fast matmul's helper threads in Chromium (src/ops/fast/kernel-team.ts): a one-rank run on the
// page's Web Workers, whose rank thread shares its large products with a helper thread on one shared
// WebAssembly memory (the page is cross-origin isolated), trains to the bits it trains to alone, and
// stops every worker it started.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withPage } from './harness.ts';

test('in Chromium, one rank with a helper thread trains to the bits it trains to alone', async () => {
  const r = await withPage('/', (page) =>
    page.evaluate(async () => {
      const { train } = await import('/src/train/run.ts' as string);
      const { DEFAULT_TRAIN } = await import('/src/train/config.ts' as string);
      const { liveRankWorkers } = await import('/src/ranks/spawn.ts' as string);
      const config = { ...DEFAULT_TRAIN, ranks: 1, batch: 1024, k: 4, sampler: 'trl', steps: 3, dims: { dModel: 256, hidden: 64 } };
      const runs = [];
      for (const helpers of [0, 1]) {
        const res = await train({ config, helpers });
        runs.push({
          helpers: res.helpers as number,
          metrics: JSON.stringify((res.metrics as { stepMs: number }[]).map(({ stepMs: _, ...rest }) => rest)),
          params: Array.from(res.final.params as Float32Array),
        });
      }
      return { runs, live: liveRankWorkers() as number, isolated: crossOriginIsolated };
    }),
  );
  assert.equal(r.isolated, true);
  const [alone, helped] = r.runs;
  assert.equal(alone!.helpers, 0);
  assert.equal(helped!.helpers, 1);
  assert.equal(helped!.metrics, alone!.metrics);
  assert.deepEqual(helped!.params, alone!.params);
  assert.equal(r.live, 0, 'every rank and helper worker stopped');
});
