// Training through the micro-step model (src/train/micro-steps.ts): on-policy micro-steps keep the
// ratio at 1, later passes clip; the weight the trainer's loss gives each completion's tokens is
// the weight `grpo-sandbox steps` models for the same settings (core/steps, checked there against
// real TRL runs); and rank-count invariance where the normaliser allows it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ACTIONS_PER_CONFIG } from '../../src/core/env/controller.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { buildSteps, FRAMEWORKS, type FrameworkName } from '../../src/core/steps/index.ts';
import { cpuBackend } from '../../src/ops/backend.ts';
import { DEFAULT_TRAIN, MICRO_FRAMEWORKS, type TrainConfig, usesMicroSteps } from '../../src/train/config.ts';
import { microBatchLoss, microPlanCovering, normaliserOf } from '../../src/train/micro-steps.ts';
import { trainConfigFrom } from '../../src/train/settings.ts';
import { testGpu } from '../helpers/gpu.ts';
import { runTrain, type Metrics } from './helpers.ts';

const gpu = await testGpu();
if (gpu.result.ok) gpu.result.device.destroy();

const small = { ranks: 2, batch: 8, k: 4, sampler: 'trl', steps: 4 } as const;

test('with the defaults every step is on-policy: ratio 1, nothing clipped, no micro-steps', async () => {
  const r = await runTrain(small);
  assert.ok(r.plain.every((m) => m.clipFraction === 0 && m.micro === undefined));
});

test('accumulating on-policy micro-steps keeps the ratio at 1 and names the normaliser of every step', async () => {
  const r = await runTrain({ ...small, gradientAccumulationSteps: 2 });
  for (const m of r.plain) {
    assert.equal(m.clipFraction, 0);
    assert.equal(m.micro!.ratioDeviation, 0);
    assert.equal(m.micro!.offPolicyFraction, 0);
    assert.equal(m.micro!.microSteps, 2);
    // TRL's default steps_per_generation = GA: one generation per optimizer step, dapo over its 2 × 8 × 2 completions × 4 tokens, rescaled to the window.
    assert.equal(m.micro!.generations, 1);
    assert.deepEqual(m.micro!.normaliser, ['Σ tokens / (N_gen 128 / W 2 × GA 2 / spg 2)']);
  }
});

test('other samplers feed the trainer one batch after another: a window accumulates GA of their batches', async () => {
  const r = await runTrain({ ranks: 2, batch: 8, k: 4, sampler: 'flow-grpo', steps: 2, gradientAccumulationSteps: 2 });
  for (const m of r.plain) {
    assert.equal(m.micro!.microSteps, 2);
    assert.equal(m.micro!.generations, 2);
    assert.deepEqual(m.micro!.normaliser, ['Σ tokens / (N_gen 64 / W 2 × GA 2 / spg 1)']);
  }
});

test('--num-iterations 2: the second pass trains on the older policy, its ratio leaves 1 and the clip fraction rises', async () => {
  const r = await runTrain({ ...small, numIterations: 2, lr: 0.05, steps: 6 });
  const passes = r.plain.map((m) => m.micro!.passes);
  assert.deepEqual(passes, [[0], [1], [0], [1], [0], [1]]);
  for (const m of r.plain.filter((x) => x.micro!.passes[0] === 0)) assert.equal(m.clipFraction, 0);
  const later = r.plain.filter((x) => x.micro!.passes[0] === 1);
  assert.ok(later.every((m) => m.micro!.offPolicyFraction === 1 && m.micro!.ratioDeviation > 0));
  assert.ok(
    later.some((m) => m.clipFraction > 0),
    `clip fractions ${later.map((m) => m.clipFraction)}`,
  );
});

test('a generation longer than the window (steps_per_generation 4, GA 2): the second window is off-policy', async () => {
  const r = await runTrain({ ...small, gradientAccumulationSteps: 2, stepsPerGeneration: 4, lr: 0.05 });
  assert.deepEqual(
    r.plain.map((m) => [m.micro!.generations, m.micro!.offPolicyFraction]),
    [
      [1, 0],
      [0, 1],
      [1, 0],
      [0, 1],
    ],
  );
});

// The trainer's loss, measured: with ratio 1 and β = 0 each token's d loss / d logp is −A × its
// weight, so −gradLogp / A ÷ W (DDP's mean) is the weight the update applies. It must equal the
// `weight` of buildSteps (the model `grpo-sandbox steps` prints) for the same layout and settings.
test('the weight the trainer applies to each completion equals the steps model’s, for every version train takes and every loss', async () => {
  const T = ACTIONS_PER_CONFIG;
  for (const framework of MICRO_FRAMEWORKS) {
    const spec = FRAMEWORKS[framework as FrameworkName]!;
    // Each version on a sampler whose layout it trains (TRL's on the trl sampler, verl's on verl's and flow_grpo's).
    const samplers = (['trl', 'verl', 'flow-grpo'] as const).filter((s) => spec.accepts(s));
    assert.ok(samplers.length > 0, framework);
    for (const [sampler, loss] of samplers.flatMap((s) => spec.losses.map((l) => [s, l] as const))) {
      // verl cuts each rank's 8 samples of a step into GA micro-batches, so its GA divides 8.
      const overs =
        sampler === 'trl'
          ? [{ gradientAccumulationSteps: 3, numIterations: 2 }, { gradientAccumulationSteps: 2, stepsPerGeneration: 3 }, {}]
          : [{}, { gradientAccumulationSteps: 2, numIterations: 2 }, { gradientAccumulationSteps: 4 }];
      for (const over of overs) {
        const c: TrainConfig = { ...DEFAULT_TRAIN, ...small, sampler, ...over, framework, loss };
        if (!usesMicroSteps(c)) continue;
        const mp = microPlanCovering(c, 5);
        const report = buildSteps(mp.layout, { framework, loss, lengths: [T], maxCompletionLength: T });
        let checked = 0;
        for (let w = 0; w < 5; w++) {
          const rows = report.steps[w]!.rows;
          for (const id of mp.windows[w]!) {
            for (let rank = 0; rank < c.ranks; rank++) {
              const n = mp.plan.microSteps[id]!.perRank[rank]!.length;
              const advantages = Float32Array.from({ length: n }, (_, r) => 0.25 + r / 8);
              const logp = Float32Array.from({ length: n * T }, (_, i) => -0.5 - i / 100);
              const norm = normaliserOf(mp, c, w, id, rank);
              const { gradLogp } = await microBatchLoss(cpuBackend, c, norm.perToken, logp, logp, null, advantages);
              for (let r = 0; r < n; r++) {
                const model = rows.find((x) => x.microStep === id && x.rank === rank && x.position === r)!;
                for (let t = 0; t < T; t++) {
                  const applied = -gradLogp[r * T + t]! / advantages[r]! / c.ranks;
                  assert.ok(
                    Math.abs(applied - model.weight) <= 1e-6 * model.weight,
                    `${framework} ${loss} ${JSON.stringify(over)} step ${w} micro-step ${id} rank ${rank} row ${r}: ${applied} vs ${model.weight}`,
                  );
                  checked++;
                }
              }
            }
          }
        }
        assert.ok(checked > 0);
      }
    }
  }
});

// TRL's normalisers scale with the rank count exactly as DDP's mean undoes it (per micro-batch: B per
// rank; dapo: N_gen / W), and with steps_per_generation 1 a micro-step holds the same samples on 1
// rank × 16 as on 2 ranks × 8: the runs agree within the float32 reduction tolerance of the plain test.
test('2 ranks equal 1 rank with the same global batch under accumulation and two passes', async () => {
  const two = { ...small, gradientAccumulationSteps: 2, stepsPerGeneration: 1, numIterations: 2, lr: 0.05, steps: 4 };
  const one = { ...two, ranks: 1, batch: 16 };
  const a = await runTrain(two);
  const b = await runTrain(one);
  const close = (x: number, y: number, what: string) =>
    assert.ok(Math.abs(x - y) <= 1e-4 * Math.max(1, Math.abs(x), Math.abs(y)), `${what}: ${x} vs ${y}`);
  a.plain.forEach((m: Metrics, i) => {
    const n = b.plain[i]!;
    for (const key of ['rewardMean', 'optimumFraction', 'loss', 'gradNorm', 'clipFraction'] as const)
      close(m[key], n[key], `step ${m.step} ${key}`);
  });
});

test('resuming at a generation boundary continues the accumulated run exactly', async () => {
  const config = { ...small, gradientAccumulationSteps: 2, steps: 4 };
  const whole = await runTrain(config);
  let done = 0;
  const first = await runTrain(config, { shouldStop: () => done >= 2, onStep: () => done++, stepsPerCall: 1 });
  assert.equal(first.final.step, 2);
  const rest = await runTrain(config, { resume: first.final });
  assert.deepEqual([...first.plain, ...rest.plain], whole.plain);
  assert.deepEqual(rest.final.params, whole.final.params);
});

test('settings the micro-steps cannot train are one-line errors naming the flag', () => {
  const get = (o: Record<string, string>) => (k: string) => o[k];
  assert.throws(
    () => trainConfigFrom(get({ 'num-iterations': '2', loss: 'pairwise' })),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /--num-iterations needs a per-token GRPO loss/);
      return true;
    },
  );
  assert.throws(() => trainConfigFrom(get({ 'steps-per-generation': '2' })), /--steps-per-generation is TRL's/);
  assert.throws(() => trainConfigFrom(get({ 'gradient-accumulation-steps': '2', 'dynamic-sampling': 'naive' })), /do not combine/);
  // The diffusion trainers weigh samples over timesteps: not the controller's tokens.
  assert.throws(() => trainConfigFrom(get({ framework: 'flow_grpo-ac4c86e' })), /--framework must be one of trl-1\.13\.0/);
  assert.throws(
    () => trainConfigFrom(get({ framework: 'verl-b178a3c', loss: 'dapo' })),
    /--loss dapo is not verl-b178a3c's: it trains token-mean/,
  );
  // --loss left out: the version's own default.
  assert.equal(trainConfigFrom(get({ framework: 'verl-b178a3c', sampler: 'verl' })).loss, 'token-mean');
  assert.equal(trainConfigFrom(get({ framework: 'ms-swift-efd0a54' })).loss, 'grpo');
  assert.equal(trainConfigFrom(get({})).loss, 'dapo');
  const c = trainConfigFrom(get({ 'gradient-accumulation-steps': '4', 'num-iterations': '2', framework: 'ms-swift-efd0a54' }));
  assert.equal(c.gradientAccumulationSteps, 4);
  assert.equal(c.numIterations, 2);
  assert.equal(c.framework, 'ms-swift-efd0a54');
});

// The micro-steps run on the ops backend like a plain step: each rank's WebGPU device (SwiftShader
// here) against the CPU, with the tolerance of test/train/gpu-train.test.ts (float32 kernel sums).
test('--backend webgpu: accumulated, off-policy micro-steps match the CPU run', { skip: gpu.skip }, async () => {
  const tiny = { ...small, gradientAccumulationSteps: 2, numIterations: 2, lr: 0.05 } as const;
  const cpu = await runTrain({ ...tiny, backend: 'cpu' });
  const web = await runTrain({ ...tiny, backend: 'webgpu' });
  assert.notEqual(web.device, 'cpu');
  web.plain.forEach((m, i) => {
    const c = cpu.plain[i]!;
    assert.equal(m.rewardMean, c.rewardMean, `step ${m.step} rewardMean`);
    assert.equal(m.clipFraction, c.clipFraction, `step ${m.step} clipFraction`);
    assert.ok(Math.abs(m.gradNorm - c.gradNorm) <= 1e-4 * c.gradNorm, `step ${m.step} gradNorm: ${m.gradNorm} vs ${c.gradNorm}`);
  });
  assert.ok(cpu.plain.some((m) => m.clipFraction > 0));
});
