// The dashboard's metrics as files: JSONL (one step record per line, the lines of the CLI's
// metrics.jsonl) and CSV (one row per step, the nested entropy and dynamic-sampling fields
// flattened into columns). Pure, so the unit tests check both in Node and Deno.
import type { StepRecord } from '../../train/run.ts';

/** One JSON object per line, as `grpo-sandbox train --out` writes metrics.jsonl. */
export function metricsJsonl(records: readonly StepRecord[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** The CSV's columns, each with how to read it from a record (null/undefined: an empty cell). */
export const CSV_COLUMNS: readonly [string, (r: StepRecord) => number | null | undefined][] = [
  ['step', (r) => r.step],
  ['rewardMean', (r) => r.rewardMean],
  ['rewardStd', (r) => r.rewardStd],
  ['optimumFraction', (r) => r.optimumFraction],
  ['loss', (r) => r.loss],
  ['kl', (r) => r.kl],
  ['entropyTier', (r) => r.entropy.tier],
  ['entropyInsertion', (r) => r.entropy.insertion],
  ['entropyTopK', (r) => r.entropy.topK],
  ['entropyKnob3', (r) => r.entropy.knob3],
  ['zeroStdFraction', (r) => r.zeroStdFraction],
  ['clipFraction', (r) => r.clipFraction],
  ['gradNorm', (r) => r.gradNorm],
  ['advantageStd', (r) => r.advantageStd],
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
