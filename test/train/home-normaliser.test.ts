// train --framework HOME: a framework home's loss normaliser applied to the controller's plain steps. The weight the
// trainer's loss gives each completion's tokens (−∂loss/∂logp ÷ advantage ÷ W, DDP's mean) must equal the weight the
// home's own trainer model gives them in `steps --framework HOME` (core/frameworks/<name>/trainer.ts, checked there
// against the framework's code) for the same global batch on the run's own rank count, where the home takes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ACTIONS_PER_CONFIG } from '../../src/core/env/controller.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { TRAINED_HOMES } from '../../src/core/frameworks/index.ts';
import { frameworkSettingsFrom } from '../../src/core/frameworks/reading.ts';
import { cpuBackend } from '../../src/ops/backend.ts';
import { frameworkLosses, HOME_FRAMEWORKS, type TrainConfig, usesMicroSteps } from '../../src/train/config.ts';
import { microBatchLoss } from '../../src/train/micro-steps.ts';
import { trainConfigFrom } from '../../src/train/settings.ts';
import { plainPerToken } from '../../src/train/step.ts';
import { runTrain } from './helpers.ts';

const T = ACTIONS_PER_CONFIG;

/** Each completion's per-token weight in `steps --framework NAME` with the home's one-step flags on `ranks` ranks (null: refused). */
function stepsWeights(name: string, loss: string, ranks: number, samples: number, k: number): number[] | null {
  const home = TRAINED_HOMES.find((h) => h.name === name)!;
  const flags = { ...home.oneStep({ prompts: samples / k, k, samples, maxLength: T }), ranks: String(ranks) };
  const lengths = new Array<number>(samples).fill(T);
  try {
    const { settings } = frameworkSettingsFrom(home, flags, () => {
      throw new Error('no config file');
    });
    const step = home.layout(settings, lengths).steps[0]!;
    const steps = home.trainer!.optimizerSteps(step, lengths, settings, loss, 0);
    if (steps.length !== 1) return null;
    const weights = new Array<number>(samples).fill(Number.NaN);
    for (const mb of steps[0]!.microBatches) mb.samples.forEach((s, i) => (weights[s] = mb.weights[i]!));
    return weights;
  } catch (err) {
    if (err instanceof ConfigError) return null;
    throw err;
  }
}

test('every home train takes: the weight its plain step applies equals its steps model’s, on one rank and on the run’s two', async () => {
  const ranks = 2;
  const k = 4;
  const batch = 8;
  const samples = ranks * batch;
  let checkedOnTwo = 0;
  const refused: string[] = [];
  assert.ok(HOME_FRAMEWORKS.length >= 10, HOME_FRAMEWORKS.join());
  for (const framework of HOME_FRAMEWORKS) {
    for (const loss of frameworkLosses(framework)) {
      const given = { framework, loss, ranks: String(ranks), batch: String(batch), k: String(k) } as Record<string, string>;
      let c: TrainConfig;
      try {
        c = trainConfigFrom((key) => given[key]);
      } catch (err) {
        // A home that refuses the batch says so in its own words (SkyRL's seq_mean_token_sum_norm wants max_seq_len set).
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, new RegExp(`--framework ${framework} does not take a step of ${samples} completions`));
        refused.push(`${framework} ${loss}`);
        continue;
      }
      assert.equal(usesMicroSteps(c), false, `${framework} runs plain steps`);
      const perToken = plainPerToken(c, samples)!;
      const advantages = Float32Array.from({ length: batch }, (_, r) => 0.25 + r / 8);
      const logp = Float32Array.from({ length: batch * T }, (_, i) => -0.5 - i / 100);
      const { gradLogp } = await microBatchLoss(cpuBackend, c, perToken, logp, logp, null, advantages);
      const applied = -gradLogp[0]! / advantages[0]! / ranks;
      for (let i = 0; i < gradLogp.length; i++) {
        const a = -gradLogp[i]! / advantages[Math.floor(i / T)]! / ranks;
        assert.ok(Math.abs(a - applied) <= 1e-6 * applied, `${framework} ${loss}: every token weighs the same`);
      }
      for (const on of [1, ranks]) {
        const model = stepsWeights(framework, loss, on, samples, k);
        if (model === null) {
          assert.notEqual(on, 1, `${framework} ${loss} takes the batch on one rank`);
          continue;
        }
        if (on === ranks) checkedOnTwo++;
        for (const w of model) {
          assert.ok(Math.abs(applied - w) <= 1e-6 * w, `${framework} ${loss} on ${on} rank(s): applied ${applied} vs the model's ${w}`);
        }
      }
    }
  }
  assert.ok(checkedOnTwo >= 10, `checked on two ranks: ${checkedOnTwo}`);
  assert.ok(refused.length <= 2, `refused: ${refused.join(', ')}`);
});

test('a home trains through the workers, its loss left out is its own default, and what it cannot take is refused in words', async () => {
  const get = (o: Record<string, string>) => (key: string) => o[key];
  const c = trainConfigFrom(get({ framework: 'nemo-rl', ranks: '2', batch: '8', k: '4', steps: '3' }));
  assert.equal(c.loss, 'true', "NeMo RL's token_level_loss true");
  const run = await runTrain(c);
  assert.equal(run.plain.length, 3);
  assert.ok(run.plain.every((m) => Number.isFinite(m.loss)));
  assert.throws(
    () => trainConfigFrom(get({ framework: 'openrlhf', loss: 'gspo' })),
    /--loss gspo is openrlhf's loss with one importance ratio per sequence/,
  );
  assert.throws(
    () => trainConfigFrom(get({ framework: 'nemo-rl', 'gradient-accumulation-steps': '2' })),
    /--gradient-accumulation-steps does not go with --framework nemo-rl/,
  );
});
