import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presets, presetNames } from '../../src/core/presets.ts';
import { buildLayout, defaultConfig, validateConfig } from '../../src/core/samplers/index.ts';

test('presets seed-000 … seed-004 exist, are valid and describe themselves', () => {
  assert.deepEqual(presetNames, ['seed-000', 'seed-001', 'seed-002', 'seed-003', 'seed-004']);
  for (const name of presetNames) {
    const p = presets[name]!;
    assert.equal(validateConfig(p.config), null, name);
    assert.ok(p.description.length > 40, name);
    buildLayout(p.config);
  }
});

test('seed-000 is the default: flow-grpo, 8 ranks × 2, k=4, 2 batches per epoch, seed 42', () => {
  assert.deepEqual(defaultConfig, presets['seed-000']!.config);
  const c = defaultConfig;
  assert.deepEqual([c.sampler, c.ranks, c.batch, c.k, c.batchesPerEpoch, c.seed], ['flow-grpo', 8, 2, 4, 2, 42]);
});

test('seed-002 and seed-004: TRL-like layout, 4 ranks × 16, k=4, whole groups per rank', () => {
  for (const name of ['seed-002', 'seed-004']) {
    const layout = buildLayout(presets[name]!.config);
    assert.equal(layout.sampler, 'trl');
    for (const s of layout.steps) {
      assert.equal(s.ranks.length, 4);
      for (const slots of s.ranks) {
        assert.equal(slots.length, 16);
        for (let g = 0; g < 16; g += 4) assert.equal(new Set(slots.slice(g, g + 4)).size, 1);
      }
    }
  }
});
