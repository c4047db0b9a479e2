// Runs inside Chromium (an entry of the test build, app-build.ts): a few ops on Chromium's own WebGPU and on the CPU
// reference in the same page, returning the largest differences for test/browser/gpu-ops.test.ts.
// The same ops, shapes and keys as test/ops/cases.ts; no node: imports here (browser code).
import { requestGpuDevice } from '../../src/gpu/device.ts';
import { createGpuBackend } from '../../src/gpu/ops.ts';
import { cpuBackend } from '../../src/ops/backend.ts';
import { philox4x32, unitFloat } from '../../src/core/rng/philox.ts';
import { TRL_DEFAULTS } from '../../src/core/grpo/loss.ts';

function uniform(n: number, key: number, lo = -1, hi = 1): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => lo + (hi - lo) * unitFloat(philox4x32([i, key, 0, 0], [0x7e57, 0])[0]));
}

function maxRelErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < b.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / (1e-5 + Math.abs(b[i]!)));
  return worst;
}

export interface BrowserOpsReport {
  adapterInfo: string;
  errors: Record<string, number>;
  samplesEqual: boolean;
  shaderUrl: string;
}

/** Runs dense (2048 wide), masked softmax, sampling, the dapo and pairwise losses and Adam on both backends. */
export async function runBrowserOps(): Promise<BrowserOpsReport> {
  const gpu = await requestGpuDevice();
  if (!gpu.ok) throw new Error(gpu.reason);
  const g = await createGpuBackend(gpu.device);
  const c = cpuBackend;
  const errors: Record<string, number> = {};
  try {
    const x = uniform(3 * 2048, 1),
      w = uniform(2048 * 5, 2, -0.02, 0.02),
      b = uniform(5, 3);
    const s = { rows: 3, inDim: 2048, outDim: 5, activation: 'gelu' as const };
    errors.dense = maxRelErr((await g.dense(x, w, b, s)).y, (await c.dense(x, w, b, s)).y);
    const logits = uniform(70 * 21, 10, -4, 4),
      mask = uniform(70 * 16, 11, 0, 1).map((v, i) => (v < 0.6 || i % 16 === Math.floor(i / 16) % 16 ? 1 : 0));
    const h = { rows: 70, stride: 21, offset: 5, width: 16 };
    errors.maskedSoftmax = maxRelErr((await g.maskedSoftmax(logits, mask, h)).probs, (await c.maskedSoftmax(logits, mask, h)).probs);
    const key = { seed: 2 ** 40 + 3, rank: 3, step: 17, rowOffset: 1000, stream: 2 };
    const gs = await g.categoricalSample(logits, mask, h, key),
      cs = await c.categoricalSample(logits, mask, h, key);
    const samplesEqual = gs.actions.every((a, i) => a === cs.actions[i]);
    const shape = { rows: 37, tokens: 6 };
    const logp = uniform(222, 20, -3, -0.1),
      old = logp.map((v, i) => v + 0.4 * uniform(222, 21)[i]!),
      adv = uniform(37, 24, -2, 2),
      ones = new Float32Array(222).fill(1);
    const settings = { ...TRL_DEFAULTS, epsilonHigh: 0.28 };
    const gl = await g.grpoLoss(logp, old, null, ones, adv, shape, settings),
      cl = await c.grpoLoss(logp, old, null, ones, adv, shape, settings);
    errors.grpoLoss = Math.max(maxRelErr([gl.loss], [cl.loss]), maxRelErr(gl.gradLogp, cl.gradLogp));
    const rewards = uniform(20, 32, 0, 1).map((v) => Math.round(v * 4) / 4),
      lp = uniform(80, 30, -2, -0.1);
    const gp = await g.pairwiseLoss(lp, new Float32Array(80).fill(1), rewards, { rows: 20, tokens: 4, groupSize: 5 });
    const cp = await c.pairwiseLoss(lp, new Float32Array(80).fill(1), rewards, { rows: 20, tokens: 4, groupSize: 5 });
    errors.pairwiseLoss = Math.max(maxRelErr([gp.loss], [cp.loss]), maxRelErr(gp.gradLogp, cp.gradLogp));
    const pg = uniform(300, 42),
      pc = pg.slice(),
      grads = uniform(300, 44);
    const [mg, vg, mc, vc] = [0, 1, 2, 3].map(() => new Float32Array(300));
    await g.adam(pg, grads, mg!, vg!, 0.5, 1, { lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1 });
    await c.adam(pc, grads, mc!, vc!, 0.5, 1, { lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1 });
    errors.adam = maxRelErr(pg, pc);
    return { adapterInfo: gpu.adapterInfo, errors, samplesEqual, shaderUrl: new URL('../../shaders/dense.wgsl', import.meta.url).href };
  } finally {
    g.destroy();
    gpu.device.destroy();
  }
}
