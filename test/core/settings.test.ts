import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig } from '../../src/core/samplers/index.ts';
import { LAYOUT_SETTINGS, flagName, settingOf, suggestionText } from '../../src/core/settings.ts';

test('the settings table describes every LayoutConfig field exactly once, with distinct flags and URL keys', () => {
  const fields = LAYOUT_SETTINGS.map((s) => s.field);
  assert.deepEqual([...fields].sort(), Object.keys(defaultConfig).sort());
  for (const column of ['flag', 'param', 'label'] as const) {
    const values = LAYOUT_SETTINGS.map((s) => s[column]);
    assert.equal(new Set(values).size, values.length, `${column} values are distinct`);
  }
  for (const s of LAYOUT_SETTINGS) {
    assert.match(s.flag, /^[a-z][a-z-]*$/, `${s.field}: the flag is the field in kebab-case`);
    assert.ok(s.hint.length > 0 && s.label.length > 0, `${s.field} has a label and a hint`);
    if (s.kind === 'int') assert.ok(s.min <= s.max && Number.isSafeInteger(s.min), `${s.field} has a range`);
  }
});

test('flags are the fields in kebab-case; suggestions read as flags', () => {
  assert.equal(settingOf('batchesPerEpoch').flag, 'batches-per-epoch');
  assert.equal(flagName('gradientAccumulationSteps'), 'gradient-accumulation-steps');
  assert.equal(settingOf('stepsPerGeneration').param, 'spg');
  assert.equal(suggestionText({ k: 4, batchesPerEpoch: 2 }), 'k = 4, batches-per-epoch = 2');
  assert.throws(() => settingOf('nope' as never), /add it to LAYOUT_SETTINGS/);
});
