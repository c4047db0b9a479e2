// The overview's zoom (src/core/layout/overview.ts, used by <grpo-overview>): any gather, and a
// window of ranks and of the gather's steps, re-binned over the window only. Every heatmap and
// count is checked against the gathered samples of the core's gathers, filtered to the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLayout, defaultConfig, samplerNames, validateConfig } from '../../src/core/samplers/index.ts';
import { gathers } from '../../src/core/layout/gather.ts';
import { layoutOverview } from '../../src/core/layout/overview.ts';

test('zoom: every gather and a window of ranks and steps, counted from the gathered samples in that window', () => {
  let checked = 0;
  for (const sampler of samplerNames)
    for (const [ranks, batch, datasetSize] of [
      [8, 2, 32],
      [12, 4, 96],
    ] as const) {
      const config = { ...defaultConfig, sampler, ranks, batch, k: 2, datasetSize, epochs: 2 };
      if (validateConfig(config) !== null) continue;
      const layout = buildLayout(config);
      const all = gathers(layout);
      for (const [gi, g] of all.entries()) {
        const steps = g.stepIndices.length;
        for (const window of [
          { rankFrom: 1, rankTo: ranks - 2, stepFrom: 0, stepTo: steps },
          { rankFrom: 3, rankTo: 4, stepFrom: steps - 1, stepTo: steps },
          { rankFrom: 0, rankTo: ranks, stepFrom: 0, stepTo: Math.max(1, steps - 1) },
        ])
          for (const [maxRows, maxCols] of [
            [256, 512],
            [2, 5],
          ]) {
            const o = layoutOverview(layout, gi, maxRows, maxCols, window);
            assert.equal(o.gatherIndex, gi);
            assert.equal(o.gatherCount, all.length);
            assert.deepEqual(o.gatherSteps, g.stepIndices);
            assert.deepEqual(o.window, window);
            const inSteps = new Set(g.stepIndices.slice(window.stepFrom, window.stepTo));
            assert.deepEqual(o.stepIndices, [...inSteps]);
            const shown = g.samples.filter((s) => s.rank >= window.rankFrom && s.rank < window.rankTo && inSteps.has(s.stepIndex));
            const where = `${sampler} ${ranks}×${batch} gather ${gi} ${JSON.stringify(window)} ${maxRows}×${maxCols}`;
            assert.equal(o.samples, shown.length, where);
            // Rows re-binned over the window's ranks only.
            assert.equal(o.rows, Math.ceil((window.rankTo - window.rankFrom) / o.ranksPerRow));
            assert.ok(o.rows <= maxRows);
            const expect = new Uint32Array(o.rows * o.cols);
            for (const s of shown)
              expect[Math.floor((s.rank - window.rankFrom) / o.ranksPerRow) * o.cols + Math.floor(s.promptId / o.promptsPerCol)]! += 1;
            assert.deepEqual([...o.counts], [...expect], where);
            assert.equal(o.prompts, new Set(shown.map((s) => s.promptId)).size);
            const ranksOf = new Map<number, Set<number>>();
            for (const s of shown) ranksOf.set(s.promptId, (ranksOf.get(s.promptId) ?? new Set()).add(s.rank));
            const mean = ranksOf.size ? [...ranksOf.values()].reduce((a, r) => a + r.size, 0) / ranksOf.size : 0;
            assert.ok(Math.abs(o.meanRanksPerPrompt - mean) < 1e-12, where);
            checked++;
          }
      }
    }
  assert.ok(checked >= 40, `${checked} windows checked`);
});

test('zoom: out-of-range gathers and windows are clamped to what exists; no window is the whole gather', () => {
  const config = { ...defaultConfig, sampler: 'flow-grpo' as const, ranks: 8, batch: 2, k: 4, datasetSize: 32, epochs: 2 };
  const layout = buildLayout(config);
  const all = gathers(layout);
  const whole = layoutOverview(layout, 1);
  assert.deepEqual(whole.window, { rankFrom: 0, rankTo: 8, stepFrom: 0, stepTo: all[1]!.stepIndices.length });
  assert.equal(whole.samples, all[1]!.samples.length);
  const far = layoutOverview(layout, 99, 256, 512, { rankFrom: -5, rankTo: 100, stepFrom: 7, stepTo: 2 });
  assert.equal(far.gatherIndex, all.length - 1);
  assert.equal(far.window.rankFrom, 0);
  assert.equal(far.window.rankTo, 8);
  // An empty or reversed step range widens to one step (the last one here).
  assert.equal(far.window.stepTo - far.window.stepFrom, 1);
  const nan = layoutOverview(layout, Number.NaN, 256, 512, { rankFrom: Number.NaN, rankTo: 3 });
  assert.equal(nan.gatherIndex, 0);
  assert.deepEqual([nan.window.rankFrom, nan.window.rankTo], [0, 3]);
});
