// The guided tours, one per scenario of docs/scenarios.md (seed-000 … seed-004) and one per view
// that teaches on its own (steps, async, packing, advantages), as data: each
// step is the view it drives, what it sets there and what it points at. Its words (the tour's
// title, each step's caption, the panel's buttons) live in the catalogues (src/ui/i18n: `tours`,
// by tour id and step index). The engine that plays them is tour-panel.ts.

import { type Catalogue, M } from '../i18n/index.ts';

/** The views a step can drive: the explorer, or one of the views `?view=` routes to (views.ts). */
export type TourView = 'explorer' | 'schedule' | 'dynamic' | 'train' | 'steps' | 'async' | 'framework' | 'advantages';

export interface TourStep {
  view: TourView;
  /**
   * What the step sets, added to what the earlier steps on the same view set (a step on another
   * view starts from a fresh element): for the explorer its URL keys (preset, phase, prompt,
   * regroup, …), for the other views their attributes, named like the CLI flags. '' removes one.
   */
  set?: Record<string, string>;
  /**
   * What the step points at: a CSS selector matched in the view's element or any shadow root
   * inside it. The panel scrolls it into the room above itself and never covers it.
   */
  target: string;
  /**
   * The parts of the view the step's text speaks of ("P13 on rank 3", "rank 3 gets 14", "the key"), as
   * selectors like `target`'s: each must be on screen and not under the panel when the step is shown
   * (test/browser/tour-layout.ts checks them at a phone's, a tablet's and a laptop's size). The target is
   * always cited.
   */
  cites?: string[];
  /** Starts a run of <grpo-train> with the settings so far (the dashboard's Start button). */
  run?: boolean;
}

export interface Tour {
  id: string;
  steps: TourStep[];
}

export const TOURS: Record<string, Tour> = {
  'seed-000': {
    id: 'seed-000',
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-000', phase: 'sample' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'scatter' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { prompt: '13' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'accumulate' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'gather' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'regroup' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { workers: '0', prepare: '0' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        cites: ['.advantage-key:not(.off)'],
        set: { phase: 'advantages' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'slice' },
      },
    ],
  },
  'seed-001': {
    id: 'seed-001',
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-001', phase: 'sample' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'scatter' },
      },
      {
        view: 'schedule',
        target: 'svg.gantt',
        set: { preset: 'seed-001' },
      },
      {
        view: 'schedule',
        target: 'table',
        set: { schemes: 'serial-dp,per-rank-serial' },
      },
      {
        view: 'schedule',
        target: 'tr[data-scheme="per-rank-batched"]',
        set: { schemes: '', alpha: '0.5' },
      },
      {
        view: 'schedule',
        target: 'svg.gantt',
        set: { alpha: '', latency: 'controller' },
      },
    ],
  },
  'seed-002': {
    id: 'seed-002',
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-002', phase: 'gather' },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { preset: 'seed-002', step: '0' },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { step: '3' },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        cites: ['g.slice[data-rank="3"] text.words'],
        set: { step: '4' },
      },
      {
        view: 'dynamic',
        target: 'pre.run',
        set: { step: '5' },
      },
      {
        view: 'dynamic',
        target: 'pre.run.success',
        set: { policy: 'fallback' },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { policy: 'rebalance' },
      },
    ],
  },
  'seed-003': {
    id: 'seed-003',
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-003', phase: 'sample' },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'advantages' },
      },
      {
        view: 'train',
        target: '#chart-reward',
        set: { preset: 'seed-003', steps: '30', backend: 'cpu' },
        run: true,
      },
      {
        view: 'train',
        target: '#chart-optimum',
      },
      {
        view: 'train',
        target: 'table.policy',
      },
    ],
  },
  'seed-004': {
    id: 'seed-004',
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-004', phase: 'slice' },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { preset: 'seed-004', step: '0', 'device-fix': 'off' },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { step: '1' },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        cites: ['g.slice[data-rank="2"] text.words'],
        set: { step: '2' },
      },
      {
        view: 'dynamic',
        target: 'pre.run.failure',
        set: { step: '3' },
      },
      {
        view: 'dynamic',
        target: 'pre.run.success',
        set: { 'device-fix': 'on' },
      },
    ],
  },
  'trl-5619': {
    id: 'trl-5619',
    steps: [
      {
        view: 'steps',
        target: '.figure',
        set: { sampler: 'trl', ranks: '2', batch: '2', k: '2', dataset: '16', ga: '2', spg: '4', framework: 'trl-1.9.0', loss: 'dapo' },
      },
      {
        view: 'steps',
        target: '.figure',
        set: { spg: '2' },
      },
      {
        view: 'steps',
        target: '.figure',
        set: { spg: '4', framework: 'trl-1.13.0' },
      },
      {
        view: 'steps',
        target: '.figure',
        set: { spg: '2' },
      },
    ],
  },
  'async-grpo': {
    id: 'async-grpo',
    steps: [
      {
        view: 'async',
        target: '.figure',
        set: { framework: 'areal', 'max-staleness': '0' },
      },
      {
        view: 'async',
        target: '.figure',
        set: { 'max-staleness': '2' },
      },
      {
        view: 'async',
        target: 'ul.drops',
        set: { framework: 'trl-async', 'max-staleness': '1' },
      },
      {
        view: 'async',
        target: 'ul.drops',
        set: { framework: 'nemo-rl', 'max-staleness': '' },
      },
      {
        view: 'async',
        target: 'table.compare',
      },
    ],
  },
  packing: {
    id: 'packing',
    steps: [
      {
        view: 'framework',
        target: '.figure.layout',
        set: { framework: 'nemo-rl', ranks: '2', 'train-batch-size': '4', k: '4', 'sequence-packing': 'false' },
      },
      {
        view: 'framework',
        target: '.figure.packing',
        set: { prompt: '82' },
      },
      {
        view: 'framework',
        target: '.figure.packing',
        set: { 'sequence-packing': 'true' },
      },
      {
        view: 'framework',
        target: '.synced',
      },
      {
        // verl's use_dynamic_bsz on the steps view: the same bars, cut by tokens under ppo_max_token_len_per_gpu.
        view: 'steps',
        target: '.figure.packing',
        set: { sampler: 'verl', ranks: '2', batch: '8', k: '4', dataset: '16', micro: '4', maxtok: '2048', dynbsz: 'true', prompt: '15' },
        cites: ['.figure.packing g.rank-head[data-rank="1"]', '.figure.packing g.mb[data-rank="1"][data-micro="1"]'],
      },
    ],
  },
  advantages: {
    id: 'advantages',
    steps: [
      {
        view: 'advantages',
        target: '.figure',
        set: { schemes: 'verl' },
        cites: ['.figure g.cell[data-scheme="verl"][data-i="9"]'],
      },
      {
        view: 'advantages',
        target: '.figure',
        set: { schemes: 'verl,trl-group,flow-grpo' },
        cites: [
          '.figure g.cell[data-scheme="trl-group"][data-i="9"]',
          '.figure g.cell[data-scheme="flow-grpo"][data-i="9"]',
          '.figure g.cell[data-scheme="trl-group"][data-i="11"]',
          'ul.flagged li[data-scheme="trl-group"]',
        ],
      },
      {
        view: 'advantages',
        target: '.figure',
        set: { schemes: 'verl,verl-no-std,trl-async' },
        cites: [
          '.figure g.cell[data-scheme="verl-no-std"][data-i="9"]',
          '.figure g.cell[data-scheme="trl-async"][data-i="9"]',
          '.figure g.cell[data-scheme="verl-no-std"][data-i="0"]',
        ],
      },
      {
        view: 'advantages',
        target: '.figure',
        set: { rewards: '1, 1, 1, 1, 1, 0, 0, 0, 1, 0.999, 1, 0', schemes: 'trl-async,flow-grpo-prompt-std' },
        cites: ['.figure g.cell[data-scheme="trl-async"][data-i="9"]', '.figure g.cell[data-scheme="flow-grpo-prompt-std"][data-i="9"]'],
      },
      {
        view: 'advantages',
        target: '.figure',
        set: { rewards: '', schemes: 'nemo-rl-no-loo,nemo-rl,skyrl-rloo' },
        cites: [
          '.figure g.cell[data-scheme="nemo-rl"][data-i="9"]',
          '.figure g.cell[data-scheme="skyrl-rloo"][data-i="9"]',
          '.figure g.cell[data-scheme="nemo-rl"][data-i="4"]',
        ],
      },
      {
        view: 'advantages',
        target: '.figure',
        set: { schemes: 'verl,slime' },
        cites: [
          '.figure g.cell[data-scheme="slime"][data-i="9"]',
          '.figure g.cell[data-scheme="slime"][data-i="0"]',
          'ul.flagged li[data-scheme="slime"]',
        ],
      },
    ],
  },
};

export const tourNames = Object.keys(TOURS);

/** A tour's title in the page's language. */
export function tourTitle(id: string): string {
  return M().tours.titles[id] ?? id;
}

/** The caption of a tour's step `i` in the page's language. */
export function stepText(id: string, i: number): string {
  return M().tours.steps[id]?.[i] ?? '';
}

/** The panel's own words in the page's language. */
export function tourUi(): Catalogue['tours']['ui'] {
  return M().tours.ui;
}
