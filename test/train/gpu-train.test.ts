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
// One rank runs the whole step on the device (the rewards from the reward table, the advantages
// by schemeAdvantage, the gradient norm and Adam there too): the rewards are the CPU's bit for bit,
// the first step's metrics agree to 1e-4 relative, the later ones to 1e-3 and the parameters only to
// 0.01 (one lr). The advantages are
// summed in float32 on the device and in float64 (then rounded) on the CPU, so a group's advantages
// add up to a different ~1e-8 on each; a stage-1 option nobody in the step sampled gets a gradient
// that is only that noise (its probability times the group's advantage sum), and Adam's first step
// moves every parameter by about lr times the sign of its gradient, whatever its size; the next
// steps' entropies and gradient norms move with them. Measured over 4 steps: parameters at most
// 1.2e-3 apart (sparse rewards) and 3.7e-3 (dense, trl-group), metrics 2.3e-4 relative; on 2 ranks
// the host computes the advantages as the CPU path does, and the parameters agree to 1e-4.
// β > 0 runs fused too (the reference policy's forward pass and the KL sum on the device).
const CASES: { over: Partial<TrainConfig>; steps: number; rel: number; param: number }[] = [
  { over: { loss: 'dapo', advantage: 'trl-group', reward: 'dense' }, steps: 4, rel: 1e-4, param: 1e-4 },
  { over: { loss: 'grpo', advantage: 'flow-grpo', reward: 'sparse', epsilonHigh: 0.28 }, steps: 4, rel: 1e-4, param: 1e-4 },
  { over: { loss: 'grpo', advantage: 'trl-group', reward: 'dense', beta: 0.04 }, steps: 4, rel: 1e-4, param: 1e-4 },
  { over: { loss: 'dapo', advantage: 'flow-grpo', reward: 'sparse', ranks: 1 }, steps: 4, rel: 1e-3, param: 0.01 },
  { over: { loss: 'dr_grpo', advantage: 'verl', reward: 'dense', ranks: 1, batch: 16 }, steps: 4, rel: 1e-3, param: 0.01 },
  { over: { loss: 'bnpo', advantage: 'trl-batch', reward: 'sparse', ranks: 1 }, steps: 4, rel: 1e-3, param: 0.01 },
  { over: { loss: 'dapo', advantage: 'trl-group', reward: 'dense', ranks: 1 }, steps: 4, rel: 1e-3, param: 0.01 },
  { over: { loss: 'dapo', advantage: 'flow-grpo', reward: 'sparse', ranks: 1, beta: 0.04 }, steps: 4, rel: 1e-3, param: 0.01 },
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
    assert.ok(web.transfers, 'the fused step ran (not the per-op fallback)');
    assert.equal(web.plain.length, cpu.plain.length);
    web.plain.forEach((m, i) => {
      const c = cpu.plain[i]!;
      // The first step starts from equal parameters: 1e-4 whatever the case.
      const tol = m.step === 1 ? Math.min(rel, 1e-4) : rel;
      const close = (key: string, a: number, b: number) =>
        assert.ok(Math.abs(a - b) <= 1e-6 + tol * Math.abs(b), `step ${m.step} ${key}: ${a} vs ${b}`);
      assert.equal(m.rewardMean, c.rewardMean, `step ${m.step} rewardMean`);
      assert.equal(m.optimumFraction, c.optimumFraction);
      assert.equal(m.zeroStdFraction, c.zeroStdFraction);
      assert.equal(m.advantageStd, c.advantageStd);
      assert.equal(m.clipFraction, c.clipFraction);
      assert.equal(m.kl === null, c.kl === null, `step ${m.step} kl`);
      if (m.kl !== null && c.kl !== null) close('kl', m.kl, c.kl);
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

test('--backend webgpu on one rank: one submission per step and one readback per checksumEvery steps', { skip: gpu.skip }, async () => {
  const steps = 12;
  const N = 4;
  // Calls of N steps from the main thread, so every readback is a replica check's (also the metrics').
  const r = await runTrain({ ...tiny, ranks: 1, steps, checksumEvery: N, backend: 'webgpu' }, { stepsPerCall: N });
  const t = r.transfers;
  assert.ok(t, 'the run reports its transfers');
  assert.equal(t.steps, steps);
  assert.equal(t.submissions, steps);
  assert.equal(t.readbacks, steps / N);
  assert.equal(t.submissionsPerStep, 1);
  assert.equal(t.readbacksPerStep, 1 / N);
  r.plain.forEach((m) => assert.equal(m.checksum !== undefined, m.step % N === 0, `step ${m.step} checksum`));
  // The main thread's own call sizes end each call on a replica check, so the same counts.
  const auto = await runTrain({ ...tiny, ranks: 1, steps, checksumEvery: N, backend: 'webgpu' });
  assert.deepEqual([auto.transfers?.submissions, auto.transfers?.readbacks], [steps, steps / N]);
  // A call from the main thread ends with a readback of its steps' metrics: calls of 3 steps, checks every 4.
  const odd = await runTrain({ ...tiny, ranks: 1, steps, checksumEvery: N, backend: 'webgpu' }, { stepsPerCall: 3 });
  assert.equal(odd.transfers?.submissions, steps);
  // Readbacks after steps 3, 4, 6, 8, 9, 12.
  assert.equal(odd.transfers?.readbacks, 6);
  assert.deepEqual(
    odd.plain,
    r.plain.map((m) => ({ ...m, transfers: odd.plain[m.step - 1]!.transfers })),
  );
});

test('--backend webgpu on 2 ranks: 2 submissions and 2 readbacks per step (the collectives), plus one per replica check', {
  skip: gpu.skip,
}, async () => {
  const steps = 6;
  const r = await runTrain({ ...tiny, ranks: 2, steps, checksumEvery: 3, backend: 'webgpu' });
  const t = r.transfers;
  assert.ok(t, 'the run reports its transfers');
  // Per step: the rollout with the rewards (and the previous step's Adam), then the backward, each one
  // submission mapping the collective's payload; every 3 steps the parameters come back for the check.
  assert.equal(t.submissions, 2 * steps + steps / 3);
  assert.equal(t.readbacks, 2 * steps + steps / 3);
  assert.equal(r.metrics.at(-1)!.transfers?.submissions, t.submissions);
});

test('what the fused step does not run trains on the GPU op by op, after a notice naming the setting', { skip: gpu.skip }, async () => {
  for (const [over, flag] of [
    [{ loss: 'pairwise' }, '--loss pairwise on more than one rank'],
    [{ loss: 'pairwise', ranks: 1, sampler: 'flow-grpo' }, "does not give each prompt's 4 samples side by side"],
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
