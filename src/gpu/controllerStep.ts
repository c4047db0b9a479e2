// The seed-003 controller's whole training step on the GPU: the dispatches of
// src/train/controllerStep.ts (the CPU reference, same order, same kernels' twins) recorded into
// ONE compute pass of ONE command encoder and sent with ONE submit. Nothing is read back inside
// a step: parameters, Adam state, samples, rewards and losses stay in GPU buffers. Every
// `metricsEvery` steps the step also copies [loss, mean reward, grad norm] into the next
// buffer of a ring of staging buffers, mapped asynchronously and collected later.
import {
  ACTIONS_PER_CONFIG,
  KNOB3_WIDTH,
  controllerLayout,
  initControllerParams,
  makePrompts,
  type ControllerPrompts,
  type ParamTensor,
} from '../core/env/controller.ts';
import { ACTIVATION_CODE } from '../ops/cpu/activation.ts';
import { LOSS_TYPE_CODE } from '../ops/cpu/grpoLoss.ts';
import { REWARD_SCALE_CODE } from '../ops/cpu/groupAdvantage.ts';
import { philoxKey } from '../ops/cpu/philox.ts';
import { STREAM, expandPrompts, type ControllerTrainConfig, type StepMetrics } from '../train/controllerStep.ts';
import { readBuffers, storageBuffer, uploadBuffer } from './buffers.ts';
import { Kernels, type PreparedDispatch } from './kernels.ts';

type TensorName = keyof ReturnType<typeof controllerLayout>['tensors'];

/** A ring slot: a staging buffer and, while in flight, the step it holds and its map promise. */
interface RingSlot {
  buffer: GPUBuffer;
  step: number;
  pending: Promise<void> | null;
}

const METRIC_VALUES = 3; // loss, mean reward, grad norm

export class GpuControllerTrainer {
  readonly config: ControllerTrainConfig;
  readonly device: GPUDevice;
  readonly kernels: Kernels;
  /** Dispatches recorded per step (all in one pass, one submit). */
  readonly dispatchesPerStep: number;
  readonly submitsPerStep = 1;
  stepCount = 0;
  private readonly dispatches: PreparedDispatch[];
  private readonly samplers: PreparedDispatch[];
  private readonly optimizer: PreparedDispatch;
  private readonly buffers: GPUBuffer[];
  private readonly params: GPUBuffer;
  private readonly out: { loss: GPUBuffer; stats: GPUBuffer; clip: GPUBuffer };
  private readonly ring: RingSlot[];
  private ringNext = 0;
  private readonly metricsEvery: number;
  private readonly collected: StepMetrics[] = [];

  private constructor(
    device: GPUDevice,
    kernels: Kernels,
    config: ControllerTrainConfig,
    prompts: ControllerPrompts,
    options: { metricsEvery: number; ringSize: number },
  ) {
    this.device = device;
    this.kernels = kernels;
    this.config = config;
    this.metricsEvery = options.metricsEvery;
    const c = config,
      d = c.dims,
      k = c.groupSize,
      rows = c.prompts * k,
      T = ACTIONS_PER_CONFIG;
    const layout = controllerLayout(d);
    const made: GPUBuffer[] = [];
    const keep = (b: GPUBuffer) => {
      made.push(b);
      return b;
    };
    const zeros = (n: number, label: string) => keep(storageBuffer(device, n, label));

    this.params = keep(uploadBuffer(device, initControllerParams(d, c.seed), 'params'));
    const grads = zeros(layout.length, 'grads'),
      m = zeros(layout.length, 'adam m'),
      v = zeros(layout.length, 'adam v');
    const { x1: x1Data, x2: x2Data } = expandPrompts(prompts, d, k);
    const x1 = keep(uploadBuffer(device, x1Data, 'stage-1 input')),
      x2 = keep(uploadBuffer(device, x2Data, 'stage-2 input'));
    const difficulty = keep(uploadBuffer(device, prompts.difficulty, 'difficulty')),
      budget = keep(uploadBuffer(device, prompts.budgetMs, 'budget'));
    const ones = keep(uploadBuffer(device, new Float32Array(rows * 5).fill(1), 'all-valid mask'));
    const z1 = zeros(rows * d.hidden, 'z1'),
      y1 = zeros(rows * d.hidden, 'y1'),
      heads1 = zeros(rows * 8, 'heads1'),
      heads1y = zeros(rows * 8, 'heads1 (unused act)');
    const z2 = zeros(rows * d.hidden, 'z2'),
      y2 = zeros(rows * d.hidden, 'y2'),
      heads2 = zeros(rows * 21, 'heads2'),
      heads2y = zeros(rows * 21, 'heads2 (unused act)');
    const mask3 = zeros(rows * KNOB3_WIDTH, 'knob3 mask');
    const actions = [0, 1, 2, 3].map((i) => zeros(rows, `actions ${i}`));
    const probs = [3, 5, 5, KNOB3_WIDTH].map((w, i) => zeros(rows * w, `probs ${i}`));
    const logpTok = zeros(rows * T, 'logp per action'),
      gradLogp = zeros(rows * T, 'd loss / d logp');
    const rewards = zeros(rows, 'rewards'),
      advantages = zeros(rows, 'advantages');
    this.out = { loss: zeros(2, 'loss'), stats: zeros(2, 'reward stats'), clip: zeros(2, 'grad norm, clip') };
    const dHeads1 = zeros(rows * 8, 'dheads1'),
      dHeads2 = zeros(rows * 21, 'dheads2');
    const dy1 = zeros(rows * d.hidden, 'dy1'),
      dz1 = zeros(rows * d.hidden, 'dz1'),
      dy2 = zeros(rows * d.hidden, 'dy2'),
      dz2 = zeros(rows * d.hidden, 'dz2');
    this.buffers = made;

    const range = (buffer: GPUBuffer, t: ParamTensor): GPUBufferBinding => ({ buffer, offset: t.offset * 4, size: t.length * 4 });
    const P = (name: TensorName) => range(this.params, layout.tensors[name]);
    const G = (name: TensorName) => range(grads, layout.tensors[name]);
    const K = this.kernels;
    const tanh = { ACTIVATION: ACTIVATION_CODE.tanh },
      identity = { ACTIVATION: ACTIVATION_CODE.identity };
    const [seedLo, seedHi] = philoxKey(c.seed);
    const sampler = (logits: GPUBuffer, mask: GPUBuffer, stride: number, offset: number, width: number, stream: number, column: number) =>
      K.prepare('categoricalSample', {
        params: {
          rows,
          stride,
          offset,
          width,
          seedLo,
          seedHi,
          rank: c.rank,
          step: 0,
          rowOffset: 0,
          stream,
          logpStride: T,
          logpColumn: column,
        },
        buffers: [logits, mask, actions[column]!, logpTok, probs[column]!],
        invocations: rows,
      });
    const logProb = (column: number, mask: GPUBuffer, dlogits: GPUBuffer, stride: number, offset: number, width: number) =>
      K.prepare('logProbBackward', {
        params: { rows, stride, offset, width, gradStride: T, gradColumn: column },
        buffers: [probs[column]!, actions[column]!, mask, gradLogp, dlogits],
        invocations: rows * width,
      });
    const dense = (
      x: GPUBuffer,
      w: TensorName,
      b: TensorName,
      z: GPUBuffer,
      y: GPUBuffer,
      inDim: number,
      outDim: number,
      act: Record<string, number>,
    ) =>
      K.prepare('dense', { params: { rows, inDim, outDim }, overrides: act, buffers: [x, P(w), P(b), z, y], invocations: rows * outDim });
    const backWeight = (x: GPUBuffer, dz: GPUBuffer, w: TensorName, b: TensorName, inDim: number, outDim: number) =>
      K.prepare('denseBackwardWeight', {
        params: { rows, inDim, outDim },
        buffers: [x, dz, G(w), G(b)],
        invocations: inDim * outDim + outDim,
      });
    const backInput = (dz: GPUBuffer, w: TensorName, dx: GPUBuffer, inDim: number, outDim: number) =>
      K.prepare('denseBackwardInput', { params: { rows, inDim, outDim }, buffers: [dz, P(w), dx], invocations: rows * inDim });
    const actBack = (z: GPUBuffer, dy: GPUBuffer, dz: GPUBuffer) =>
      K.prepare('activationBackward', {
        params: { n: rows * d.hidden },
        overrides: tanh,
        buffers: [z, dy, dz],
        invocations: rows * d.hidden,
      });

    this.samplers = [
      sampler(heads1, ones, 8, 0, 3, STREAM.tier, 0),
      sampler(heads1, ones, 8, 3, 5, STREAM.insertion, 1),
      sampler(heads2, ones, 21, 0, 5, STREAM.topK, 2),
      sampler(heads2, mask3, 21, 5, KNOB3_WIDTH, STREAM.knob3, 3),
    ];
    const lossDispatch =
      c.lossType === 'pairwise'
        ? K.prepare('pairwiseLoss', {
            params: { rows, tokens: T, groupSize: k },
            buffers: [logpTok, ones, rewards, gradLogp, this.out.loss],
            workgroups: 1,
          })
        : K.prepare('grpoLoss', {
            params: {
              rows,
              tokens: T,
              lossType: LOSS_TYPE_CODE[c.lossType],
              epsilonLow: c.loss.epsilonLow,
              epsilonHigh: c.loss.epsilonHigh,
              beta: c.loss.beta,
              maxCompletionLength: c.loss.maxCompletionLength,
            },
            // On-policy: the sampling policy is the current one, so oldLogp (and refLogp) are logp itself.
            buffers: [logpTok, logpTok, logpTok, ones, advantages, gradLogp, this.out.loss],
            workgroups: 1,
          });
    this.optimizer = K.prepare('adam', {
      params: {
        n: layout.length,
        lr: c.adam.lr,
        beta1: c.adam.beta1,
        beta2: c.adam.beta2,
        eps: c.adam.eps,
        weightDecay: c.adam.weightDecay,
        bc1: 1,
        bc2: 1,
      },
      buffers: [this.params, grads, m, v, this.out.clip],
      invocations: layout.length,
    });

    this.dispatches = [
      // forward, stage 1, and its two samples
      dense(x1, 'w1', 'b1', z1, y1, 2 * d.dModel, d.hidden, tanh),
      dense(y1, 'w1h', 'b1h', heads1, heads1y, d.hidden, 8, identity),
      this.samplers[0]!,
      this.samplers[1]!,
      // stage 2 sees the sampled insertion position; knob 3's options depend on it
      K.prepare('oneHot', {
        params: { rows, stride: d.dModel + 5, offset: d.dModel, width: 5 },
        buffers: [actions[1]!, x2],
        invocations: rows * 5,
      }),
      K.prepare('knob3Mask', { params: { rows }, buffers: [actions[1]!, mask3], invocations: rows * KNOB3_WIDTH }),
      dense(x2, 'w2', 'b2', z2, y2, d.dModel + 5, d.hidden, tanh),
      dense(y2, 'w2h', 'b2h', heads2, heads2y, d.hidden, 5 + KNOB3_WIDTH, identity),
      this.samplers[2]!,
      this.samplers[3]!,
      // rewards, advantages (also the mean-reward metric), loss and d loss / d logp
      K.prepare('controllerReward', {
        params: { rows, groupSize: k },
        buffers: [actions[0]!, actions[1]!, actions[2]!, actions[3]!, difficulty, budget, rewards],
        invocations: rows,
      }),
      K.prepare('groupAdvantage', {
        params: { rows, groupSize: k, scale: REWARD_SCALE_CODE[c.rewardScale] },
        buffers: [rewards, advantages, this.out.stats],
        workgroups: 1,
      }),
      lossDispatch,
      // backward: heads, then each stage's trunk (no gradient crosses the sampled insertion)
      logProb(0, ones, dHeads1, 8, 0, 3),
      logProb(1, ones, dHeads1, 8, 3, 5),
      logProb(2, ones, dHeads2, 21, 0, 5),
      logProb(3, mask3, dHeads2, 21, 5, KNOB3_WIDTH),
      backWeight(y1, dHeads1, 'w1h', 'b1h', d.hidden, 8),
      backInput(dHeads1, 'w1h', dy1, d.hidden, 8),
      actBack(z1, dy1, dz1),
      backWeight(x1, dz1, 'w1', 'b1', 2 * d.dModel, d.hidden),
      backWeight(y2, dHeads2, 'w2h', 'b2h', d.hidden, 21),
      backInput(dHeads2, 'w2h', dy2, d.hidden, 21),
      actBack(z2, dy2, dz2),
      backWeight(x2, dz2, 'w2', 'b2', d.dModel + 5, d.hidden),
      // clip and update
      K.prepare('gradNorm', { params: { n: layout.length, maxNorm: c.maxGradNorm }, buffers: [grads, this.out.clip], workgroups: 1 }),
      this.optimizer,
    ];
    this.dispatchesPerStep = this.dispatches.length;
    this.ring = Array.from({ length: options.ringSize }, (_, i) => ({
      buffer: device.createBuffer({ label: `metrics ring ${i}`, size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
      step: 0,
      pending: null,
    }));
  }

  /** Builds a trainer (compiles the kernels unless given). metricsEvery: read metrics every N steps; ringSize staging buffers. */
  static async create(
    device: GPUDevice,
    config: ControllerTrainConfig,
    options: { kernels?: Kernels; prompts?: ControllerPrompts; metricsEvery?: number; ringSize?: number } = {},
  ): Promise<GpuControllerTrainer> {
    const kernels = options.kernels ?? (await Kernels.load(device));
    const prompts = options.prompts ?? makePrompts(config.dims, config.prompts, config.seed);
    return new GpuControllerTrainer(device, kernels, config, prompts, {
      metricsEvery: options.metricsEvery ?? 10,
      ringSize: options.ringSize ?? 4,
    });
  }

  /** Records one training step into `pass` (the per-step uniforms must be written first: see step()). */
  encodeStep(pass: GPUComputePassEncoder): void {
    for (const d of this.dispatches) this.kernels.encode(pass, d);
  }

  /**
   * One step: updates the step counter in the uniforms (queued writes), records every dispatch
   * into one pass of one encoder, copies the metrics into the ring when due, and submits once.
   * Waits only when every ring slot is still being read back.
   */
  async step(): Promise<void> {
    const c = this.config;
    for (const s of this.samplers) s.set({ step: this.stepCount });
    const t = this.stepCount + 1;
    this.optimizer.set({ bc1: 1 - c.adam.beta1 ** t, bc2: 1 - c.adam.beta2 ** t });
    const encoder = this.device.createCommandEncoder({ label: `step ${t}` });
    const pass = encoder.beginComputePass();
    this.encodeStep(pass);
    pass.end();
    let slot: RingSlot | undefined;
    if (t % this.metricsEvery === 0) {
      slot = this.ring[this.ringNext]!;
      this.ringNext = (this.ringNext + 1) % this.ring.length;
      if (slot.pending) await slot.pending;
      encoder.copyBufferToBuffer(this.out.loss, 0, slot.buffer, 0, 4);
      encoder.copyBufferToBuffer(this.out.stats, 0, slot.buffer, 4, 4);
      encoder.copyBufferToBuffer(this.out.clip, 0, slot.buffer, 8, 4);
    }
    this.device.queue.submit([encoder.finish()]);
    this.stepCount = t;
    if (slot) {
      const s = slot;
      s.step = t;
      s.pending = s.buffer.mapAsync(GPUMapMode.READ).then(() => {
        const [loss, meanReward, gradNorm] = new Float32Array(s.buffer.getMappedRange(0, METRIC_VALUES * 4));
        this.collected.push({ step: s.step, loss: loss!, meanReward: meanReward!, gradNorm: gradNorm! });
        s.buffer.unmap();
        s.pending = null;
      });
    }
  }

  /** Waits for every metrics readback in flight; returns (and forgets) the metrics collected so far, by step. */
  async takeMetrics(): Promise<StepMetrics[]> {
    await Promise.all(this.ring.map((s) => s.pending));
    return this.collected.splice(0).sort((a, b) => a.step - b.step);
  }

  /** Reads the parameters back (for tests and checkpoints; not part of a step). */
  async readParams(): Promise<Float32Array> {
    const [data] = await readBuffers(this.device, [{ buffer: this.params, bytes: controllerLayout(this.config.dims).length * 4 }]);
    return new Float32Array(data!);
  }

  /** Frees every buffer (the device and the kernels stay the caller's). */
  destroy(): void {
    for (const b of this.buffers) b.destroy();
    for (const s of this.ring) s.buffer.destroy();
  }
}
