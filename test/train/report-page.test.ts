// report.html as a reader sees it: it works on a phone (a viewport meta tag, charts as wide
// as the window leaves, tables that scroll inside themselves) and explains its flat lines as the
// dashboard does (src/ui/train/charts.ts): in an on-policy run with β = 0 (the demo, `npm run train`)
// the clip fraction, 0 at every step, is replaced by why; the KL, never measured, says why it is not
// charted; the loss, ~0 by construction, gets its sentence. A run that can move them draws them plainly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_TRAIN, type TrainConfig } from '../../src/train/config.ts';
import { renderReport } from '../../src/train/report.ts';
import type { StepRecord } from '../../src/train/run.ts';

const record = (step: number): StepRecord =>
  ({
    step,
    rewardMean: 0.5,
    rewardStd: 0.25,
    optimumFraction: 0.75,
    zeroStdFraction: 0.125,
    loss: 0,
    kl: null,
    entropy: { tier: 1.1, insertion: 1.2, topK: 0.3, knob3: 0.7 },
    clipFraction: 0,
    gradNorm: 0.5,
    advantageStd: 0.9,
    stepMs: 10,
    layoutStep: step - 1,
  }) as unknown as StepRecord;

const page = (config: TrainConfig) =>
  renderReport({ config, metrics: [record(1), record(2)], bands: [], summary: 'a run', randomFraction: 0.7, uplot: { js: '', css: '' } });

test('report.html on a phone: a viewport meta tag, charts no wider than the window, tables that scroll in place', () => {
  const html = page(DEFAULT_TRAIN);
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.match(html, /const W = Math\.min\(520, document\.documentElement\.clientWidth - \d+\)/);
  assert.match(html, /table\{[^}]*overflow-x:auto/);
});

test('report.html explains its flat lines as the dashboard does: clip and KL replaced by why, the loss with its sentence', () => {
  const html = page(DEFAULT_TRAIN);
  const charts = JSON.parse(html.match(/const CHARTS = (.*);\n/)![1]!) as { id: string }[];
  assert.ok(!charts.some((c) => c.id === 'clip'), 'no clip chart flat at 0 on a 0–100 axis');
  assert.match(html, /<p class="off">Clip fraction: nothing to clip, one optimisation pass per generation keeps the ratio at 1/);
  assert.match(html, /<p class="off">KL to the initial policy: not charted, no reference model \(β = 0\)/);
  assert.match(html, /<div id="c-loss"><\/div><p class="note">The loss is ~0 by construction/);
  // Two passes per generation and β > 0: the clip fraction and the loss can move; no sentence replaces them.
  const moving = page({ ...DEFAULT_TRAIN, numIterations: 2, beta: 0.04 });
  assert.doesNotMatch(moving, /nothing to clip|by construction|not charted/);
  assert.match(moving, /<div id="c-clip"><\/div>/);
});
