// The verl sampler against verl's own data path (fixture made by scripts/golden/verl_layout.py,
// which execs create_rl_sampler, _balance_batch and seqlen_balancing from a verl checkout over
// torchdata's StatefulDataLoader): every step's prompts, token counts, balanced order and ranks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { regroup } from '../../../src/core/layout/regroup.ts';
import { gathers } from '../../../src/core/layout/gather.ts';
import { buildLayout, defaultConfig, SYNTHETIC_SEQLEN, validateConfig, verlSays } from '../../../src/core/samplers/index.ts';
import { balanceBatchOrder } from '../../../src/core/frameworks/verl/balance.ts';

interface Case {
  datasetSize: number;
  trainBatchSize: number;
  n: number;
  ranks: number;
  epochs: number;
  seed: number | null;
  balanceBatch: boolean;
  numWorkers: number;
  seqlens?: number[];
}
interface Step {
  epoch: number;
  step: number;
  promptIds: number[];
  seqlens: number[];
  order: number[];
  ranks: number[][];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-verl.json', import.meta.url), 'utf8')) as {
  source: { verl: string };
  torchDefaultSeed: number;
  syntheticSeqlens: { low: number; high: number };
  layouts: { config: Case; steps: Step[]; error: string | null; 'len(dataloader)': number }[];
};

function configOf(c: Case): LayoutConfig {
  return {
    ...defaultConfig,
    sampler: 'verl',
    ranks: c.ranks,
    k: c.n,
    batch: (c.trainBatchSize * c.n) / c.ranks,
    epochs: c.epochs,
    datasetSize: c.datasetSize,
    // data.seed null: torch.Generator() keeps its default seed.
    seed: c.seed ?? golden.torchDefaultSeed,
    balanceBatch: c.balanceBatch,
    dataloaderNumWorkers: c.numWorkers,
    ...(c.seqlens ? { seqlens: c.seqlens } : {}),
  };
}

test('the fixture comes from verl b178a3c; the synthetic lengths are the ones the sandbox draws', () => {
  assert.equal(golden.source.verl, 'b178a3cd56f58b2d502255daba591e92833930a7');
  assert.deepEqual(golden.syntheticSeqlens, SYNTHETIC_SEQLEN);
  assert.equal(golden.torchDefaultSeed, 67280421310721);
});

test('verl sampler = verl data path: prompts, token counts, balanced order and each rank, step by step', () => {
  const ran = golden.layouts.filter((l) => !l.error);
  assert.ok(ran.length >= 9);
  // 0 workers and several: torchdata's multiprocessing iterator draws an extra permutation per epoch.
  assert.deepEqual([...new Set(ran.map((l) => l.config.numWorkers > 0))].sort(), [false, true]);
  for (const { config: c, steps } of ran) {
    const layout = buildLayout(configOf(c));
    const what = JSON.stringify(c).slice(0, 120);
    assert.equal(layout.steps.length, steps.length, what);
    layout.steps.forEach((s, i) => {
      const want = steps[i]!;
      assert.equal(s.epoch, want.epoch, what);
      assert.equal(s.step, want.step, what);
      assert.deepEqual(s.seqlens, want.seqlens, `${what} step ${i} seqlens`);
      assert.deepEqual(s.order, want.order, `${what} step ${i} order`);
      assert.deepEqual(s.ranks, want.ranks, `${what} step ${i} ranks`);
    });
  }
});

test('balanceBatchOrder alone reproduces every balanced step (ties and extreme lengths included)', () => {
  let n = 0;
  for (const { config: c, steps } of golden.layouts) {
    if (!c.balanceBatch) continue;
    for (const s of steps) {
      assert.deepEqual(balanceBatchOrder(s.seqlens, c.ranks), s.order);
      n++;
    }
  }
  assert.ok(n >= 40);
});

test('uid regrouping collects the k scattered copies of each prompt into one group per draw', () => {
  const c = golden.layouts[0]!.config;
  const layout = buildLayout(configOf(c));
  for (const g of gathers(layout)) {
    const rows = regroup(g, 'uid', c.n);
    assert.equal(rows.length, c.trainBatchSize);
    for (const row of rows) {
      assert.equal(row.members.length, c.n);
      assert.equal(new Set(row.promptIds).size, 1);
    }
  }
});

test("verl's own error texts, word for word", () => {
  const texts = golden.layouts.filter((l) => l.error).map((l) => l.error);
  assert.ok(texts.includes(verlSays.balanceNotDivisible(6, 4)));
  assert.ok(texts.includes(verlSays.chunkNotEqual(6, 4)));
});

test('measured seqlens too short for the layout are refused with the numbers', () => {
  const c = golden.layouts.find((l) => l.config.seqlens)!.config;
  const err = validateConfig({ ...configOf(c), seqlens: c.seqlens!.slice(0, 10) });
  assert.match(err?.message ?? '', /seqlens give 10 token counts but this layout has 48 samples/);
});
