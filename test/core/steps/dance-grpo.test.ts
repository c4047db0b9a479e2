// DanceGRPO's optimizer steps (dance-grpo-22b85ef) against test/fixtures/golden-steps-dance-grpo.json, a TRANSCRIPTION of
// train_grpo_flux.py train_one_step's loop run with torch autograd (scripts/golden/dance_grpo_steps.py; no checkout here).
// Weights equal to 1e-12 relative.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { buildLayout, defaultConfig } from '../../../src/core/samplers/index.ts';
import { buildSteps } from '../../../src/core/steps/index.ts';

interface Case {
  ranks: number;
  k: number;
  batch: number;
  gradientAccumulationSteps: number;
  trainTimesteps: number;
  perRank: { windows: { positions: number[]; weights: number[] }[]; dropped: number[] }[];
}
const golden: { source: string; commit: string; cases: Case[] } = JSON.parse(
  readFileSync(new URL('../../fixtures/golden-steps-dance-grpo.json', import.meta.url), 'utf8'),
);
const STEPS = 2;

test('dance-grpo: the fixture is a transcription of DanceGRPO 22b85ef, and says so', () => {
  assert.match(golden.source, /^transcribed: /);
  assert.match(golden.commit, /^22b85ef/);
});

for (const [i, c] of golden.cases.entries()) {
  test(`dance-grpo case ${i}: ${c.ranks} rank(s), ${c.batch} samples per step, GA ${c.gradientAccumulationSteps}`, () => {
    const config: LayoutConfig = {
      ...defaultConfig,
      sampler: 'dance-grpo',
      ranks: c.ranks,
      k: c.k,
      batch: c.batch,
      datasetSize: STEPS * c.ranks * (c.batch / c.k),
      epochs: 1,
      gradientAccumulationSteps: c.gradientAccumulationSteps,
    };
    const report = buildSteps(buildLayout(config));
    assert.equal(report.framework.name, 'dance-grpo-22b85ef');
    const windows = c.perRank[0]!.windows.length;
    const dropped = c.perRank[0]!.dropped.length;
    // Per training step: the applied windows, then (when batch % GA > 0) one window never applied.
    assert.equal(report.steps.length, STEPS * (windows + (dropped ? 1 : 0)));
    let at = 0;
    for (let s = 0; s < STEPS; s++) {
      const offset = s * c.ranks * c.batch;
      const generatedBy = s * windows;
      for (let w = 0; w < windows + (dropped ? 1 : 0); w++) {
        const step = report.steps[at++]!;
        const applied = w < windows;
        assert.equal(step.applied, applied);
        for (let r = 0; r < c.ranks; r++) {
          const rows = step.rows.filter((row) => row.rank === r);
          const want = applied
            ? c.perRank[r]!.windows[w]!
            : { positions: c.perRank[r]!.dropped, weights: c.perRank[r]!.dropped.map(() => 0) };
          assert.deepEqual(
            rows.map((row) => row.completion - offset - r * c.batch),
            want.positions,
          );
          rows.forEach((row, j) => {
            const x = want.weights[j]!;
            assert.ok(Math.abs(row.weight - x) <= 1e-12 * Math.abs(x), `step ${s} window ${w} rank ${r}: ${row.weight} vs ${x}`);
            assert.equal(row.tokens, 1);
            assert.equal(row.policyVersion, generatedBy);
            if (applied) assert.equal(row.trainVersion, generatedBy + w);
          });
        }
      }
    }
  });
}

test('dance-grpo: later windows of a training step train off-policy, and a short last window is never applied', () => {
  const config: LayoutConfig = {
    ...defaultConfig,
    sampler: 'dance-grpo',
    ranks: 2,
    k: 3,
    batch: 6,
    datasetSize: 8,
    epochs: 1,
    gradientAccumulationSteps: 4,
  };
  const report = buildSteps(buildLayout(config));
  const text = report.findings.map((f) => JSON.stringify(f)).join(' ');
  assert.match(text, /never-applied/);
  const two: LayoutConfig = { ...config, batch: 6, gradientAccumulationSteps: 3 };
  const off = buildSteps(buildLayout(two));
  assert.ok(off.steps.some((s) => s.rows.some((row) => row.trainVersion > row.policyVersion)));
  assert.match(off.findings.map((f) => JSON.stringify(f)).join(' '), /off-policy/);
});
