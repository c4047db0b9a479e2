// The training step's metrics table (src/train/metrics.ts) is the one list of metrics: what a step
// returns (plain, micro-steps, dynamic sampling), the all-reduce payload's sums, the CSV's columns,
// report.html's charts, the dashboard's charts and legends and the progress line are all this
// table, so a metric added to it and missed by any of them (or computed by a step and missing from
// it) fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEVICE_SUMS } from '../../src/gpu/fused-step.ts';
import { METRIC_CHARTS, METRICS, type MetricRow, metricValue, progressParts, SUM_ROWS, sumOffset } from '../../src/train/metrics.ts';
import { renderReport } from '../../src/train/report.ts';
import type { StepRecord } from '../../src/train/run.ts';
import { CHARTS } from '../../src/ui/train/charts.ts';
import { CSV_COLUMNS, metricsCsv } from '../../src/ui/train/metrics-export.ts';
import { runTrain } from './helpers.ts';

const ROWS = METRICS as readonly MetricRow[];

/** Fields of a step record that are not metrics: the step, the micro-steps' facts, dynamic sampling's counts, run bookkeeping. */
const NOT_METRICS = new Set(['step', 'stepMs', 'layoutStep', 'checksum', 'transfers', 'dynamic']);
const MICRO_FACTS = new Set(['framework', 'loss', 'normaliser', 'microSteps', 'generations', 'passes']);

/** The metric keys a step record holds (`group.field` for a group's numbers), in the record's order. */
function keysOf(record: StepRecord): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (NOT_METRICS.has(key)) continue;
    if (value !== null && typeof value === 'object')
      for (const field of Object.keys(value)) {
        if (!(key === 'micro' && MICRO_FACTS.has(field))) keys.push(`${key}.${field}`);
      }
    else keys.push(key);
  }
  return keys;
}

const small = { ranks: 2, batch: 8, k: 4, steps: 2 } as const;

test('every step holds exactly the table’s metrics, in its order: plain, β > 0, micro-steps, dynamic sampling', async () => {
  const expect = (when: (m: MetricRow) => boolean) => ROWS.filter(when).map((m) => m.key);
  const runs = [
    { settings: small, micro: false, reference: false },
    { settings: { ...small, beta: 0.04, loss: 'grpo' as const }, micro: false, reference: true },
    { settings: { ...small, sampler: 'trl' as const, gradientAccumulationSteps: 2, numIterations: 2 }, micro: true, reference: false },
    { settings: { ...small, dynamicSampling: 'pad' as const, reward: 'sparse' as const }, micro: false, reference: false },
  ];
  for (const run of runs) {
    const { metrics } = await runTrain(run.settings, { helpers: 0 });
    for (const record of metrics) {
      assert.deepEqual(
        keysOf(record),
        expect((m) => m.when !== 'micro' || run.micro),
        JSON.stringify(run.settings),
      );
      for (const m of ROWS) {
        const v = metricValue(record, m);
        if (m.when === 'micro' && !run.micro) assert.equal(v, null);
        else if (m.when === 'reference' && !run.reference) assert.equal(v, null, m.key);
        else assert.equal(typeof v, 'number', `${m.key} in ${JSON.stringify(run.settings)}`);
      }
    }
  }
});

test('the all-reduce payload’s sums are the table’s summed rows, each at its own offset; the WebGPU step’s sums are among them', () => {
  assert.deepEqual(
    SUM_ROWS.map((m) => m.key),
    ROWS.filter((m) => m.reduce.from === 'sum').map((m) => m.key),
  );
  SUM_ROWS.forEach((m, i) => assert.equal(sumOffset(m.key), i));
  for (const key of DEVICE_SUMS) assert.ok(sumOffset(key) >= 0, `${key} is not a summed metric of the table`);
});

/** A record with every metric of the table measured (a micro-step run with a reference policy). */
function fullRecord(step: number): StepRecord {
  return {
    step,
    rewardMean: 0.5 + step / 8,
    rewardStd: 0.25,
    optimumFraction: 0.75,
    zeroStdFraction: 0.125,
    loss: 1e-9,
    kl: 0.003,
    entropy: { tier: 1.1, insertion: 1.2, topK: 1 / 3, knob3: 0.7 },
    clipFraction: 0.0625,
    gradNorm: 0.5,
    advantageStd: 0.9,
    micro: {
      framework: 'trl-1.13.0',
      loss: 'dapo',
      normaliser: ['Σ tokens'],
      microSteps: 2,
      generations: 1,
      passes: [0, 1],
      offPolicyFraction: 0.5,
      ratioDeviation: 0.01,
    },
    stepMs: 12.5,
    layoutStep: step - 1,
  };
}

test('the CSV has one column per metric of the table, named by it, each cell the record’s value', () => {
  const records = [fullRecord(1), fullRecord(2)];
  const rows = metricsCsv(records).trimEnd().split('\n');
  const header = rows[0]!.split(',');
  assert.deepEqual(header, ['step', ...ROWS.map((m) => m.csv), 'stepMs', 'layoutStep', 'dynamicResamples', 'dynamicShortage']);
  assert.equal(new Set(header).size, header.length, 'CSV columns are unique');
  assert.deepEqual(
    header,
    CSV_COLUMNS.map(([name]) => name),
  );
  rows.slice(1).forEach((row, i) => {
    const cells = row.split(',');
    for (const m of ROWS) assert.equal(Number(cells[header.indexOf(m.csv)]), metricValue(records[i]!, m), m.key);
  });
});

test('the dashboard draws every metric of the table in its chart, with its label and colour, and nothing else', () => {
  assert.deepEqual(
    CHARTS.map((c) => c.id),
    METRIC_CHARTS.map((c) => c.id),
  );
  const drawn = CHARTS.flatMap((c) => c.series.map(([label, stroke]) => `${c.id}/${label}/${stroke}`));
  assert.deepEqual(
    drawn,
    METRIC_CHARTS.flatMap((c) => ROWS.filter((m) => m.chart === c.id).map((m) => `${c.id}/${m.label}/${m.stroke}`)),
  );
  const record = fullRecord(1);
  for (const c of CHARTS)
    c.series.forEach(([label, , read]) => {
      const m = ROWS.find((x) => x.chart === c.id && x.label === label)!;
      assert.equal(read(record), (m.scale ?? 1) * metricValue(record, m)!);
    });
});

test('report.html draws every metric of the table, each chart titled as the table says', () => {
  const html = renderReport({
    config: { sampler: 'trl', advantage: 'trl-group', loss: 'dapo', gradientAccumulationSteps: 2, numIterations: 2 } as never,
    metrics: [fullRecord(1), fullRecord(2)],
    bands: [],
    summary: 'a run',
    randomFraction: 0.736,
    uplot: { js: '', css: '' },
  });
  const charts = JSON.parse(html.match(/const CHARTS = (.*);\n/)![1]!) as { id: string; title: string; series: { label: string }[] }[];
  assert.deepEqual(
    charts.map((c) => [c.id, c.title, c.series.map((s) => s.label)]),
    METRIC_CHARTS.map((c) => [c.id, c.title, ROWS.filter((m) => m.chart === c.id).map((m) => m.label)]),
  );
  for (const c of charts) assert.match(html, new RegExp(`<div id="c-${c.id}"></div>`));
});

test('the progress line shows the table’s progress parts: the clip fraction only where micro-steps can move it', () => {
  const plain = { ...fullRecord(1), micro: undefined, loss: 0 };
  assert.deepEqual(progressParts(plain), ['reward 0.6250', '75.0% of optimum', 'loss 0.0000']);
  assert.deepEqual(progressParts(fullRecord(1)), ['reward 0.6250', '75.0% of optimum', 'loss 1.0e-9', 'clip 6.3%']);
});
