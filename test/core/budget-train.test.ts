// The training budget (src/core/budget.ts, trainStepEstimate) is estimated from the code as it runs
// now: at two sizes, a measured first step (the run's slowest, the one the estimate is for) and the
// estimate are within 4× of each other. It once used a stale per-sample cost at dModel 2048, hundreds
// of times too high, and refused steps that take a second.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trainStepEstimate } from '../../src/core/budget.ts';
import { DEFAULT_TRAIN } from '../../src/train/config.ts';
import { train } from '../../src/train/run.ts';

const sizes = [
  { dims: { dModel: 32, hidden: 32 }, batch: 4096, k: 8 },
  { dims: { dModel: 2048, hidden: 256 }, batch: 256, k: 8 },
];

for (const { dims, batch, k } of sizes)
  test(`train's step estimate is within 4× of a measured first step: dModel ${dims.dModel} × hidden ${dims.hidden}, ${batch} samples`, async () => {
    const config = { ...DEFAULT_TRAIN, dims, ranks: 1, batch, k, steps: 1 };
    const run = await train({ config, threads: 1, helpers: 0 });
    const measured = run.metrics[0]!.stepMs;
    const estimate = trainStepEstimate({ ranks: 1, batch, dModel: dims.dModel, hidden: dims.hidden, draws: 1, k }).ms;
    const ratio = estimate / measured;
    assert.ok(
      ratio <= 4 && ratio >= 1 / 4,
      `estimate ${estimate.toFixed(0)} ms, measured ${measured.toFixed(0)} ms (${ratio.toFixed(2)}×)`,
    );
  });
