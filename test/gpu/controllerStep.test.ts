import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { GpuControllerTrainer } from '../../src/gpu/controllerStep.ts';
import { Kernels } from '../../src/gpu/kernels.ts';
import { CpuControllerTrainer, DEFAULT_TRAIN_CONFIG, type ControllerTrainConfig } from '../../src/train/controllerStep.ts';
import { SEED_DIMS } from '../../src/core/env/controller.ts';
import { deviceOf, testGpu } from '../helpers/gpu.ts';

// The fused training step (one encoder, one submit) against the CPU reference step, and the
// metrics ring. Small sizes: 16 prompts × 8 configurations, dModel 32.
const gpu = await testGpu();
let kernels: Kernels | undefined;
const device = () => deviceOf(gpu);
const getKernels = async () => (kernels ??= await Kernels.load(device()));
const config = (over: Partial<ControllerTrainConfig>): ControllerTrainConfig => ({ ...DEFAULT_TRAIN_CONFIG, prompts: 16, ...over });

for (const lossType of ['dapo', 'grpo', 'pairwise'] as const) {
  test(`fused step (${lossType}) follows the CPU reference step for 3 steps: same rewards, loss, grad norm and parameters`, {
    skip: gpu.skip,
  }, async () => {
    const cfg = config({ lossType, seed: 11 });
    const cpu = new CpuControllerTrainer(cfg);
    const trainer = await GpuControllerTrainer.create(device(), cfg, { kernels: await getKernels(), metricsEvery: 1 });
    try {
      const want = [cpu.step(), cpu.step(), cpu.step()];
      for (let i = 0; i < 3; i++) await trainer.step();
      const got = await trainer.takeMetrics();
      assert.deepEqual(
        got.map((m) => m.step),
        [1, 2, 3],
      );
      for (let i = 0; i < 3; i++) {
        // Rewards depend only on the sampled actions: equal rewards mean equal samples.
        assert.ok(
          Math.abs(got[i]!.meanReward - want[i]!.meanReward) < 1e-5,
          `step ${i + 1} mean reward ${got[i]!.meanReward} vs ${want[i]!.meanReward}`,
        );
        assert.ok(
          Math.abs(got[i]!.loss - want[i]!.loss) < 1e-5 + 2e-3 * Math.abs(want[i]!.loss),
          `step ${i + 1} loss ${got[i]!.loss} vs ${want[i]!.loss}`,
        );
        assert.ok(
          Math.abs(got[i]!.gradNorm - want[i]!.gradNorm) < 2e-3 * want[i]!.gradNorm,
          `step ${i + 1} grad norm ${got[i]!.gradNorm} vs ${want[i]!.gradNorm}`,
        );
      }
      const params = await trainer.readParams();
      let worst = 0;
      for (let i = 0; i < params.length; i++) worst = Math.max(worst, Math.abs(params[i]! - cpu.params[i]!));
      // Adam moves a parameter by ≈ lr per step whatever the gradient's size, so a near-zero
      // gradient that rounds differently can differ by up to a few lr; most agree to 1e-6.
      assert.ok(worst < 3 * cfg.adam.lr, `max |Δparam| ${worst}`);
    } finally {
      trainer.destroy();
    }
  });
}

test('at the seed-003 sizes (dModel 2048, hidden 256; 1 input × 5 configurations) the fused step matches the CPU step', {
  skip: gpu.skip,
}, async () => {
  const cfg = config({ dims: SEED_DIMS, prompts: 1, groupSize: 5, lossType: 'pairwise', seed: 5 });
  const cpu = new CpuControllerTrainer(cfg);
  const trainer = await GpuControllerTrainer.create(device(), cfg, { kernels: await getKernels(), metricsEvery: 1 });
  try {
    const want = cpu.step();
    await trainer.step();
    const [got] = await trainer.takeMetrics();
    assert.ok(Math.abs(got!.meanReward - want.meanReward) < 1e-5, `mean reward ${got!.meanReward} vs ${want.meanReward}`);
    assert.ok(Math.abs(got!.loss - want.loss) < 1e-4, `loss ${got!.loss} vs ${want.loss}`);
    assert.ok(Math.abs(got!.gradNorm - want.gradNorm) < 2e-3 * want.gradNorm, `grad norm ${got!.gradNorm} vs ${want.gradNorm}`);
  } finally {
    trainer.destroy();
  }
});

test('a step is one submit of 27 dispatches; metrics come back through the ring every N steps, in order', { skip: gpu.skip }, async () => {
  const trainer = await GpuControllerTrainer.create(device(), config({}), { kernels: await getKernels(), metricsEvery: 3, ringSize: 2 });
  try {
    assert.equal(trainer.submitsPerStep, 1);
    assert.equal(trainer.dispatchesPerStep, 27);
    const submit = device().queue.submit.bind(device().queue);
    let submits = 0;
    device().queue.submit = (buffers) => {
      submits++;
      submit(buffers);
    };
    try {
      for (let i = 0; i < 12; i++) await trainer.step();
    } finally {
      device().queue.submit = submit;
    }
    assert.equal(submits, 12);
    const metrics = await trainer.takeMetrics();
    assert.deepEqual(
      metrics.map((m) => m.step),
      [3, 6, 9, 12],
    );
    for (const m of metrics) assert.ok(Number.isFinite(m.loss) && m.meanReward > 0 && m.gradNorm > 0, JSON.stringify(m));
  } finally {
    trainer.destroy();
  }
});

test('training on the GPU raises the mean reward of the seed-003 controller (80 steps, pairwise loss)', { skip: gpu.skip }, async () => {
  const trainer = await GpuControllerTrainer.create(device(), config({ lossType: 'pairwise', seed: 3 }), {
    kernels: await getKernels(),
    metricsEvery: 10,
  });
  try {
    for (let i = 0; i < 80; i++) await trainer.step();
    const m = await trainer.takeMetrics();
    const first = m[0]!.meanReward,
      last = (m.at(-1)!.meanReward + m.at(-2)!.meanReward) / 2;
    assert.ok(last > first + 0.05, `mean reward ${first.toFixed(3)} → ${last.toFixed(3)}`);
  } finally {
    trainer.destroy();
  }
});

after(() => {
  kernels?.destroy();
  if (gpu.result.ok) gpu.result.device.destroy();
});
