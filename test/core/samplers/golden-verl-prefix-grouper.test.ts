// verl's _balance_batch with actor.use_prefix_grouper and with keep_minibatch=True against
// test/fixtures/golden-verl-prefix-grouper.json, made by exec'ing verl's own _balance_batch and
// seqlen_balancing.py (get_group_balanced_partitions, karmarkar_karp) from a checkout at b178a3c
// (scripts/golden/verl_prefix_grouper.py), with its errors quoted verbatim.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { say } from '../../../src/core/messages/index.ts';
import { buildLayout, validateConfig } from '../../../src/core/samplers/index.ts';
import { layoutSettingsFrom } from '../../../src/core/samplers/settings.ts';
import { TORCH_DEFAULT_SEED } from '../../../src/core/frameworks/verl/sampler.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  datasetSize: number;
  trainBatchSize: number;
  n: number;
  ranks: number;
  epochs: number;
  seed: number | null;
  numWorkers: number;
  usePrefixGrouper: boolean;
  keepMinibatch: boolean;
  miniBatch: number;
}
interface Layout {
  config: Case;
  steps: { epoch: number; step: number; promptIds: number[]; seqlens: number[]; order: number[] }[];
  error: string | null;
}
const golden = fixture<{ commit: string; layouts: Layout[] }>('golden-verl-prefix-grouper.json');

function configOf(c: Case): LayoutConfig {
  return {
    sampler: 'verl',
    ranks: c.ranks,
    batch: (c.trainBatchSize * c.n) / c.ranks,
    k: c.n,
    batchesPerEpoch: 1,
    epochs: c.epochs,
    datasetSize: c.datasetSize,
    seed: c.seed ?? TORCH_DEFAULT_SEED,
    stepsPerGeneration: 1,
    numIterations: 1,
    gradientAccumulationSteps: 1,
    numWorkers: 0,
    prefetchFactor: 2,
    acceleratePrepare: 0,
    balanceBatch: true,
    ppoMiniBatchSize: c.keepMinibatch ? c.miniBatch : 0,
    ppoMicroBatchSizePerGpu: 0,
    dataloaderNumWorkers: c.numWorkers,
    usePrefixGrouper: c.usePrefixGrouper,
    keepMinibatch: c.keepMinibatch,
  };
}

test('the fixture is verl b178a3c, and covers both branches and their errors', () => {
  assert.match(golden.commit, /^b178a3c/);
  assert.ok(golden.layouts.some((l) => l.config.usePrefixGrouper && !l.error));
  assert.ok(golden.layouts.some((l) => l.config.keepMinibatch && !l.config.usePrefixGrouper && !l.error));
  assert.ok(golden.layouts.some((l) => l.error?.startsWith('ValueError: PrefixGrouper')));
});

test("use_prefix_grouper and keep_minibatch: each step's dispatch order, the prompts per rank, and verl's errors verbatim", () => {
  for (const { config: c, steps, error } of golden.layouts) {
    const what = JSON.stringify(c);
    const config = configOf(c);
    const samples = c.trainBatchSize * c.n;
    if (c.keepMinibatch && !c.usePrefixGrouper && samples % c.miniBatch !== 0) {
      // verl's reorder index covers whole slices only: the batch loses its last samples.
      assert.equal(steps[0]!.order.length, samples - (samples % c.miniBatch), what);
      assert.match(validateConfig(config)?.message ?? '', /leaves the last 2 out of the batch/, what);
      continue;
    }
    if (error) {
      const err = validateConfig(config);
      assert.ok(err, `${what}: verl raises ${error}`);
      assert.ok(err.message.endsWith(`raises: ${error}`), `${what}: ${err.message}`);
      continue;
    }
    const layout = buildLayout(config);
    assert.equal(layout.steps.length, steps.length, what);
    layout.steps.forEach((ours, i) => {
      const theirs = steps[i]!;
      assert.deepEqual(ours.seqlens, theirs.seqlens, `${what} step ${i}: token counts`);
      assert.deepEqual(ours.order, theirs.order, `${what} step ${i}: dispatch order`);
      const generated = theirs.promptIds.flatMap((id) => Array<number>(c.n).fill(id));
      const per = samples / c.ranks;
      const ranks = Array.from({ length: c.ranks }, (_, r) => theirs.order.slice(r * per, (r + 1) * per).map((j) => generated[j]!));
      assert.deepEqual(ours.ranks, ranks, `${what} step ${i}: prompts per rank`);
      if (c.usePrefixGrouper) {
        // Every copy of a prompt on one rank.
        const home = new Map<number, number>();
        ours.ranks.forEach((ids, r) => {
          for (const id of ids) {
            assert.equal(home.get(id) ?? r, r, `${what}: prompt ${id} on two ranks`);
            home.set(id, r);
          }
        });
      }
    });
    const notes = layout.notes.map((f) => say(f)).join('\n');
    assert.match(notes, c.usePrefixGrouper ? /use_prefix_grouper/ : /keep_minibatch/, what);
  }
});

test('use_prefix_grouper and keep_minibatch are read as verl settings and refused for other samplers', () => {
  const read = (given: Record<string, string>) => layoutSettingsFrom((key) => given[key]).config;
  const config = read({ sampler: 'verl', 'use-prefix-grouper': 'true', 'keep-minibatch': 'true' });
  assert.equal(config.usePrefixGrouper, true);
  assert.equal(config.keepMinibatch, true);
  assert.throws(() => read({ sampler: 'trl', 'use-prefix-grouper': 'true' }), /use-prefix-grouper/);
  assert.throws(() => read({ sampler: 'verl', 'keep-minibatch': 'maybe' }), /keep-minibatch/);
});
