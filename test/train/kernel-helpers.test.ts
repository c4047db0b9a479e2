// `train` with helper threads for the fast matmul (World.start's `helpers`, src/ops/fast/kernel-team.ts):
// one rank whose large products share their rows with a helper thread trains to the bits it trains
// to alone, and the helper threads end with the run. At this size the trunks' products are large enough
// to be shared (stage 1: 256 prompts × 512 × 64; stage 2 over its ~500–600 distinct rows × 261 × 64; in a
// 4-step run 16 products were shared and the helper computed about half of their rows).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { coreCount, liveRankWorkers } from '../../src/ranks/spawn.ts';
import { runTrain } from './helpers.ts';

const config = { ranks: 1, batch: 1024, k: 4, sampler: 'trl', steps: 4, checksumEvery: 2, dims: { dModel: 256, hidden: 64 } } as const;

test('one rank with a helper thread trains to the bits it trains to alone', async () => {
  const before = liveRankWorkers();
  const alone = await runTrain(config, { helpers: 0 });
  const helped = await runTrain(config, { helpers: 1 });
  assert.equal(alone.helpers, 0);
  assert.equal(helped.helpers, 1);
  assert.deepEqual(helped.plain, alone.plain);
  assert.deepEqual(Array.from(helped.final.params), Array.from(alone.final.params));
  assert.deepEqual(Array.from(helped.final.v), Array.from(alone.final.v));
  assert.equal(liveRankWorkers(), before, 'a helper thread outlived its run');
});

test('by default the fast ops take the cores the ranks leave idle; the reference ops take none', async () => {
  const cores = await coreCount();
  // At most 3 (DEFAULT_MAX_HELPERS): claims of at least 64 rows feed at most 4 threads at stage 1's 256 rows.
  const one = await runTrain({ ...config, steps: 1 });
  assert.equal(one.helpers, Math.min(3, cores - 1), `1 rank on ${cores} cores`);
  const two = await runTrain({ ...config, ranks: 2, batch: 512, steps: 1 }, { threads: 2 });
  assert.equal(two.helpers, Math.min(3, Math.floor(Math.max(0, cores - 2) / 2)), `2 rank threads on ${cores} cores`);
  const reference = await runTrain({ ...config, steps: 1 }, { cpuOps: 'reference' });
  assert.equal(reference.helpers, 0);
  // Products too small to share (16 rows × (2·32 + 5) × 32 multiply-adds at most): no helper starts.
  const tiny = await runTrain({ ...config, batch: 16, dims: { dModel: 32, hidden: 32 }, steps: 1 });
  assert.equal(tiny.helpers, 0);
});

test('a process that trained with a helper thread ends by itself', () => {
  // The same runtime as this test: Node through tsx, or Deno (whose process a worker left blocked in
  // Atomics.wait kept alive after the run: the helpers wait with Atomics.waitAsync).
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const script = 'test/train/fixtures/helped-run.ts';
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  const [cmd, args] = deno ? [deno.execPath(), ['run', '-A', '--no-check', script]] : [process.execPath, ['--import', 'tsx', script]];
  const res = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });
  assert.equal(res.error, undefined, `the process did not end by itself within 120 s (the run takes a few seconds): ${res.error?.message}`);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /trained 2 steps with 1 helper thread; live rank workers: 0/);
});
