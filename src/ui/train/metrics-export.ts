// The dashboard's metrics as files: JSONL (one step record per line, the lines of the CLI's
// metrics.jsonl) and CSV (one row per step: a column per metric of src/train/metrics.ts, nested
// ones flattened, and the dynamic-sampling counts). Pure, so the unit tests check both in Node and Deno.
import { METRICS, type MetricRow, metricValue } from '../../train/metrics.ts';
import type { StepRecord } from '../../train/run.ts';

/** One JSON object per line, as `grpo-sandbox train --out` writes metrics.jsonl. */
export function metricsJsonl(records: readonly StepRecord[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** The CSV's columns, each with how to read it from a record (null/undefined: an empty cell): the step, every metric of the table, the run's columns. */
export const CSV_COLUMNS: readonly [string, (r: StepRecord) => number | null | undefined][] = [
  ['step', (r) => r.step],
  ...(METRICS as readonly MetricRow[]).map((m): [string, (r: StepRecord) => number | null] => [m.csv, (r) => metricValue(r, m)]),
  ['stepMs', (r) => r.stepMs],
  ['layoutStep', (r) => r.layoutStep],
  ['dynamicResamples', (r) => r.dynamic?.resamples],
  ['dynamicShortage', (r) => r.dynamic?.shortage],
];

/** A header row and one row per step; numbers as JavaScript prints them (round-trip exact). */
export function metricsCsv(records: readonly StepRecord[]): string {
  const rows = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const r of records) rows.push(CSV_COLUMNS.map(([, read]) => String(read(r) ?? '')).join(','));
  return `${rows.join('\n')}\n`;
}
