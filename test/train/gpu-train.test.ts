// `train --backend webgpu` (the fused step of src/gpu/fused-step.ts on each rank's own device,
// SwiftShader or lavapipe here) against `train --backend cpu`, its transfer counts, the settings it
// leaves to the per-op GPU path, and the auto backend. Fails in CI without an adapter; skips loudly locally.
import assert from 'node:assert/strict';
import { say } from '../../src/core/messages/index.ts';
import { test } from 'node:test';
import { testGpu } from '../helpers/gpu.ts';
import type { TrainConfig } from '../../src/train/config.ts';
import { runTrain } from './helpers.ts';

const gpu = await testGpu();
if (gpu.result.ok) gpu.result.device.destroy();

const tiny = { ranks: 2, batch: 8, k: 4, sampler: 'trl', steps: 4, checksumEvery: 2 } as const;

// Tolerances: the kernels sum in float32 where the CPU sums in float64 or in another order (see the
// op suite, test/ops/cases.ts), so float metrics agree to 1e-4 relative and the parameters to 1e-4
// after 4 Adam steps of lr 0.01 (an Adam step moves a parameter by about lr whatever the gradient's
// size, so a gradient near 0 that rounds differently could move it by up to ~lr; none does here);
// the sampled actions, and so the rewards, are the same (Philox is bit-identical on both; no
// probability is that close to a draw in these steps).
const CASES: { over: Partial<TrainConfig>; steps: number; rel: number; param: number }[] = [
  { over: { loss: 'dapo', advantage: 'trl-group', reward: 'dense' }, steps: 4, rel: 1e-4, param: 1e-4 },
  { over: { loss: 'grpo', advantage: 'flow-grpo', reward: 'sparse', epsilonHigh: 0.28 }, steps: 4, rel: 1e-4, param: 1e-4 },
  // The pairwise loss runs fused on one rank whose sampler keeps each prompt's k samples side by
  // side. Looser, and 2 steps only: on one rank with contiguous groups every row of a group has the
  // same stage-1 activations (stage 1 sees only the prompt), so the gradient of a stage-1 option
  // nobody in the group sampled is exactly 0, and each backend leaves its own rounding there (~1e-8
  // in float32). Adam's step is lr·m/(√v + ε) whatever the gradient's size, so that noise moves
  // those weights by up to about lr on one backend and not the other: the second step's loss and
  // gradient norm differ by ~1e-3 relative, and by the third step the samples can differ.
  {
    over: { loss: 'pairwise', advantage: 'trl-group', reward: 'dense', ranks: 1, sampler: 'contiguous' },
    steps: 2,
    rel: 2e-3,
    param: 0.02,
  },
];

for (const { over, steps, rel, param } of CASES) {
  test(`--backend webgpu (the fused step) matches --backend cpu over ${steps} steps: ${JSON.stringify(over)}`, {
    skip: gpu.skip,
  }, async () => {
    const cpu = await runTrain({ ...tiny, ...over, steps, backend: 'cpu' });
    const web = await runTrain({ ...tiny, ...over, steps, backend: 'webgpu' });
    assert.match(web.device, /swiftshader|lavapipe|llvmpipe|vulkan|gpu/i);
    assert.equal(web.plain.length, cpu.plain.length);
    web.plain.forEach((m, i) => {
      const c = cpu.plain[i]!;
      const close = (key: string, a: number, b: number) =>
        assert.ok(Math.abs(a - b) <= 1e-6 + rel * Math.abs(b), `step ${m.step} ${key}: ${a} vs ${b}`);
      assert.equal(m.rewardMean, c.rewardMean, `step ${m.step} rewardMean`);
      assert.equal(m.optimumFraction, c.optimumFraction);
      assert.equal(m.zeroStdFraction, c.zeroStdFraction);
      assert.equal(m.advantageStd, c.advantageStd);
      assert.equal(m.clipFraction, c.clipFraction);
      assert.equal(m.kl, c.kl);
      for (const key of ['gradNorm', 'rewardStd', 'loss'] as const) close(key, m[key], c[key]);
      for (const h of Object.keys(c.entropy) as (keyof typeof c.entropy)[]) close(`entropy ${h}`, m.entropy[h], c.entropy[h]);
      // The replica check ran on the device's parameters (read back every checksumEvery steps).
      assert.equal(m.checksum !== undefined, m.step % tiny.checksumEvery === 0, `step ${m.step} checksum`);
    });
    web.final.params.forEach((p, i) =>
      assert.ok(Math.abs(p - cpu.final.params[i]!) <= param, `param ${i}: ${p} vs ${cpu.final.params[i]}`),
    );
  });
}

test('--backend webgpu: at most 2 submissions and 2 readbacks per step (the two collectives), plus one per replica check', {
  skip: gpu.skip,
}, async () => {
  const steps = 6;
  const r = await runTrain({ ...tiny, ranks: 1, steps, checksumEvery: 3, backend: 'webgpu' });
  const t = r.transfers;
  assert.ok(t, 'the run reports its transfers');
  assert.equal(t.steps, steps);
  // Per step: the rollout (with the previous step's Adam) and the backward, each one submission
  // that maps one staging buffer; every 3 steps the parameters come back for the replica check.
  assert.equal(t.submissions, 2 * steps + steps / 3);
  assert.equal(t.readbacks, 2 * steps + steps / 3);
  assert.equal(r.metrics.at(-1)!.transfers?.submissions, t.submissions);
});

test('what the fused step does not run trains on the GPU op by op, after a notice naming the setting', { skip: gpu.skip }, async () => {
  for (const [over, flag] of [
    [{ loss: 'pairwise' }, '--loss pairwise on more than one rank'],
    [{ loss: 'pairwise', ranks: 1, sampler: 'flow-grpo' }, "does not give each prompt's 4 samples side by side"],
    [{ beta: 0.04 }, '--beta'],
    [{ dynamicSampling: 'fallback' }, '--dynamic-sampling'],
    [{ gradientAccumulationSteps: 2 }, 'micro-steps'],
  ] as const) {
    const notices: string[] = [];
    const r = await runTrain({ ...tiny, steps: 1, ...over, backend: 'webgpu' }, { onNotice: (n) => notices.push(say(n)) });
    assert.notEqual(r.device, 'cpu');
    assert.equal(r.transfers, undefined, `${flag}: not the fused step`);
    assert.match(notices.join('\n'), /fused WebGPU step does not run .*own GPU submission/);
    assert.ok(notices.join('\n').includes(flag), `${flag} in ${notices.join(' | ')}`);
  }
});

test('--backend auto uses WebGPU when every rank gets a device', { skip: gpu.skip }, async () => {
  const notices: string[] = [];
  const r = await runTrain({ ...tiny, steps: 1, backend: 'auto' }, { onNotice: (n) => notices.push(say(n)) });
  assert.notEqual(r.device, 'cpu');
  assert.deepEqual(notices, []);
});
