// The training charts as text: neighbouring tick labels never read alike (a loss of ±2e-9 was
// labelled "0, 0"), ordinary ranges read as plain decimals, and the loss chart's sentence holds where it is shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spanRange, tickLabels, WHOLE_STEP_INCRS } from '../../src/ui/train/chart-ticks.ts';
import { CHARTS } from '../../src/ui/train/charts.ts';

test('ticks of tiny, ordinary and large spacings: distinct labels, plain where possible', () => {
  assert.deepEqual(tickLabels([-2e-9, -1e-9, 0, 1e-9, 2e-9], 1e-9), ['-2e-9', '-1e-9', '0', '1e-9', '2e-9']);
  assert.deepEqual(tickLabels([0.9, 0.95, 1], 0.05), ['0.90', '0.95', '1.00']);
  assert.deepEqual(tickLabels([0, 0.25, 0.5, 0.75], 0.25), ['0', '0.25', '0.50', '0.75']);
  assert.deepEqual(tickLabels([10, 20, 30], 10), ['10', '20', '30']);
  for (const incr of [1e-12, 3e-9, 2.5e-5, 1e-4, 0.002, 0.5, 2, 5e4, 2e7]) {
    // Starts a float64 can step from in `incr` with room to spare (up to 10^9 spacings from 0).
    for (const start of [-7 * incr, 0, 1, 1000].filter((x) => Math.abs(x) / incr <= 1e9)) {
      const splits = Array.from({ length: 6 }, (_, i) => start + i * incr);
      const labels = tickLabels(splits, incr);
      assert.equal(new Set(labels).size, labels.length, `${incr} from ${start}: ${labels.join(', ')}`);
    }
  }
});

test('a fraction’s chart spans 0–1 with no data or a flat 0, and widens only for data outside it', () => {
  const zeroStd = spanRange(CHARTS.find((c) => c.id === 'zero-std')!.span!);
  assert.deepEqual(zeroStd(null, null, null), [0, 1], 'no data yet');
  assert.deepEqual(zeroStd(null, 0, 0), [0, 1], 'every step 0');
  assert.deepEqual(zeroStd(null, 0.25, 0.5), [0, 1]);
  assert.deepEqual(spanRange([0, 100])(null, -5, 120), [-5, 120], '% of the optimum beyond its span');
  assert.deepEqual(CHARTS.find((c) => c.id === 'optimum')!.span, [0, 100]);
  assert.deepEqual(CHARTS.find((c) => c.id === 'clip')!.span, [0, 1]);
});

test('the loss chart says its value is ~0 by construction only where it is: on-policy, β = 0, a GRPO-family loss', async () => {
  const { CHARTS } = await import('../../src/ui/train/charts.ts');
  const { DEFAULT_TRAIN } = await import('../../src/train/config.ts');
  const loss = CHARTS.find((c) => c.id === 'loss')!;
  assert.match(loss.note?.(DEFAULT_TRAIN) ?? '', /~0 by construction/);
  assert.match(loss.note?.(null) ?? '', /~0 by construction/, 'before a run: the form starts from the default');
  for (const change of [{ loss: 'pairwise' as const }, { beta: 0.04 }, { numIterations: 2 }, { advantage: 'verl' as const }])
    assert.equal(loss.note?.({ ...DEFAULT_TRAIN, ...change }), null, JSON.stringify(change));
});

test('the step axis ticks whole steps only: every spacing uPlot may choose is a whole number, from 1 up', () => {
  assert.equal(WHOLE_STEP_INCRS[0], 1);
  for (const [i, incr] of WHOLE_STEP_INCRS.entries()) {
    assert.ok(Number.isInteger(incr), `${incr}`);
    if (i > 0) assert.ok(incr > WHOLE_STEP_INCRS[i - 1]!, 'ascending');
  }
  assert.ok(WHOLE_STEP_INCRS.at(-1)! >= 1e6, 'a run of a million steps still gets a spacing');
});
