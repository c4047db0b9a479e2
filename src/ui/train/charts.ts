// The training dashboard's charts as data: what each plots, in which colours, and when a chart
// cannot move in a run (then the page says why in place of the curve). Chosen so that every chart
// of the default run shows something true: reward, % of the optimum, tied groups, the advantages'
// spread, the gradient norm and the entropy all move; the loss is ~0 by construction (on-policy, β = 0, a GRPO-family loss) and gets a
// sentence; KL needs a reference model (β > 0); the clip fraction needs
// several passes per generation (--num-iterations) or a generation longer than an accumulation window.
import { lossNearZeroByConstruction, offPolicyPossible, type TrainConfig } from '../../train/config.ts';
import type { StepRecord } from '../../train/run.ts';
import { MSG } from './messages.ts';

/** One chart: its title, series (label, colour) and how each series reads a step record. */
export interface ChartSpec {
  id: string;
  readonly title: string;
  series: [label: string, stroke: string, read: (r: StepRecord) => number | null][];
  /** Why this chart cannot move in a run of `c` (shown instead of it), or null. */
  silent?: (c: TrainConfig) => string | null;
  /** The y axis spans at least this (a fraction's 0–1, a percentage's 0–100), so a flat or empty curve keeps a true axis. */
  span?: [number, number];
  /** One sentence beside the chart in a run of `c` (null: the form's run not yet started), or null for none. */
  note?: (c: TrainConfig | null) => string | null;
}

export const CHARTS: ChartSpec[] = [
  {
    id: 'reward',
    get title() {
      return MSG.charts.reward;
    },
    series: [
      ['mean', '#2ca02c', (r) => r.rewardMean],
      ['std', '#98df8a', (r) => r.rewardStd],
    ],
  },
  {
    id: 'optimum',
    get title() {
      return MSG.charts.optimum;
    },
    series: [['% of optimum', '#1f77b4', (r) => 100 * r.optimumFraction]],
    span: [0, 100],
  },
  {
    id: 'zero-std',
    get title() {
      return MSG.charts.zeroStd;
    },
    series: [['zero-std', '#bcbd22', (r) => r.zeroStdFraction]],
    span: [0, 1],
  },
  {
    id: 'advantage',
    get title() {
      return MSG.charts.advantage;
    },
    // Older metrics files have no advantageStd: a gap, not a zero.
    series: [['advantage std', '#8c564b', (r) => r.advantageStd ?? null]],
  },
  {
    id: 'grad-norm',
    get title() {
      return MSG.charts.gradNorm;
    },
    series: [['grad norm', '#393b79', (r) => r.gradNorm]],
  },
  {
    id: 'entropy',
    get title() {
      return MSG.charts.entropy;
    },
    series: [
      ['tier', '#9467bd', (r) => r.entropy.tier],
      ['insertion', '#8c564b', (r) => r.entropy.insertion],
      ['top-K', '#e377c2', (r) => r.entropy.topK],
      ['active blocks', '#7f7f7f', (r) => r.entropy.knob3],
    ],
  },
  {
    id: 'loss',
    get title() {
      return MSG.charts.loss;
    },
    series: [['loss', '#d62728', (r) => r.loss]],
    note: (c) => (c === null || lossNearZeroByConstruction(c) ? MSG.charts.lossNote : null),
  },
  {
    id: 'kl',
    get title() {
      return MSG.charts.kl;
    },
    series: [['KL', '#17becf', (r) => r.kl]],
    silent: (c) => (c.beta === 0 ? MSG.charts.klOff : null),
  },
  {
    id: 'clip',
    get title() {
      return MSG.charts.clip;
    },
    series: [['clip', '#ff7f0e', (r) => r.clipFraction]],
    span: [0, 1],
    // One pass per generation, within one update (src/train/step.ts, or micro-steps on-policy): old = current policy.
    silent: (c) => (offPolicyPossible(c) ? null : MSG.charts.clipOff),
  },
];
