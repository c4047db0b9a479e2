// The seed-003 controller training step written with TensorFlow.js, as an outside reference for
// bench/train-step.bench.ts: same model, same simulated reward, same on-policy DAPO loss, global
// grad-norm clip and Adam, run by tfjs's WebGPU backend on the same GPUDevice as our kernels.
// Sampling uses tf.multinomial (tfjs's own RNG), so samples differ from ours; the work does not.
// Written the way tfjs wants it: a rollout without gradients (sampled integers cannot sit on its
// tape), then the loss's forward again under tf.variableGrads, as PyTorch code does with no_grad.
import * as tf from '@tensorflow/tfjs';
import { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { controllerLayout, expandPrompts, initControllerParams, KNOB3_WIDTH, type ControllerPrompts } from '../src/core/env/controller.ts';
import type { ControllerTrainConfig } from '../src/core/env/train-config.ts';

/**
 * Puts tfjs on `device` (backend 'webgpu'). tfjs's WebGPUBackend refuses to start unless
 * navigator.gpu exists, which Node lacks: there we hand it one from the webgpu package (Dawn),
 * though the backend then runs on the device we pass. Throws if tfjs does not end up on it.
 */
export async function useTfjsOnDevice(device: GPUDevice): Promise<string> {
  const g = globalThis as { navigator?: { gpu?: GPU }; __tfjsDawnGpu?: GPU };
  if (!g.navigator?.gpu) {
    const pkg = 'webgpu';
    const dawn = (await import(/* @vite-ignore */ pkg)) as { create(flags: string[]): GPU };
    g.__tfjsDawnGpu ??= dawn.create([]); // referenced for good: Dawn must not be collected under a device
    if (g.navigator) Object.defineProperty(g.navigator, 'gpu', { value: g.__tfjsDawnGpu, configurable: true });
    else g.navigator = { gpu: g.__tfjsDawnGpu };
  }
  // Under the name 'webgpu', which tfjs-backend-webgpu registered its kernels for.
  if (tf.findBackend('webgpu')) tf.removeBackend('webgpu');
  tf.registerBackend('webgpu', () => new WebGPUBackend(device));
  await tf.setBackend('webgpu');
  await tf.ready();
  if (tf.getBackend() !== 'webgpu') throw new Error(`tfjs runs on '${tf.getBackend()}', not on the shared WebGPU device`);
  return tf.getBackend();
}

/** Builds the tfjs step; `step()` runs one step, `readLoss()` reads the last loss back. */
export function tfjsControllerStep(
  config: ControllerTrainConfig,
  prompts: ControllerPrompts,
): { step(): void; readLoss(): Promise<number>; dispose(): void } {
  const c = config,
    d = c.dims,
    k = c.groupSize,
    rows = c.prompts * k;
  const layout = controllerLayout(d);
  const init = initControllerParams(d, c.seed);
  const vars = Object.fromEntries(
    Object.values(layout.tensors).map((t) => [
      t.name,
      tf.variable(tf.tensor(init.slice(t.offset, t.offset + t.length), t.rows > 1 ? [t.rows, t.cols] : [t.cols]), true, t.name),
    ]),
  ) as Record<string, tf.Variable>;
  const { x1: x1Data, x2: x2Data } = expandPrompts(prompts, d, k);
  const x1 = tf.tensor2d(x1Data, [rows, 2 * d.dModel]);
  const latency = tf.tensor2d(x2Data, [rows, d.dModel + 5]).slice([0, 0], [rows, d.dModel]);
  const difficulty = tf.tensor1d(prompts.difficulty).gather(tf.range(0, rows, 1, 'int32').div(k).floor().cast('int32'));
  const budget = tf.tensor1d(prompts.budgetMs).gather(tf.range(0, rows, 1, 'int32').div(k).floor().cast('int32'));
  const crops = tf.tensor1d([3, 6, 12]);
  const optimizer = tf.train.adam(c.adam.lr, c.adam.beta1, c.adam.beta2, c.adam.eps);
  let lastLoss: tf.Scalar | null = null;

  // tfjs has no stop_gradient: an identity whose gradient is zero.
  const stopGradient = tf.customGrad(((x: tf.Tensor) => ({
    value: x.clone(),
    gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy),
  })) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor) => tf.Tensor;
  const sample = (logits: tf.Tensor2D) => tf.multinomial(logits, 1).reshape([rows]) as tf.Tensor1D;
  const logpOf = (logits: tf.Tensor2D, actions: tf.Tensor1D, width: number) =>
    tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(actions, width)), 1);

  const stage1 = () => {
    const h1 = tf.tanh(tf.add(tf.matMul(x1, vars.w1!), vars.b1!));
    const heads1 = tf.add(tf.matMul(h1, vars.w1h!), vars.b1h!) as tf.Tensor2D;
    return { tierLogits: heads1.slice([0, 0], [rows, 3]), insLogits: heads1.slice([0, 3], [rows, 5]) };
  };
  const stage2 = (x2: tf.Tensor2D, valid: tf.Tensor2D) => {
    const h2 = tf.tanh(tf.add(tf.matMul(x2, vars.w2!), vars.b2!));
    const heads2 = tf.add(tf.matMul(h2, vars.w2h!), vars.b2h!) as tf.Tensor2D;
    const k3Logits = tf.where(valid, heads2.slice([0, 5], [rows, KNOB3_WIDTH]), tf.fill([rows, KNOB3_WIDTH], -1e9)) as tf.Tensor2D;
    return { topKLogits: heads2.slice([0, 0], [rows, 5]), k3Logits };
  };

  /** Sampling and rewards, outside the gradient tape (tfjs cannot backpropagate past sampled integers). */
  function rollout() {
    const { tierLogits, insLogits } = stage1();
    const tier = sample(tierLogits),
      ins = sample(insLogits);
    const x2 = tf.concat([latency, tf.oneHot(ins, 5).cast('float32')], 1) as tf.Tensor2D;
    const pos = ins.add(1).cast('float32').reshape([rows, 1]);
    const n = tf.range(0, KNOB3_WIDTH).reshape([1, KNOB3_WIDTH]);
    const total = tf.add(pos, n);
    const valid = tf.logicalAnd(
      tf.lessEqual(n, tf.sub(16, pos)),
      tf.logicalAnd(tf.greaterEqual(total, 12), tf.lessEqual(total, 16)),
    ) as tf.Tensor2D;
    const { topKLogits, k3Logits } = stage2(x2, valid);
    const topK = sample(topKLogits),
      knob3 = sample(k3Logits);
    // The simulated reward of src/core/env/controller.ts, then TRL's group advantages.
    const cr = crops.gather(tier),
      p = ins.add(1).cast('float32'),
      kk = topK.add(4).cast('float32'),
      blocks = p.add(knob3.cast('float32'));
    const quality = cr.mul(0.12).add(kk.sub(4).mul(0.15)).add(blocks.sub(12).mul(0.2)).add(p.sub(1).mul(0.05));
    const accuracy = tf.sub(1, difficulty.mul(tf.exp(quality.neg())));
    const latencyMs = p.add(cr.mul(1.5)).add(blocks.sub(p).mul(kk.mul(0.15).add(1)));
    const rewards = accuracy.sub(tf.relu(latencyMs.sub(budget)).mul(0.05)).reshape([c.prompts, k]);
    const mean = rewards.mean(1, true);
    const std = tf.sqrt(tf.sum(tf.square(rewards.sub(mean)), 1, true).div(k - 1));
    const adv = rewards.sub(mean).div(std.add(1e-4)).reshape([rows, 1]);
    return { tier, ins, topK, knob3, x2, valid, adv };
  }

  /** The DAPO loss of a rollout (on-policy: ratio exp(logp − stop_gradient(logp)) = 1), under the tape. */
  function loss(r: ReturnType<typeof rollout>): tf.Scalar {
    const { tierLogits, insLogits } = stage1();
    const { topKLogits, k3Logits } = stage2(r.x2, r.valid);
    const logp = tf.stack(
      [logpOf(tierLogits, r.tier, 3), logpOf(insLogits, r.ins, 5), logpOf(topKLogits, r.topK, 5), logpOf(k3Logits, r.knob3, KNOB3_WIDTH)],
      1,
    );
    const ratio = tf.exp(tf.sub(logp, stopGradient(logp)));
    const clipped = tf.clipByValue(ratio, 1 - c.loss.epsilonLow, 1 + c.loss.epsilonHigh);
    const perToken = tf.neg(tf.minimum(tf.mul(ratio, r.adv), tf.mul(clipped, r.adv)));
    return tf.div(tf.sum(perToken), rows * 4) as tf.Scalar;
  }

  return {
    step() {
      tf.tidy(() => {
        const r = rollout();
        const { value, grads } = tf.variableGrads(() => loss(r));
        const names = Object.keys(grads);
        // Summed pairwise: tf.addN of 8 tensors needs 9 storage buffers, over WebGPU's default limit of 8.
        const norm = tf.sqrt(names.reduce<tf.Tensor>((acc, nm) => tf.add(acc, tf.sum(tf.square(grads[nm]!))), tf.scalar(0)));
        const scale = tf.minimum(1, tf.div(c.maxGradNorm, tf.add(norm, 1e-6)));
        optimizer.applyGradients(Object.fromEntries(names.map((nm) => [nm, tf.mul(grads[nm]!, scale)])));
        lastLoss?.dispose();
        lastLoss = tf.keep(value);
      });
    },
    async readLoss() {
      return lastLoss ? (await lastLoss.data())[0]! : NaN;
    },
    dispose() {
      lastLoss?.dispose();
      optimizer.dispose();
      for (const t of [...Object.values(vars), x1, latency, difficulty, budget, crops]) t.dispose();
    },
  };
}
