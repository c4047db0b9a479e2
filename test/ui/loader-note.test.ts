// seed-000's description, second half: the group sizes it states for the document's loop and for the
// published script's loader are those of test/fixtures/golden-flow-grpo-loader.json, which
// scripts/golden/flow_grpo_loader.py recorded from flow_grpo's own DistributedKRepeatSampler
// (scripts/train_sd3.py at ac4c86e) under torch's DataLoader and accelerate's prepare; in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { presets } from '../../src/core/presets.ts';
import { buildLayout } from '../../src/core/samplers/index.ts';
import { loadCatalogue, setLang } from '../../src/ui/i18n/index.ts';
import { groupSizes, loaderNote } from '../../src/ui/loader-note.ts';
import { fixture } from '../helpers/fixtures.ts';

interface Case {
  name: string;
  config: { batchesPerEpoch: number };
  steps: number[][][];
}
const golden = fixture<{ cases: Case[] }>('golden-flow-grpo-loader.json');

/** [size, groups] of epoch 0 in a recorded run, largest size first (as groupSizes gives them). */
function recordedSizes(name: string): [number, number][] {
  const c = golden.cases.find((x) => x.name === name)!;
  const counts = new Map<number, number>();
  for (const step of c.steps.slice(0, c.config.batchesPerEpoch)) for (const id of step.flat()) counts.set(id, (counts.get(id) ?? 0) + 1);
  const bySize = new Map<number, number>();
  for (const size of counts.values()) bySize.set(size, (bySize.get(size) ?? 0) + 1);
  return [...bySize].sort((a, b) => b[0] - a[0]);
}

await loadCatalogue('zh-CN');

test('seed-000: the note states the recorded groups, the document’s loop and the shipped loader’s, in English and Chinese', () => {
  const shipped = recordedSizes('seed-000, as scripts/train_sd3.py builds it');
  const ideal = recordedSizes('seed-000, idealised (num_workers=0, not prepared)');
  assert.deepEqual(ideal, [[4, 8]], 'the document’s loop: 8 groups of 4');
  assert.deepEqual(shipped, [[8, 4]], 'the shipped loader: 4 groups of 8');
  const layout = buildLayout(presets['seed-000']!.config);
  assert.deepEqual(groupSizes(layout), shipped);
  try {
    setLang('en');
    const en = loaderNote(layout)!;
    assert.match(en, /document expects a new draw at every step: per epoch 8 groups of 4\./);
    assert.match(en, /step 1 gets step 0’s batch, so PerPromptStatTracker sees 4 groups of 8 per epoch/);
    setLang('zh-CN');
    const zh = loaderNote(layout)!;
    assert.match(zh, /每个 epoch 8 个大小为 4 的组/);
    assert.match(zh, /看到 4 个大小为 8 的组/);
  } finally {
    setLang('en');
  }
});

test('the note says nothing where the loader changes nothing (the document’s loop, and other samplers)', () => {
  const config = presets['seed-000']!.config;
  assert.equal(loaderNote(buildLayout({ ...config, numWorkers: 0, acceleratePrepare: 0 })), null);
  assert.equal(loaderNote(buildLayout(presets['seed-002']!.config)), null);
});
