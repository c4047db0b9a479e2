// The steps model against a real trl 1.13.0 GRPOTrainer under torchrun (test/fixtures/golden-steps-trl.json,
// written by scripts/golden/trl_steps.py): for each case, the prompts each rank generated from, the
// micro-batches it trained on (after TRL's own shuffle, recorded), the accumulation windows, and the
// weight the optimizer applied to each completion's tokens (a probe parameter's gradient read just
// before optimizer.step(), so accumulation and DDP's mean over ranks are included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { buildLayout } from '../../../src/core/samplers/index.ts';
import { buildSteps, completionOffsets, type StepsReport } from '../../../src/core/steps/index.ts';

interface Generation {
  pids: number[];
  perm: number[];
  tokens: number[];
  advantages: number[];
  numItemsInBatch: number;
}
interface RankLog {
  rank: number;
  generations: Generation[];
  microSteps: { step: number; generation: number; chunk: number; local: number[]; window: number }[];
  windows: { probeGrad: number[] }[];
}
interface TrlCase {
  name: string;
  ranks: number;
  batch: number;
  k: number;
  spg: number;
  ga: number;
  mu: number;
  loss: string;
  dataset: number;
  ranks_log: RankLog[];
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-steps-trl.json', import.meta.url), 'utf8')) as {
  seed: number;
  maxCompletionLength: number;
  versions: Record<string, string>;
  cases: TrlCase[];
};

/** Relative tolerance: TRL computes the loss in float32, and recomputed old log-probs give ratios 1 ± 1e-6. */
const TOLERANCE = 2e-4;

function model(c: TrlCase, framework: string, loss = c.loss): { report: StepsReport; offsets: number[]; perRank: number } {
  const config: LayoutConfig = {
    sampler: 'trl',
    ranks: c.ranks,
    batch: c.batch,
    k: c.k,
    batchesPerEpoch: 1,
    epochs: 1,
    datasetSize: c.dataset,
    seed: golden.seed,
    stepsPerGeneration: c.spg,
    numIterations: c.mu,
    gradientAccumulationSteps: c.ga,
    numWorkers: 0,
    prefetchFactor: 2,
    acceleratePrepare: 0,
  };
  const layout = buildLayout(config);
  const offsets = completionOffsets(layout);
  const perRank = c.batch * c.spg;
  // The real completion lengths, in completion order (layout step, rank-major, slot).
  const lengths = layout.steps.flatMap((_, g) => c.ranks_log.flatMap((r) => r.generations[g]!.tokens));
  const report = buildSteps(layout, {
    framework,
    loss,
    lengths,
    maxCompletionLength: golden.maxCompletionLength,
    order: (g, _pass, r) => c.ranks_log[r]!.generations[g]!.perm,
  });
  return { report, offsets, perRank };
}

test('the TRL fixture was made by trl 1.13.0', () => {
  assert.equal(golden.versions.trl, '1.13.0');
  assert.ok(golden.cases.length >= 6);
});

for (const c of golden.cases) {
  test(`trl ${c.name}: prompts, micro-batches, windows and policy versions as the real trainer ran them`, () => {
    const { report, offsets, perRank } = model(c, 'trl-1.13.0');
    const layout = buildLayout({ ...report.config });
    for (const log of c.ranks_log) {
      assert.equal(log.generations.length, layout.steps.length, `rank ${log.rank}: generations`);
      log.generations.forEach((g, i) =>
        assert.deepEqual(g.pids, layout.steps[i]!.ranks[log.rank], `rank ${log.rank} generation ${i}: prompt ids`),
      );
      const micro = report.steps.flatMap((s) => s.microBatches.filter((m) => m.rank === log.rank));
      assert.equal(micro.length, log.microSteps.length, `rank ${log.rank}: micro-steps`);
      log.microSteps.forEach((real, i) => {
        const m = micro[i]!;
        const step = report.steps.find((s) => s.microBatches.includes(m))!;
        const completions = m.rows.map((j) => step.rows[j]!.completion);
        const expected = real.local.map((local) => offsets[real.generation]! + log.rank * perRank + local);
        assert.deepEqual(completions, expected, `rank ${log.rank} micro-step ${i}: completions`);
        assert.equal(m.generation, real.generation);
        assert.equal(step.index, real.window, `rank ${log.rank} micro-step ${i}: optimizer step`);
      });
      assert.equal(report.steps.length, log.windows.length, `rank ${log.rank}: optimizer steps`);
    }
  });

  test(`trl ${c.name}: every completion's applied weight equals the gradient the real optimizer applied`, () => {
    const { report, offsets, perRank } = model(c, 'trl-1.13.0');
    let compared = 0;
    report.steps.forEach((step, w) => {
      // DDP: the probe's gradient is the same on every rank after the all-reduce.
      const grads = c.ranks_log.map((r) => r.windows[w]!.probeGrad);
      for (const g of grads.slice(1)) assert.deepEqual(g, grads[0], `window ${w}: ranks disagree`);
      const modelWeight = new Map<number, number>();
      for (const row of step.rows) modelWeight.set(row.completion, (modelWeight.get(row.completion) ?? 0) + row.weight);
      for (const [completion, weight] of modelWeight) {
        const g = offsets.findLastIndex((o) => o <= completion);
        const rank = Math.floor((completion - offsets[g]!) / perRank);
        const local = (completion - offsets[g]!) % perRank;
        const gen = c.ranks_log[rank]!.generations[g]!;
        const tokens = gen.tokens[local]!;
        const advantage = gen.advantages[local]!;
        if (tokens === 0 || Math.abs(advantage) < 1e-6) continue;
        const probe = grads[0]![g * c.ranks * perRank + rank * perRank + local]!;
        const measured = probe / (-advantage * tokens);
        assert.ok(
          Math.abs(measured - weight) <= TOLERANCE * Math.abs(weight),
          `window ${w} completion ${completion}: model ${weight}, trl ${measured} (ratio ${measured / weight})`,
        );
        compared++;
      }
    });
    assert.ok(compared > 0, 'no completion compared');
  });
}

test('the fixtures tell the TRL versions apart: before PR #6024, dapo with steps_per_generation ≠ GA does not match the real 1.13.0 run', () => {
  const cases = golden.cases.filter((c) => c.loss === 'dapo' && c.spg !== c.ga);
  assert.ok(cases.length >= 2);
  for (const c of cases) {
    const now = model(c, 'trl-1.13.0').report;
    const before = model(c, 'trl-1.9.0').report;
    const scale = (r: StepsReport) => r.steps.reduce((n, s) => n + s.updateScale, 0) / r.steps.length;
    // Before the fix the update is about GA / spg of the fixed one.
    assert.ok(Math.abs(scale(before) / scale(now) - c.ga / c.spg) < 0.25 * (c.ga / c.spg), `${c.name}: ${scale(before)} vs ${scale(now)}`);
  }
});

test('the fixtures tell the loss types apart: the real runs do not match another loss type’s weights', () => {
  for (const c of golden.cases.filter((x) => (x.loss === 'grpo' || x.loss === 'bnpo') && x.mu === 1)) {
    const other = c.loss === 'grpo' ? 'bnpo' : 'grpo';
    const { report, offsets, perRank } = model(c, 'trl-1.13.0', other);
    let worst = 0;
    report.steps.forEach((step, w) => {
      const grad = c.ranks_log[0]!.windows[w]!.probeGrad;
      for (const row of step.rows) {
        const g = offsets.findLastIndex((o) => o <= row.completion);
        const rank = Math.floor((row.completion - offsets[g]!) / perRank);
        const local = (row.completion - offsets[g]!) % perRank;
        const gen = c.ranks_log[rank]!.generations[g]!;
        if (gen.tokens[local] === 0) continue;
        const measured = grad[g * c.ranks * perRank + rank * perRank + local]! / (-gen.advantages[local]! * gen.tokens[local]!);
        worst = Math.max(worst, Math.abs(measured / row.weight - 1));
      }
    });
    assert.ok(worst > 0.05, `${c.name} under ${other}: off by at most ${worst}`);
  }
});
