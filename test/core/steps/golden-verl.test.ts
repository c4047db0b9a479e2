// verl's loss aggregation against its own agg_loss, exec'd from the verl checkout at b178a3c by
// scripts/golden/verl_steps.py (test/fixtures/golden-steps-verl.json): for each case, W ranks hold
// one mini-batch of GA micro-batches with given lengths; the model's applied weight of every
// completion must equal verl's per-token gradient ÷ W, for all four loss_agg_modes on both worker paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildLayout } from '../../../src/core/samplers/index.ts';
import { buildSteps } from '../../../src/core/steps/index.ts';

interface VerlCase {
  ranks: number;
  ga: number;
  microBatch: number;
  responseLength: number;
  lengths: number[][][];
  weights: Record<string, number[][][]>;
}
const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-steps-verl.json', import.meta.url), 'utf8')) as {
  commit: string;
  cases: VerlCase[];
};

test('the verl fixture names the commit its agg_loss was read from', () => {
  assert.equal(golden.commit, 'b178a3cd56f58b2d502255daba591e92833930a7');
  assert.ok(golden.cases.length >= 3);
});

for (const c of golden.cases) {
  for (const key of Object.keys(c.weights)) {
    const [path, mode] = key.split(':') as [string, string];
    test(`verl ${path} ${mode}: W=${c.ranks}, GA=${c.ga}, micro-batch ${c.microBatch}`, () => {
      const block = c.ga * c.microBatch;
      const layout = buildLayout({
        sampler: 'contiguous',
        ranks: c.ranks,
        batch: block,
        k: 1,
        batchesPerEpoch: 1,
        epochs: 1,
        datasetSize: c.ranks * block,
        seed: 0,
        stepsPerGeneration: 1,
        numIterations: 1,
        gradientAccumulationSteps: c.ga,
        numWorkers: 0,
        prefetchFactor: 2,
        acceleratePrepare: 0,
      });
      // Completion order is rank-major within the step, then micro-batch, then row: the fixture's nesting.
      const lengths = c.lengths.flat(2);
      const report = buildSteps(layout, {
        framework: path === 'legacy' ? 'verl-b178a3c' : 'verl-b178a3c-engine',
        loss: mode,
        lengths,
        maxCompletionLength: c.responseLength,
        microBatch: c.microBatch,
      });
      assert.equal(report.steps.length, 1);
      const rows = report.steps[0]!.rows;
      assert.equal(rows.length, lengths.length);
      for (const row of rows) {
        const micro = row.microStep;
        const expected = c.weights[key]![row.rank]![micro]![row.position]!;
        assert.equal(row.tokens, c.lengths[row.rank]![micro]![row.position]);
        const tolerance = 1e-9 * Math.abs(expected);
        assert.ok(
          Math.abs(row.weight - expected) <= tolerance,
          `rank ${row.rank} micro ${micro} row ${row.position}: ${row.weight} vs verl ${expected}`,
        );
      }
    });
  }
}
