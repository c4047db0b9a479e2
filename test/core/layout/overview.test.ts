import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLayout, defaultConfig, samplerNames, validateConfig } from '../../../src/core/samplers/index.ts';
import { gathers } from '../../../src/core/layout/gather.ts';
import { layoutOverview } from '../../../src/core/layout/overview.ts';

test("the overview's heatmap and counts agree with the gathered samples, for every sampler and binning", () => {
  let checked = 0;
  for (const sampler of samplerNames)
    for (const [ranks, batch, datasetSize] of [
      [8, 2, 32],
      [6, 4, 40],
      [3, 4, 24],
    ] as const) {
      const config = { ...defaultConfig, sampler, ranks, batch, k: 2, datasetSize, epochs: 2 };
      if (validateConfig(config) !== null) continue;
      const layout = buildLayout(config);
      const all = gathers(layout);
      for (const gi of [0, all.length - 1])
        for (const [maxRows, maxCols] of [
          [256, 512],
          [2, 5],
        ]) {
          const o = layoutOverview(layout, gi, maxRows, maxCols);
          const g = all[gi]!;
          assert.deepEqual(o.stepIndices, g.stepIndices);
          assert.equal(o.samples, g.samples.length);
          const expect = new Uint32Array(o.rows * o.cols);
          for (const s of g.samples) expect[Math.floor(s.rank / o.ranksPerRow) * o.cols + Math.floor(s.promptId / o.promptsPerCol)]! += 1;
          assert.deepEqual([...o.counts], [...expect], `${sampler} gather ${gi} ${maxRows}×${maxCols}`);
          assert.ok(o.rows <= maxRows && o.cols <= maxCols);
          const perPromptRank = new Map<string, number>();
          for (const s of g.samples) perPromptRank.set(`${s.promptId}/${s.rank}`, (perPromptRank.get(`${s.promptId}/${s.rank}`) ?? 0) + 1);
          assert.equal(o.maxCopiesOnOneRank, Math.max(...perPromptRank.values()));
          assert.equal(o.prompts, new Set(g.samples.map((s) => s.promptId)).size);
          checked++;
        }
    }
  assert.ok(checked >= 20, `${checked} overviews checked`);
});
