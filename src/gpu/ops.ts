// The WebGPU backend of the ops (src/ops/backend.ts): each call uploads its inputs, runs the
// kernel of the same name in one submit and reads the results back. Good for tests and the
// `loss` calculator; `train --backend webgpu` keeps its data on the GPU instead (src/gpu/fused-step.ts).
import { KNOB3_WIDTH } from '../core/env/controller.ts';
import { philoxKey } from '../core/rng/philox.ts';
import type { OpsBackend } from '../ops/backend.ts';
import { ACTIVATION_CODE, LOSS_TYPE_CODE, REDUCE_OP_CODE, SCALE_REWARDS_CODE } from '../ops/codes.ts';
import { checkHead, type HeadShape } from '../ops/cpu/head.ts';
import { readBuffers, storageBuffer, uploadBuffer } from './buffers.ts';
import { Kernels, type DispatchSpec, type KernelName } from './kernels.ts';

type Data = Float32Array | Uint32Array;
/** A binding of a one-shot run: an input, an output of n values, or an input whose new value is read back. */
type Binding = Data | { out: number; u32?: boolean } | { inout: Data };

/** The WebGPU backend plus what it holds: call destroy() when done (the device stays the caller's). */
export type GpuBackend = OpsBackend & { kernels: Kernels; destroy(): void };

/** Builds the WebGPU backend on a device (compiles every kernel first). */
export async function createGpuBackend(device: GPUDevice): Promise<GpuBackend> {
  const kernels = await Kernels.load(device);

  async function run(kernel: KernelName, spec: Omit<DispatchSpec, 'buffers'>, bindings: Binding[]): Promise<Data[]> {
    const buffers: GPUBuffer[] = [];
    const reads: { buffer: GPUBuffer; bytes: number; u32: boolean }[] = [];
    for (const b of bindings) {
      if (b instanceof Float32Array || b instanceof Uint32Array) {
        buffers.push(uploadBuffer(device, b));
        continue;
      }
      if ('out' in b) {
        const buffer = storageBuffer(device, b.out);
        buffers.push(buffer);
        reads.push({ buffer, bytes: b.out * 4, u32: b.u32 ?? false });
      } else {
        const buffer = uploadBuffer(device, b.inout);
        buffers.push(buffer);
        reads.push({ buffer, bytes: b.inout.length * 4, u32: b.inout instanceof Uint32Array });
      }
    }
    device.pushErrorScope('validation');
    const prepared = kernels.prepare(kernel, { ...spec, buffers });
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    kernels.encode(pass, prepared);
    pass.end();
    const data = await readBuffers(device, reads, encoder);
    const error = await device.popErrorScope();
    prepared.release();
    for (const b of buffers) b.destroy();
    if (error) throw new Error(`${kernel}: ${error.message}`);
    return data.map((d, i) => (reads[i]!.u32 ? new Uint32Array(d) : new Float32Array(d)));
  }

  const ones = (n: number) => new Float32Array(n).fill(1);
  const f32 = (d: Data | undefined) => d as Float32Array;
  const headParams = (h: HeadShape) => ({ rows: h.rows, stride: h.stride, offset: h.offset, width: h.width });

  const backend: GpuBackend = {
    name: 'webgpu',
    kernels,
    destroy: () => kernels.destroy(),

    async dense(x, w, b, s) {
      const n = s.rows * s.outDim;
      const [z, y] = await run(
        'dense',
        {
          params: { rows: s.rows, inDim: s.inDim, outDim: s.outDim },
          overrides: { ACTIVATION: ACTIVATION_CODE[s.activation] },
          invocations: n,
        },
        [x, w, b, { out: n }, { out: n }],
      );
      return { z: f32(z), y: f32(y) };
    },
    async activationBackward(z, dy, activation) {
      const [dz] = await run(
        'activationBackward',
        { params: { n: z.length }, overrides: { ACTIVATION: ACTIVATION_CODE[activation] }, invocations: z.length },
        [z, dy, { out: z.length }],
      );
      return f32(dz);
    },
    async denseBackwardInput(dz, w, s) {
      const n = s.rows * s.inDim;
      const [dx] = await run('denseBackwardInput', { params: { rows: s.rows, inDim: s.inDim, outDim: s.outDim }, invocations: n }, [
        dz,
        w,
        { out: n },
      ]);
      return f32(dx);
    },
    async denseBackwardWeight(x, dz, s) {
      const n = s.inDim * s.outDim;
      const [dw, db] = await run(
        'denseBackwardWeight',
        { params: { rows: s.rows, inDim: s.inDim, outDim: s.outDim }, invocations: n + s.outDim },
        [x, dz, { out: n }, { out: s.outDim }],
      );
      return { dw: f32(dw), db: f32(db) };
    },
    async maskedSoftmax(logits, mask, h) {
      checkHead(h, logits.length, mask);
      const n = h.rows * h.width;
      const [logp, probs] = await run('maskedSoftmax', { params: headParams(h), invocations: h.rows }, [
        logits,
        mask ?? ones(n),
        { out: n },
        { out: n },
      ]);
      return { logp: f32(logp), probs: f32(probs) };
    },
    async categoricalSample(logits, mask, h, k) {
      checkHead(h, logits.length, mask);
      const n = h.rows * h.width;
      const [seedLo, seedHi] = philoxKey(k.seed);
      const params = {
        ...headParams(h),
        seedLo,
        seedHi,
        rank: k.rank,
        step: k.step,
        rowOffset: k.rowOffset,
        stream: k.stream,
        logpStride: 1,
        logpColumn: 0,
      };
      const [actions, logp, probs] = await run('categoricalSample', { params, invocations: h.rows }, [
        logits,
        mask ?? ones(n),
        { out: h.rows, u32: true },
        { out: h.rows },
        { out: n },
      ]);
      return { actions: actions as Uint32Array, logp: f32(logp), probs: f32(probs) };
    },
    async logProbBackward(probs, actions, mask, gradLogp, h, g, into) {
      const target = into ?? new Float32Array(h.rows * h.stride);
      checkHead(h, target.length, mask);
      const [out] = await run(
        'logProbBackward',
        { params: { ...headParams(h), gradStride: g.stride, gradColumn: g.column }, invocations: h.rows * h.width },
        [probs, actions, mask ?? ones(h.rows * h.width), gradLogp, { inout: target }],
      );
      target.set(out!);
      return target;
    },
    async grpoLoss(logp, oldLogp, refLogp, mask, advantages, shape, s) {
      const params = {
        rows: shape.rows,
        tokens: shape.tokens,
        lossType: LOSS_TYPE_CODE[s.lossType],
        epsilonLow: s.epsilonLow,
        epsilonHigh: s.epsilonHigh,
        beta: s.beta,
        maxCompletionLength: s.maxCompletionLength,
      };
      const n = shape.rows * shape.tokens;
      const [grad, loss] = await run('grpoLoss', { params, workgroups: 1 }, [
        logp,
        oldLogp,
        refLogp ?? logp,
        mask,
        advantages,
        { out: n },
        { out: 1 },
      ]);
      return { loss: loss![0]!, gradLogp: f32(grad) };
    },
    async pairwiseLoss(logp, mask, rewards, shape) {
      const n = shape.rows * shape.tokens;
      const [grad, out] = await run(
        'pairwiseLoss',
        { params: { rows: shape.rows, tokens: shape.tokens, groupSize: shape.groupSize }, workgroups: 1 },
        [logp, mask, rewards, { out: n }, { out: 2 }],
      );
      return { loss: out![0]!, gradLogp: f32(grad), pairs: out![1]! };
    },
    async groupAdvantage(rewards, groupSize, scale) {
      const [advantages, stats] = await run(
        'groupAdvantage',
        { params: { rows: rewards.length, groupSize, scale: SCALE_REWARDS_CODE[scale] }, workgroups: 1 },
        [rewards, { out: rewards.length }, { out: 2 }],
      );
      return { advantages: f32(advantages), meanReward: stats![0]! };
    },
    async gradNorm(grads, maxNorm) {
      const [out] = await run('gradNorm', { params: { n: grads.length, maxNorm }, workgroups: 1 }, [grads, { out: 2 }]);
      return { norm: out![0]!, scale: out![1]! };
    },
    async adam(params, grads, m, v, gradScale, step, s) {
      const uniforms = {
        n: params.length,
        lr: s.lr,
        beta1: s.beta1,
        beta2: s.beta2,
        eps: s.eps,
        weightDecay: s.weightDecay,
        bc1: 1 - s.beta1 ** step,
        bc2: 1 - s.beta2 ** step,
      };
      const [p, mm, vv] = await run('adam', { params: uniforms, invocations: params.length }, [
        { inout: params },
        grads,
        { inout: m },
        { inout: v },
        new Float32Array([0, gradScale]),
      ]);
      params.set(p!);
      m.set(mm!);
      v.set(vv!);
    },
    async reduceRows(x, rows, cols, op) {
      const [out] = await run('reduceRows', { params: { rows, cols }, overrides: { OP: REDUCE_OP_CODE[op] }, workgroups: rows }, [
        x,
        { out: rows },
      ]);
      return f32(out);
    },
    async oneHot(actions, h, into) {
      const [out] = await run('oneHot', { params: headParams(h), invocations: h.rows * h.width }, [actions, { inout: into }]);
      into.set(out!);
      return into;
    },
    async knob3Mask(insertion) {
      const [mask] = await run('knob3Mask', { params: { rows: insertion.length }, invocations: insertion.length * KNOB3_WIDTH }, [
        insertion,
        { out: insertion.length * KNOB3_WIDTH },
      ]);
      return f32(mask);
    },
    async controllerReward(tier, insertion, topK, knob3, difficulty, budgetMs, groupSize) {
      const [rewards] = await run('controllerReward', { params: { rows: tier.length, groupSize }, invocations: tier.length }, [
        tier,
        insertion,
        topK,
        knob3,
        difficulty,
        budgetMs,
        { out: tier.length },
      ]);
      return f32(rewards);
    },
    async selectCandidates(candidates, index, s, into) {
      const [out] = await run('selectCandidates', { params: { ...s }, invocations: s.rows * s.width }, [
        candidates,
        index,
        { inout: into },
      ]);
      into.set(out!);
      return into;
    },
    async entropySum(probs) {
      const [out] = await run('entropySum', { params: { n: probs.length, at: 0 }, workgroups: 1 }, [probs, { out: 1 }]);
      return out![0]!;
    },
  };
  return backend;
}
