import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CPU_OPS } from '../../src/ops/backend.ts';
import { useSimd } from '../../src/ops/fast/simd.ts';
import { CpuControllerTrainer, DEFAULT_TRAIN_CONFIG, type ControllerTrainConfig } from '../../src/train/controllerStep.ts';

// The CPU training step on the fast backend (src/ops/fast) with its JS kernel (the one it runs
// where WebAssembly SIMD is missing) against the same step on the reference (src/ops/cpu).
// Tolerance: none. Every such op sums in the reference's order in float64 and evaluates the same
// expressions, so the steps must agree bit for bit: same samples, rewards, loss, gradient norm,
// parameters and Adam state after several steps. The SIMD kernel (float32 sums) is held to
// tolerances in test/ops/fast.test.ts and test/train/train.test.ts.
const config = (over: Partial<ControllerTrainConfig>): ControllerTrainConfig => ({ ...DEFAULT_TRAIN_CONFIG, prompts: 24, ...over });

for (const [what, over, steps] of [
  ['dapo, default dims', { lossType: 'dapo', seed: 5 }, 4],
  ['grpo with β and asymmetric ε', { lossType: 'grpo', seed: 6, loss: { ...DEFAULT_TRAIN_CONFIG.loss, beta: 0.04, epsilonHigh: 0.28 } }, 3],
  ['pairwise, k = 5, odd prompt count', { lossType: 'pairwise', seed: 7, groupSize: 5, prompts: 9 }, 3],
  ['dapo with the seed’s dModel 2048 (hidden 42: tile remainders)', { seed: 8, prompts: 3, dims: { dModel: 2048, hidden: 42 } }, 2],
] as [string, Partial<ControllerTrainConfig>, number][]) {
  test(`fast CPU step (JS kernel) equals the reference step bit for bit over ${steps} steps: ${what}`, (t) => {
    useSimd(false);
    t.after(() => useSimd(true));
    const cfg = config(over);
    const ref = new CpuControllerTrainer(cfg, undefined, CPU_OPS.cpu);
    const fast = new CpuControllerTrainer(cfg, undefined, CPU_OPS.fast);
    for (let i = 0; i < steps; i++) assert.deepEqual(fast.step(), ref.step(), `step ${i + 1} metrics`);
    assert.deepEqual(fast.params, ref.params, 'parameters');
    assert.deepEqual(fast.m, ref.m, 'Adam m');
    assert.deepEqual(fast.v, ref.v, 'Adam v');
    // The run moved: a step that changed nothing would also "agree".
    assert.notDeepEqual(fast.params, new CpuControllerTrainer(cfg).params, 'parameters changed');
  });
}

test('the default trainer runs the reference ops; apply(gradients()) is step()', () => {
  const cfg = config({ seed: 9 });
  assert.equal(new CpuControllerTrainer(cfg).ops, CPU_OPS.cpu);
  const a = new CpuControllerTrainer(cfg, undefined, CPU_OPS.fast);
  const b = new CpuControllerTrainer(cfg, undefined, CPU_OPS.fast);
  const m = a.step();
  const g = b.gradients();
  assert.deepEqual({ step: b.stepCount + 1, loss: g.loss, meanReward: g.meanReward, gradNorm: b.apply(g.grads).norm }, m);
  assert.deepEqual(b.params, a.params);
});
