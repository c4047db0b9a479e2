// The training dashboard's charts as data: what each plots, in which colours, and when a chart
// cannot move in a run (then the page says why in place of the curve). Chosen so that every chart
// of the default run shows something true: reward, % of the optimum, tied groups, the advantages'
// spread, the gradient norm and the entropy all move; the loss is ~0 by construction (on-policy, β = 0, a GRPO-family loss) and gets a
// sentence; KL needs a reference model (β > 0); the clip fraction needs
// several passes per generation (--num-iterations) or a generation longer than an accumulation window.
import { lossNearZeroByConstruction, offPolicyPossible, type TrainConfig } from '../../train/config.ts';
import { type ChartId, METRIC_CHARTS, METRICS, type MetricRow, metricValue, type SeriesLabel } from '../../train/metrics.ts';
import type { StepRecord } from '../../train/run.ts';
import { MSG } from './messages.ts';

/** One chart: its title, series (label, colour) and how each series reads a step record. */
export interface ChartSpec {
  id: ChartId;
  readonly title: string;
  series: [label: SeriesLabel, stroke: string, read: (r: StepRecord) => number | null][];
  /** Why this chart cannot move in a run of `c` (shown instead of it), or null. */
  silent?: (c: TrainConfig) => string | null;
  /** The y axis spans at least this (a fraction's 0–1, a percentage's 0–100), so a flat or empty curve keeps a true axis. */
  span?: readonly [number, number];
  /** One sentence beside the chart in a run of `c` (null: the form's run not yet started), or null for none. */
  note?: (c: TrainConfig | null) => string | null;
}

/** Each chart's title in the page's language. */
const TITLES: Record<ChartId, () => string> = {
  reward: () => MSG.charts.reward,
  optimum: () => MSG.charts.optimum,
  'zero-std': () => MSG.charts.zeroStd,
  advantage: () => MSG.charts.advantage,
  'grad-norm': () => MSG.charts.gradNorm,
  entropy: () => MSG.charts.entropy,
  loss: () => MSG.charts.loss,
  kl: () => MSG.charts.kl,
  clip: () => MSG.charts.clip,
};

/** What the page says instead of a chart, or beside it. */
const WORDS: Partial<Record<ChartId, Pick<ChartSpec, 'silent' | 'note'>>> = {
  loss: { note: (c) => (c === null || lossNearZeroByConstruction(c) ? MSG.charts.lossNote : null) },
  kl: { silent: (c) => (c.beta === 0 ? MSG.charts.klOff : null) },
  // One pass per generation, within one update (src/train/step.ts, or micro-steps on-policy): old = current policy.
  clip: { silent: (c) => (offPolicyPossible(c) ? null : MSG.charts.clipOff) },
};

/** A metric as its chart draws it (× its scale; a gap where the run did not measure it). */
const seriesOf = (m: MetricRow): ChartSpec['series'][number] => [
  m.label,
  m.stroke,
  (r) => {
    const v = metricValue(r, m);
    return v === null ? null : (m.scale ?? 1) * v;
  },
];

/** The charts of the metrics table (src/train/metrics.ts): each chart's series are the metrics drawn in it. */
export const CHARTS: ChartSpec[] = METRIC_CHARTS.map((chart) => ({
  id: chart.id,
  get title() {
    return TITLES[chart.id]();
  },
  series: (METRICS as readonly MetricRow[]).filter((m) => m.chart === chart.id).map(seriesOf),
  ...('span' in chart && { span: chart.span }),
  ...WORDS[chart.id],
}));
