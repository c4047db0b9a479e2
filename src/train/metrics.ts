// A training step's metrics, named once. Each row of METRICS says where the value sits in a step
// record, how the ranks' parts become it, and how it is shown: its legend label, chart, colour and
// CSV column. Every step (the CPU step of step.ts, its micro-steps, dynamic sampling, the WebGPU
// step) turns its all-reduced sums into metrics through `stepMetrics`, and the progress line,
// metrics.jsonl, the dashboard's CSV, report.html and the dashboard's charts all read this table:
// a new metric is one row here plus the code that computes its part (docs/architecture.md).
import { HEAD_LIST, type HeadName } from '../core/env/controller.ts';

/** How a metric is made from the ranks' parts. */
export type Reduction =
  /** From the all-gathered batch (rewards, expected rewards, prompt ids, the scheme's advantages): computed by the reporting rank alone. */
  | { from: 'gathered' }
  /**
   * Each rank's sum rides on the gradients' all-reduce (its mean × ranks is the sum over ranks), then is
   * divided by the ranks, the trained rows or the trained tokens of the step.
   */
  | { from: 'sum'; per: 'rank' | 'row' | 'token' }
  /** From the all-reduced gradients (the same on every rank). */
  | { from: 'gradients' };

/** The charts the metrics are drawn in (the dashboard and report.html), in order. */
export const METRIC_CHARTS = [
  { id: 'reward', title: 'reward (mean, std)' },
  { id: 'optimum', title: '% of the optimum', span: [0, 100] },
  { id: 'zero-std', title: 'zero-std fraction (tied groups)', span: [0, 1] },
  { id: 'advantage', title: 'advantage spread (std over the batch)' },
  { id: 'grad-norm', title: 'gradient norm (before clipping)' },
  { id: 'entropy', title: 'entropy per head (nats)' },
  { id: 'loss', title: 'loss' },
  { id: 'kl', title: 'KL to the initial policy' },
  { id: 'clip', title: 'clip fraction', span: [0, 1] },
] as const satisfies readonly { id: string; title: string; span?: readonly [number, number] }[];

export type ChartId = (typeof METRIC_CHARTS)[number]['id'];

/** Every legend label a training chart shows (the metrics' and the axes'): the page's catalogues translate each one. */
export const SERIES_LABELS = [
  'step',
  'mean',
  'std',
  '% of optimum',
  'zero-std',
  'loss',
  'KL',
  'clip',
  'grad norm',
  'advantage std',
  'off-policy',
  '|ratio − 1|',
  'tier',
  'insertion',
  'top-K',
  'active blocks',
  'budget ms',
  'policy',
  'optimum',
] as const;
export type SeriesLabel = (typeof SERIES_LABELS)[number];

export interface MetricRow {
  /** Where it sits in a step record: a field, or a group's field (`entropy.tier`, `micro.ratioDeviation`). */
  key: string;
  reduce: Reduction;
  /** What it measures, with its unit. */
  unit: string;
  /** Its legend label (English; the dashboard translates it by this label: a new one is added to SERIES_LABELS). */
  label: SeriesLabel;
  chart: ChartId;
  stroke: string;
  /** Drawn × this (the optimum fraction as a percentage); 1 by default. */
  scale?: number;
  /** Its column in the dashboard's CSV. */
  csv: string;
  /**
   * Only in some runs: `reference` with a reference policy (β > 0; null otherwise), `micro` with micro-steps
   * (in the record's `micro` group; absent otherwise).
   */
  when?: 'reference' | 'micro';
  /** Its part of the progress line (null: not in this step's line), or absent: none. */
  progress?: (value: number, record: StepMetrics) => string | null;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** A loss as the progress line prints it: 4 decimals, or 2 significant digits when that would read 0.0000 (float rounding noise, say). */
const lossText = (loss: number) => (loss !== 0 && Math.abs(loss) < 5e-5 ? loss.toExponential(1) : loss.toFixed(4));

const entropy = (head: HeadName, label: SeriesLabel, stroke: string, csv: string) =>
  ({
    key: `entropy.${head}`,
    reduce: { from: 'sum', per: 'row' },
    unit: 'nats, mean over the trained rows',
    label,
    chart: 'entropy',
    stroke,
    csv,
  }) as const;

/** The step's metrics, in the order a step record lists them. */
export const METRICS = [
  {
    key: 'rewardMean',
    reduce: { from: 'gathered' },
    unit: 'reward, mean over the gathered batch',
    label: 'mean',
    chart: 'reward',
    stroke: '#2ca02c',
    csv: 'rewardMean',
    progress: (v) => `reward ${v.toFixed(4)}`,
  },
  {
    key: 'rewardStd',
    reduce: { from: 'gathered' },
    unit: 'reward, population std',
    label: 'std',
    chart: 'reward',
    stroke: '#98df8a',
    csv: 'rewardStd',
  },
  {
    key: 'optimumFraction',
    reduce: { from: 'gathered' },
    unit: 'Σ expected reward / Σ optimum of the prompts',
    label: '% of optimum',
    chart: 'optimum',
    stroke: '#1f77b4',
    scale: 100,
    csv: 'optimumFraction',
    progress: (v) => `${pct(v)} of optimum`,
  },
  {
    key: 'zeroStdFraction',
    reduce: { from: 'gathered' },
    unit: 'fraction of the groups whose rewards tie',
    label: 'zero-std',
    chart: 'zero-std',
    stroke: '#bcbd22',
    csv: 'zeroStdFraction',
  },
  {
    key: 'loss',
    reduce: { from: 'sum', per: 'rank' },
    unit: 'loss, mean of the ranks’ losses',
    label: 'loss',
    chart: 'loss',
    stroke: '#d62728',
    csv: 'loss',
    progress: (v) => `loss ${lossText(v)}`,
  },
  {
    key: 'kl',
    reduce: { from: 'sum', per: 'token' },
    unit: 'nats per token to the reference policy (k3)',
    label: 'KL',
    chart: 'kl',
    stroke: '#17becf',
    csv: 'kl',
    when: 'reference',
  },
  entropy('tier', 'tier', '#9467bd', 'entropyTier'),
  entropy('insertion', 'insertion', '#8c564b', 'entropyInsertion'),
  entropy('topK', 'top-K', '#e377c2', 'entropyTopK'),
  entropy('knob3', 'active blocks', '#7f7f7f', 'entropyKnob3'),
  {
    key: 'clipFraction',
    reduce: { from: 'sum', per: 'token' },
    unit: 'fraction of the trained tokens whose ratio was clipped',
    label: 'clip',
    chart: 'clip',
    stroke: '#ff7f0e',
    csv: 'clipFraction',
    // Only where it can move: a step made of micro-steps (with one pass on-policy the ratio is 1).
    progress: (v, r) => (r.micro ? `clip ${pct(v)}` : null),
  },
  {
    key: 'gradNorm',
    reduce: { from: 'gradients' },
    unit: 'L2 norm of the all-reduced gradients before clipping',
    label: 'grad norm',
    chart: 'grad-norm',
    stroke: '#393b79',
    csv: 'gradNorm',
  },
  {
    key: 'advantageStd',
    reduce: { from: 'gathered' },
    unit: 'population std of the gathered batch’s advantages',
    label: 'advantage std',
    chart: 'advantage',
    stroke: '#8c564b',
    csv: 'advantageStd',
  },
  {
    key: 'micro.offPolicyFraction',
    reduce: { from: 'sum', per: 'token' },
    unit: 'fraction of the trained tokens sampled by an older policy',
    label: 'off-policy',
    chart: 'clip',
    stroke: '#aec7e8',
    csv: 'offPolicyFraction',
    when: 'micro',
  },
  {
    key: 'micro.ratioDeviation',
    reduce: { from: 'sum', per: 'token' },
    unit: 'mean |ratio − 1| over the trained tokens',
    label: '|ratio − 1|',
    chart: 'clip',
    stroke: '#bcbd22',
    csv: 'ratioDeviation',
    when: 'micro',
  },
] as const satisfies readonly MetricRow[];

type Row = (typeof METRICS)[number];
export type MetricKey = Row['key'];
/** Each metric's source (an entropy row's key is the union of the heads' keys: mapped one key at a time). */
type SourceOf = { [R in Row as R['key']]: R['reduce']['from'] };
/** The metrics each rank sums for the all-reduce. */
export type SumKey = { [K in MetricKey]: SourceOf[K] extends 'sum' ? K : never }[MetricKey];
/** The metrics the reporting rank computes from the gathered batch. */
export type GatheredKey = { [K in MetricKey]: SourceOf[K] extends 'gathered' ? K : never }[MetricKey];

/** The rows each rank sums, in the payload's order after the gradients. */
export const SUM_ROWS = (METRICS as readonly MetricRow[]).filter((m) => m.reduce.from === 'sum') as readonly (MetricRow & {
  key: SumKey;
})[];

/** Floats the metric sums take after the gradients in the all-reduce's payload. */
export const SUM_FLOATS = SUM_ROWS.length;

/** Where sum `key` sits in the payload, counted from the end of the gradients. */
export function sumOffset(key: SumKey): number {
  return SUM_ROWS.findIndex((m) => m.key === key);
}

/** This rank's metric sums of a step, by name (a metric the step does not measure is 0). */
export type MetricSums = Record<SumKey, number>;

export function zeroSums(): MetricSums {
  return Object.fromEntries(SUM_ROWS.map((m) => [m.key, 0])) as MetricSums;
}

/** Writes this rank's sums into the payload after its `gradients` floats (float32, as the gradients). */
export function writeSums(payload: Float32Array, gradients: number, sums: MetricSums): void {
  SUM_ROWS.forEach((m, i) => {
    payload[gradients + i] = sums[m.key];
  });
}

/** The entropy sums of a step by head, as the sums' keys. */
export function entropySums(sums: MetricSums, byHead: Record<HeadName, number>): void {
  for (const h of HEAD_LIST) sums[`entropy.${h.name}`] += byHead[h.name];
}

/** What an optimizer step made of micro-steps reports besides its metrics (the same on every rank). */
export interface MicroStepFacts {
  /** The framework version whose micro-batching and normaliser were applied. */
  framework: string;
  /** Loss type whose normaliser was applied. */
  loss: string;
  /** The normaliser of each micro-step of rank 0, in words with its numbers, as `grpo-sandbox steps` prints it (distinct texts, in order). */
  normaliser: string[];
  /** Micro-steps accumulated into this update (the last window of an epoch may be short). */
  microSteps: number;
  /** Generation batches sampled during this step (0 when every micro-step reuses a held one). */
  generations: number;
  /** Passes (from 0) of the micro-steps, in order: pass > 0 trains on samples an older policy generated when updates came between. */
  passes: number[];
}

/** What an optimizer step made of micro-steps reports (the same on every rank). */
export interface MicroStepMetrics extends MicroStepFacts {
  /** Trained tokens whose sampling policy is older than the current one (ratio computed against the older policy). */
  offPolicyFraction: number;
  /** Mean |ratio − 1| over the trained tokens: 0 on-policy. */
  ratioDeviation: number;
}

/** One step's metrics (identical on every rank): METRICS' rows, by their keys. */
export interface StepMetrics {
  step: number;
  rewardMean: number;
  rewardStd: number;
  /** Σ expected reward of the sampled configurations / Σ optimal expected reward of their prompts. */
  optimumFraction: number;
  /** Groups (by prompt id) whose rewards all tie, so their advantages are 0. */
  zeroStdFraction: number;
  loss: number;
  /** Mean per-token KL to the reference policy (k3 estimator, as TRL logs it); null when beta = 0 (no reference). */
  kl: number | null;
  /** Mean entropy of each head over the batch, nats. */
  entropy: Record<HeadName, number>;
  /** Tokens whose ratio was clipped (0 on-policy: one optimisation pass per generation). */
  clipFraction: number;
  /** Gradient norm before clipping. */
  gradNorm: number;
  /** Standard deviation of the gathered batch's advantages (the chosen scheme's): how much signal the step has; 0 when every group ties. */
  advantageStd: number;
  /** With accumulation or several passes per generation (src/train/micro-steps.ts): what the optimizer step was made of. */
  micro?: MicroStepMetrics;
}

/** What the sums are divided by: the step's ranks, trained rows (every rank's) and trained tokens. */
export interface SumCounts {
  ranks: number;
  rows: number;
  tokens: number;
}

export interface StepMetricsInput {
  step: number;
  /** The sums' part of the all-reduced payload (the mean over ranks), in SUM_ROWS order. */
  reduced: ArrayLike<number>;
  counts: SumCounts;
  /** The gathered batch's metrics (NaN where the rank does not report). */
  gathered: Record<GatheredKey, number>;
  gradNorm: number;
  /** Whether the step had a reference policy (β > 0): else the reference's metrics are null. */
  reference: boolean;
  /** With micro-steps: what the step was made of (its metrics join them in the record's `micro`). */
  micro?: MicroStepFacts;
}

/** The one function from a step's all-reduced sums (and its gathered metrics and gradient norm) to its metrics, in METRICS' order. */
export function stepMetrics(s: StepMetricsInput): StepMetrics {
  const out: Record<string, unknown> = { step: s.step };
  const per = { rank: s.counts.ranks, row: s.counts.rows, token: s.counts.tokens };
  let at = 0;
  for (const m of METRICS as readonly MetricRow[]) {
    let value: number | null;
    if (m.reduce.from === 'sum') value = (s.reduced[at++]! * s.counts.ranks) / per[m.reduce.per];
    else if (m.reduce.from === 'gathered') value = s.gathered[m.key as GatheredKey];
    else value = s.gradNorm;
    if (m.when === 'reference' && !s.reference) value = null;
    if (m.when === 'micro' && !s.micro) continue;
    const [group, field] = m.key.split('.') as [string, string | undefined];
    if (field === undefined) out[group] = value;
    else ((out[group] ??= group === 'micro' ? { ...s.micro } : {}) as Record<string, unknown>)[field] = value;
  }
  return out as unknown as StepMetrics;
}

/** Metric `m` of a step record (null: not measured in that run, or a file from before the metric existed). */
export function metricValue(record: StepMetrics, m: MetricRow): number | null {
  const [group, field] = m.key.split('.') as [string, string | undefined];
  const top = (record as unknown as Record<string, unknown>)[group];
  const value = field === undefined ? top : (top as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'number' ? value : null;
}

/** The metrics' parts of a step's progress line (the rows with `progress`, where measured). */
export function progressParts(record: StepMetrics): string[] {
  return (METRICS as readonly MetricRow[]).flatMap((m) => {
    const v = m.progress ? metricValue(record, m) : null;
    const part = v === null ? null : m.progress!(v, record);
    return part === null ? [] : [part];
  });
}
