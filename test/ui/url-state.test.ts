import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseState, stateToSearch } from '../../src/ui/url-state.ts';
import { loadCatalogue, setLang } from '../../src/ui/i18n/index.ts';
import type { LayoutConfig } from '../../src/core/layout/types.ts';

// Chinese is a chunk the page loads before it switches; the tests load it once.
await loadCatalogue('zh-CN');

const defaults: LayoutConfig = {
  sampler: 'flow-grpo',
  ranks: 8,
  batch: 2,
  k: 4,
  batchesPerEpoch: 2,
  epochs: 1,
  datasetSize: 32,
  seed: 42,
  stepsPerGeneration: 1,
  numIterations: 1,
  gradientAccumulationSteps: 1,
  numWorkers: 1,
  prefetchFactor: 2,
  acceleratePrepare: 1,
};
const presets = { 'seed-000': { config: defaults }, 'seed-002': { config: { ...defaults, sampler: 'trl' as const, ranks: 4, batch: 16 } } };

test('a state written to the URL reads back identically', () => {
  const s = parseState(
    '?preset=seed-002&seed=7&phase=regroup&regroup=view&rewards=model&scale=batch&speed=2&prompt=5&gather=1&embed=1&k_hide=true&stats_hide=true',
    defaults,
    presets,
  );
  assert.equal(s.config.sampler, 'trl');
  assert.equal(s.config.seed, 7);
  assert.equal(s.preset, null, 'a changed preset is custom');
  const again = parseState(`?${stateToSearch(s)}`, defaults, presets);
  assert.deepEqual({ ...again, hidden: [...again.hidden] }, { ...s, hidden: [...s.hidden] });
  assert.deepEqual([...s.hidden].sort(), ['k', 'stats']);
});

test('a preset link keeps its name while unchanged; unknown values fall back, out-of-range numbers are kept for the core to explain', () => {
  const s = parseState('?preset=seed-000&phase=nonsense&regroup=zip&speed=-3&k=3', defaults, presets);
  assert.equal(s.phase, 'sample');
  assert.equal(s.regroup, 'prompt-id');
  assert.equal(s.speed, 1);
  assert.equal(s.config.k, 3);
  assert.equal(s.preset, null);
  assert.equal(parseState('?preset=seed-000', defaults, presets).preset, 'seed-000');
  assert.equal(parseState('', defaults, presets).preset, 'seed-000', 'no link: the defaults are seed-000, and the preset box says so');
  assert.equal(parseState('?sampler=trl&ranks=4&batch=16', defaults, presets).preset, 'seed-002', 'settings equal to a preset name it');
  assert.equal(parseState('?seed=7', defaults, presets).preset, null);
  assert.match(
    stateToSearch(parseState('?preset=seed-000', defaults, presets)),
    /^preset=seed-000&sampler=flow-grpo&ranks=8&batch=2&k=4&batches=2/,
  );
});

test('every unreadable value in a link is named in a notice; a clean link has none', () => {
  const s = parseState('?preset=nope&k=abc&phase=nonsense&speed=99&prompt=-1&gather=x&rewards=gold', defaults, presets);
  assert.equal(s.config.k, 4);
  assert.equal(s.phase, 'sample');
  const text = s.notices.join('\n');
  for (const part of ['preset=nope', 'k=abc', 'phase=nonsense', 'speed=99', 'prompt=-1', 'gather=x', 'rewards=gold'])
    assert.match(text, new RegExp(`“${part}”`));
  assert.equal(s.notices.length, 7);
  assert.deepEqual(parseState('?preset=seed-000&k=3&phase=gather', defaults, presets).notices, []);
  assert.doesNotMatch(stateToSearch(s), /notice/);
});

test('every setting of the table round-trips through its URL key', async () => {
  const { LAYOUT_SETTINGS } = await import('../../src/core/settings.ts');
  const changed: Record<string, unknown> = { ...defaults, sampler: 'trl' };
  LAYOUT_SETTINGS.forEach((s, i) => {
    if (s.kind === 'int') changed[s.field] = 100 + i;
    if (s.kind === 'bool') changed[s.field] = false;
  });
  const search = LAYOUT_SETTINGS.map((s) => `${s.param}=${changed[s.field]}`).join('&');
  assert.deepEqual(parseState(`?${search}`, defaults, presets).config, changed);
  const written = new URLSearchParams(stateToSearch(parseState(`?${search}`, defaults, presets)));
  for (const s of LAYOUT_SETTINGS) assert.equal(written.get(s.param), String(changed[s.field]), s.param);
});

test('an embedded element says its unreadable values are in its attributes, in both languages', () => {
  const search = '?speed=9&preset=nope&k=x&phase=nope';
  assert.ok(parseState(search, defaults, presets).notices.every((n) => n.includes(' in the link ')));
  const attributes = parseState(search, defaults, presets, 'attributes').notices;
  assert.equal(attributes.length, 4);
  assert.ok(attributes.every((n) => n.includes(' in the attributes ')));
  setLang('zh-CN');
  try {
    assert.ok(parseState(search, defaults, presets, 'attributes').notices.every((n) => n.startsWith('属性中的“')));
  } finally {
    setLang('en');
  }
});
