// TRL async GRPO's optimizer steps and token weights against its own code (scripts/golden/trl_async_steps.py →
// golden-trl-async-steps.json): TokenBudgetBatcher / FixedCountBatcher, DataCollatorForRollout and compute_loss by
// autograd, from the trl 1.13.0 wheel. Per optimizer step: the samples pulled for it, each rank's micro-batches, their
// padding, the samples dropped for exceeding token_budget, and each completion's weight (1e-12 relative).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { home } from '../../../src/core/frameworks/trl-async/index.ts';
import { homeStepWeights } from '../../../src/core/frameworks/one-step.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import { trainerFindings } from '../../../src/core/frameworks/trainer.ts';
import type { FrameworkSettings } from '../../../src/core/frameworks/types.ts';

interface Row {
  samples: number[];
  weights: number[];
}
interface Case {
  numProcesses: number;
  gradientAccumulationSteps: number;
  numGenerations: number;
  perDeviceTrainBatchSize: number;
  tokenBudget: number;
  prompts: number[];
  completions: number[];
  steps: { from: number; to: number; microBatches: { width: number; globalNTokens: number; rows: Row[] }[] }[];
  dropped: number[];
}
const fixture: { version: string; cases: Case[] } = JSON.parse(
  readFileSync(new URL('../../fixtures/golden-trl-async-steps.json', import.meta.url), 'utf8'),
);
const trainer = home.trainer!;
const TOL = 1e-12;

/** The case's settings, with an epoch target no stream reaches: every full optimizer step of the stream is laid out. */
function settingsOf(c: Case): FrameworkSettings {
  return {
    ...defaultSettings(home.keys),
    'num-processes': c.numProcesses,
    'gradient-accumulation-steps': c.gradientAccumulationSteps,
    'num-generations': c.numGenerations,
    'per-device-train-batch-size': c.perDeviceTrainBatchSize,
    'token-budget': c.tokenBudget,
    'dataset-size': 1_000_000,
    epochs: 1000,
  };
}

test('trl-async steps: fixture made by the trl 1.13.0 wheel, cases with and without drops and steps', () => {
  assert.equal(fixture.version, 'trl 1.13.0');
  assert.ok(fixture.cases.length >= 40);
  assert.ok(fixture.cases.some((c) => c.dropped.length > 0));
  assert.ok(fixture.cases.some((c) => c.tokenBudget <= 0 && c.steps.length > 0));
  assert.deepEqual(trainer.losses, ['micro-batch-token-mean']);
});

test('trl-async steps: each optimizer step’s samples, rows per rank, padding, drops and weights equal TRL’s', () => {
  for (const [i, c] of fixture.cases.entries()) {
    const settings = settingsOf(c);
    const seqlens = c.prompts.map((p, s) => p + c.completions[s]!);
    const layout = home.layout(settings, seqlens);
    assert.equal(layout.steps.length, c.steps.length, `case ${i}: optimizer steps`);
    c.steps.forEach((want, j) => {
      const step = layout.steps[j]!;
      const at = `case ${i} step ${j}`;
      assert.deepEqual(step.seqlens, seqlens.slice(want.from, want.to), `${at}: samples pulled`);
      const rows = (r: number) => want.microBatches.flatMap((mb) => mb.rows[r]!.samples.map((s) => s - want.from));
      assert.deepEqual(
        step.sources,
        Array.from({ length: c.numProcesses }, (_, r) => rows(r)),
        `${at}: sources`,
      );
      const completions = c.completions.slice(want.from, want.to);
      const [made] = trainer.optimizerSteps(step, completions, settings, 'micro-batch-token-mean', j);
      assert.equal(made!.index, j);
      const droppedHere = c.dropped.filter((s) => s >= want.from && s < want.to).map((s) => s - want.from);
      assert.deepEqual(
        (made!.dropped ?? []).map((d) => d.sample),
        droppedHere,
        `${at}: dropped`,
      );
      for (const d of made!.dropped ?? []) assert.ok(d.tokens > c.tokenBudget, `${at}: a dropped sample is longer than the budget`);
      for (let r = 0; r < c.numProcesses; r++) {
        const mine = made!.microBatches.filter((mb) => mb.rank === r);
        assert.equal(mine.length, c.gradientAccumulationSteps, `${at}: rank ${r} runs gradient_accumulation_steps micro-batches`);
        mine.forEach((mb, m) => {
          const golden = want.microBatches[m]!;
          const row = golden.rows[r]!;
          assert.deepEqual(
            mb.samples,
            row.samples.map((s) => s - want.from),
            `${at} rank ${r} mb ${m}: samples`,
          );
          const rowTokens = row.samples.reduce((a, s) => a + seqlens[s]!, 0);
          assert.equal(mb.padding, golden.width - rowTokens, `${at} rank ${r} mb ${m}: inter-rank padding`);
          assert.equal(
            mb.tokens,
            row.samples.reduce((a, s) => a + c.completions[s]!, 0),
            `${at} rank ${r} mb ${m}: tokens`,
          );
          assert.match(mb.normaliser, new RegExp(`global_n_tokens ${golden.globalNTokens} `));
          mb.weights.forEach((w, k) => {
            const x = row.weights[k]!;
            assert.ok(Math.abs(w - x) <= TOL * Math.abs(x), `${at} rank ${r} mb ${m} sample ${k}: ${w} vs ${x}`);
          });
        });
      }
    });
  }
});

test('trl-async steps: the epoch stop ends the run after the step by which ceil(epochs × dataset) groups trained', () => {
  // 4 prompts × 2 generations of 100 tokens, budget 250 on 1 rank: 2 samples a micro-batch, one group each; GA 1.
  const settings: FrameworkSettings = {
    ...defaultSettings(home.keys),
    'token-budget': 250,
    'num-generations': 2,
    'dataset-size': 4,
    epochs: 1.5,
  };
  const layout = home.layout(
    settings,
    Array.from({ length: 40 }, () => 100),
  );
  // ceil(1.5 × 4) = 6 groups: 6 optimizer steps; the dataset cycles (prompts 0 1 2 3 0 1).
  assert.equal(layout.steps.length, 6);
  assert.deepEqual(
    layout.steps.map((s) => s.prompts),
    [[0], [1], [2], [3], [0], [1]],
  );
  assert.deepEqual(
    layout.steps.map((s) => [s.epoch, s.step]),
    [
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 0],
      [1, 1],
    ],
  );
});

test('trl-async steps: findings say the drops, the packing spread and the varying step size, each of the run', () => {
  const c = fixture.cases.find((x) => x.dropped.length > 0 && x.steps.length >= 2 && x.tokenBudget > 0)!;
  const settings = settingsOf(c);
  const seqlens = c.prompts.map((p, s) => p + c.completions[s]!);
  const layout = home.layout(settings, seqlens);
  const completionTokens = layout.steps.map((_, j) => c.completions.slice(c.steps[j]!.from, c.steps[j]!.to));
  const steps = layout.steps.flatMap((s, j) => trainer.optimizerSteps(s, completionTokens[j]!, settings, 'micro-batch-token-mean', j));
  const findings = trainerFindings(trainer, {
    steps,
    completionTokens,
    stepOf: steps.map((_, j) => j),
    settings,
    loss: trainer.losses[0]!,
  });
  const drops = c.dropped.filter((s) => s < c.steps.at(-1)!.to).length;
  assert.match(findings[0]!, new RegExp(`^TokenBudgetBatcher dropped ${drops} samples? longer than token_budget=${c.tokenBudget}`));
  assert.ok(findings.some((f) => f.startsWith('Packing makes a token')));
  const sizes = c.steps.map((s) => s.microBatches.reduce((a, mb) => a + mb.rows.reduce((b, r) => b + r.samples.length, 0), 0));
  assert.equal(
    findings.some((f) => f.startsWith('With token_budget')),
    Math.min(...sizes) < Math.max(...sizes),
  );
});

test('trl-async steps: refusals in TRL’s words', () => {
  const none = defaultSettings(home.keys);
  assert.throws(
    () => home.layout(none),
    (e) => e instanceof ConfigError && /max-model-len/.test(e.message),
  );
  const c = fixture.cases[1]!;
  const settings = settingsOf(c);
  const layout = home.layout(
    settings,
    c.prompts.map((p, s) => p + c.completions[s]!),
  );
  assert.throws(() => trainer.optimizerSteps(layout.steps[0]!, c.completions, settings, 'token-mean', 0), ConfigError);
  assert.throws(
    () => home.layout({ ...none, 'max-model-len': 100, 'num-generations': 1 }, [50, 150]),
    (e) => e instanceof ConfigError && /above max_model_len 100/.test(e.message),
  );
});

test('trl-async steps: oneStep makes a batch one optimizer step on one rank: every token 1 / the batch’s completion tokens', () => {
  const lengths = [120, 30, 500, 64, 7, 300];
  const { weights, normaliser } = homeStepWeights(home, lengths, 2, null);
  const total = lengths.reduce((a, b) => a + b, 0);
  for (const w of weights) assert.ok(Math.abs(w - 1 / total) <= TOL / total, `${w} vs 1/${total}`);
  assert.match(normaliser!, new RegExp(`global_n_tokens ${total} / num_processes 1`));
});
