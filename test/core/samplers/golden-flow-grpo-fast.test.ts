// `--framework flow_grpo-sd3-fast-74db691` against test/fixtures/golden-flow-grpo-fast.json: flow_grpo's
// scripts/train_sd3_fast.py at 74db691, its DistributedKRepeatSampler exec'd under torch's DataLoader with the
// script's loop (set_epoch, then a new iterator, for each batch; not prepared; seed 42 in the script)
// by scripts/golden/flow_grpo_fast_loop.py.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { say } from '../../../src/core/messages/index.ts';
import { buildLayout } from '../../../src/core/samplers/index.ts';
import { layoutSettingsFrom } from '../../../src/core/samplers/settings.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  config: { ranks: number; batch: number; k: number; batchesPerEpoch: number; datasetSize: number; epochs: number; numWorkers: number };
  steps: number[][][];
}
const golden = fixture<{ commit: string; cases: Case[] }>('golden-flow-grpo-fast.json');
const FAST = 'flow_grpo-sd3-fast-74db691';

const read = (given: Record<string, string>) => layoutSettingsFrom((key) => given[key]).config;

test('the fixture is train_sd3_fast.py at 74db691', () => assert.match(golden.commit, /^74db691/));

test("the script's layout by name: every step's batches per rank, as its loop receives them", () => {
  for (const { config: c, steps } of golden.cases) {
    const config = read({
      framework: FAST,
      ranks: String(c.ranks),
      batch: String(c.batch),
      k: String(c.k),
      'batches-per-epoch': String(c.batchesPerEpoch),
      'dataset-size': String(c.datasetSize),
      epochs: String(c.epochs),
    });
    assert.deepEqual([config.sampler, config.numWorkers, config.acceleratePrepare, config.seed], ['flow-grpo', 0, 0, 42]);
    const layout = buildLayout(config);
    assert.deepEqual(
      layout.steps.map((s) => s.ranks),
      steps,
      JSON.stringify(c),
    );
    assert.match(layout.notes.map((f) => say(f)).join('\n'), /train_sd3_fast\.py at 74db691/);
  }
});

test('the script fixes its loader and seed: another value is refused, naming the script', () => {
  assert.throws(() => read({ framework: FAST, seed: '7' }), /seed=7 is not what flow_grpo's train_sd3_fast\.py runs/);
  assert.throws(() => read({ framework: FAST, 'num-workers': '1' }), /num-workers=1 is not what/);
  assert.equal(read({ framework: FAST, seed: '42' }).seed, 42);
  assert.throws(() => read({ framework: FAST, sampler: 'trl' }), /does not train --sampler trl/);
});
