import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLayout, defaultConfig, samplerNames, validateConfig } from '../../src/core/samplers/index.ts';
import { gathers } from '../../src/core/layout/gather.ts';
import { layoutSize } from '../../src/core/samplers/size.ts';
import { checkView, viewBudget } from '../../src/ui/view-budget.ts';

test('layoutSize predicts the built layout exactly, without building it', () => {
  for (const sampler of samplerNames)
    for (const ranks of [1, 3, 8])
      for (const batchesPerEpoch of [1, 2, 3]) {
        const config = { ...defaultConfig, sampler, ranks, batch: 4, k: 4, batchesPerEpoch, epochs: 2, datasetSize: 48 };
        if (validateConfig(config) !== null) continue;
        const layout = buildLayout(config);
        const g = gathers(layout);
        const size = layoutSize(config);
        assert.equal(
          size.samples,
          layout.steps.reduce((n, s) => n + s.ranks.flat().length, 0),
          sampler,
        );
        assert.equal(size.gathers, g.length, sampler);
        assert.equal(size.samplesPerGather, g[0]!.samples.length, sampler);
      }
});

test('the page budget refuses giant links with their arithmetic, and its fixes are valid and within budget', () => {
  const cases = [
    { ...defaultConfig, ranks: 100_000, batch: 1, k: 1, datasetSize: 100_000 },
    { ...defaultConfig, ranks: 1, batch: 1_000_000, k: 1, datasetSize: 1_000_000 },
    { ...defaultConfig, ranks: 64, batch: 32, batchesPerEpoch: 64, datasetSize: 100_000 },
  ];
  for (const config of cases) {
    assert.equal(validateConfig(config), null, 'valid for the core');
    const err = checkView(config);
    assert.ok(err, JSON.stringify(config));
    assert.match(err.message, /^Too big for this page: /);
    assert.ok(err.suggestions.length > 0);
    for (const fix of err.suggestions) assert.equal(checkView({ ...config, ...fix }), null, JSON.stringify(fix));
  }
  assert.match(
    checkView(cases[1]!)!.message,
    /1 rank × 1,000,000 samples per rank per step × 2 steps per gather = 2,000,000 tiles in one gather/,
  );
  assert.equal(checkView({ ...defaultConfig, ranks: 64, batch: 32, batchesPerEpoch: 8, datasetSize: 2048 }), null, '64 × 32 × 8 is drawn');
  assert.ok(64 * 32 * 8 <= viewBudget.tiles);
});
