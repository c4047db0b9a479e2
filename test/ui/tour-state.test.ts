// The tours' data and the rules that turn a step into what the page shows (tour-state.ts): a
// step's state is what the steps before it on the same view added up, as if they had all run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explorerSearch, readTourLink, stepState, tourSearch } from '../../src/ui/tour/tour-state.ts';
import { TOURS, tourNames } from '../../src/ui/tour/tours.ts';
import { en } from '../../src/ui/i18n/en.ts';
import { zhCN } from '../../src/ui/i18n/zh-CN.ts';
import { presetNames } from '../../src/core/presets.ts';
import { phaseIds } from '../../src/ui/story.ts';

// seed-000 has 9 steps: all seven phases, the loader and the slice back.
test('one tour per scenario (and tours of known bugs), 4 to 9 steps each, every text in English and Simplified Chinese', () => {
  for (const preset of presetNames) assert.ok(tourNames.includes(preset), `no tour for ${preset}`);
  for (const id of tourNames) {
    const tour = TOURS[id]!;
    assert.equal(tour.id, id);
    assert.ok(tour.steps.length >= 4 && tour.steps.length <= 9, `${id}: ${tour.steps.length} steps`);
    // The words are the catalogues' (src/ui/i18n: tours), one caption per step in each language.
    assert.equal(en.tours.steps[id]?.length, tour.steps.length, `${id}: one English caption per step`);
    assert.equal(zhCN.tours.steps[id]?.length, tour.steps.length, `${id}: one Chinese caption per step`);
    for (const [english, chinese] of [
      [en.tours.titles[id], zhCN.tours.titles[id]],
      ...en.tours.steps[id]!.map((t, i) => [t, zhCN.tours.steps[id]![i]]),
    ]) {
      assert.ok((english ?? '').trim().length > 0);
      assert.match(chinese ?? '', /[\u4e00-\u9fff]/, `${id}: a Chinese text has Chinese in it: ${chinese}`);
    }
    // Every explorer step names a preset and a phase the explorer knows (a typo would show the default silently).
    tour.steps.forEach((s, i) => {
      if (s.view !== 'explorer') return;
      const set = stepState(tour, i).set;
      assert.ok(presetNames.includes(set.preset!), `${id} step ${i + 1}: preset ${set.preset}`);
      assert.ok((phaseIds as readonly string[]).includes(set.phase!), `${id} step ${i + 1}: phase ${set.phase}`);
    });
  }
});

test('a step adds to what the steps before it on the same view set; another view starts afresh; "" removes a key', () => {
  const t = TOURS['seed-001']!;
  assert.deepEqual(stepState(t, 1), {
    view: 'explorer',
    from: 0,
    set: { preset: 'seed-001', phase: 'scatter' },
    keys: ['preset', 'phase'],
    runs: [],
  });
  assert.deepEqual(stepState(t, 3).set, { preset: 'seed-001', schemes: 'serial-dp,per-rank-serial' });
  assert.deepEqual(stepState(t, 4).set, { preset: 'seed-001', alpha: '0.5' });
  const last = stepState(t, 5);
  assert.deepEqual(last.set, { preset: 'seed-001', latency: 'controller' });
  assert.equal(last.from, 2);
  assert.deepEqual([...last.keys].sort(), ['alpha', 'latency', 'preset', 'schemes']);
  const train = TOURS['seed-003']!;
  // The step about the training run starts it (it used to show a form and empty charts).
  assert.deepEqual(stepState(train, 1).runs, []);
  assert.deepEqual(stepState(train, 2).runs, [2]);
  assert.deepEqual(stepState(train, 4).runs, [2]);
});

test('links: tour and 1-based step read and written, out-of-range steps clamped, other keys kept', () => {
  const link = readTourLink('?tour=seed-002&step=3');
  assert.equal(link.tour?.id, 'seed-002');
  assert.equal(link.index, 2);
  assert.equal(readTourLink('?tour=seed-002').index, 0);
  assert.equal(readTourLink('?tour=seed-002&step=99').index, TOURS['seed-002']!.steps.length - 1);
  assert.equal(readTourLink('?tour=seed-002&step=-4').index, 0);
  assert.equal(readTourLink('?tour=seed-002&step=two').index, 0);
  assert.deepEqual(readTourLink('?tour=nope'), { tour: null, unknown: 'nope', index: 0 });
  assert.equal(tourSearch('?lang=zh-CN&tour=seed-002&step=3&speed=8', 'seed-002', 3), '?lang=zh-CN&tour=seed-002&step=4&speed=8');
  assert.equal(explorerSearch({ preset: 'seed-000', phase: 'scatter' }, '8'), '?preset=seed-000&phase=scatter&speed=8');
  assert.equal(explorerSearch({ preset: 'seed-000' }, null), '?preset=seed-000');
});
