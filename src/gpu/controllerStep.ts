// The seed-003 controller's whole training step on the GPU: the dispatches of
// src/train/controllerStep.ts (the CPU reference, same order, same kernels' twins) recorded into
// ONE compute pass of ONE command encoder and sent with ONE submit. Nothing is read back inside
// a step: parameters, Adam state, samples, rewards and losses stay in GPU buffers. Every
// `metricsEvery` steps the step also copies [loss, mean reward, grad norm] into the next
// buffer of a ring of staging buffers, mapped asynchronously and collected later.
import {
  ACTIONS_PER_CONFIG,
  HEADS,
  HEAD_LIST,
  STAGE_WIDTH,
  controllerLayout,
  expandPrompts,
  initControllerParams,
  makePrompts,
  stageInputs,
  type ControllerPrompts,
  type HeadSpec,
  type ParamTensor,
} from '../core/env/controller.ts';
import { philoxKey } from '../core/rng/philox.ts';
import { ACTIVATION_CODE, LOSS_TYPE_CODE, SCALE_REWARDS_CODE } from '../ops/codes.ts';
import { computeLoss } from '../ops/loss.ts';
import { readBuffers, storageBuffer, uploadBuffer } from './buffers.ts';
import { Kernels, type PreparedDispatch } from './kernels.ts';
import type { ControllerTrainConfig, StepMetrics } from '../core/env/train-config.ts';

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
    const input = stageInputs(d);
    const { x1: x1Data, x2: x2Data } = expandPrompts(prompts, d, k);
    const x1 = keep(uploadBuffer(device, x1Data, 'stage-1 input')),
      x2 = keep(uploadBuffer(device, x2Data, 'stage-2 input'));
    const difficulty = keep(uploadBuffer(device, prompts.difficulty, 'difficulty')),
      budget = keep(uploadBuffer(device, prompts.budgetMs, 'budget'));
    const widest = Math.max(...HEAD_LIST.filter((h) => h !== HEADS.knob3).map((h) => h.width));
    const ones = keep(uploadBuffer(device, new Float32Array(rows * Math.max(widest, T)).fill(1), 'all-valid mask'));
    const z1 = zeros(rows * d.hidden, 'z1'),
      y1 = zeros(rows * d.hidden, 'y1'),
      heads1 = zeros(rows * STAGE_WIDTH[1], 'heads1'),
      heads1y = zeros(rows * STAGE_WIDTH[1], 'heads1 (unused act)');
    const z2 = zeros(rows * d.hidden, 'z2'),
      y2 = zeros(rows * d.hidden, 'y2'),
      heads2 = zeros(rows * STAGE_WIDTH[2], 'heads2'),
      heads2y = zeros(rows * STAGE_WIDTH[2], 'heads2 (unused act)');
    const mask3 = zeros(rows * HEADS.knob3.width, 'knob3 mask');
    const actions = HEAD_LIST.map((h) => zeros(rows, `actions ${h.name}`));
    const probs = HEAD_LIST.map((h) => zeros(rows * h.width, `probs ${h.name}`));
    const logpTok = zeros(rows * T, 'logp per action'),
      gradLogp = zeros(rows * T, 'd loss / d logp');
    const rewards = zeros(rows, 'rewards'),
      advantages = zeros(rows, 'advantages');
    this.out = { loss: zeros(2, 'loss'), stats: zeros(2, 'reward stats'), clip: zeros(2, 'grad norm, clip') };
    const dHeads1 = zeros(rows * STAGE_WIDTH[1], 'dheads1'),
      dHeads2 = zeros(rows * STAGE_WIDTH[2], 'dheads2');
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
    const logits = { 1: heads1, 2: heads2 };
    const dLogits = { 1: dHeads1, 2: dHeads2 };
    // Knob 3's options depend on the sampled insertion; every other head may choose any option.
    const maskOf = (h: HeadSpec) => (h === HEADS.knob3 ? mask3 : ones);
    const headParams = (h: HeadSpec) => ({ rows, stride: STAGE_WIDTH[h.stage], offset: h.offset, width: h.width });
    const sampler = (h: HeadSpec) =>
      K.prepare('categoricalSample', {
        params: {
          ...headParams(h),
          seedLo,
          seedHi,
          rank: c.rank,
          step: 0,
          rowOffset: 0,
          stream: h.stream,
          logpStride: T,
          logpColumn: h.column,
        },
        buffers: [logits[h.stage], maskOf(h), actions[h.column]!, logpTok, probs[h.column]!],
        invocations: rows,
      });
    const logProb = (h: HeadSpec) =>
      K.prepare('logProbBackward', {
        params: { ...headParams(h), gradStride: T, gradColumn: h.column },
        buffers: [probs[h.column]!, actions[h.column]!, maskOf(h), gradLogp, dLogits[h.stage]],
        invocations: rows * h.width,
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

    this.samplers = HEAD_LIST.map(sampler);
    const lossDispatch = computeLoss(
      {
        grpoLoss: (logp, oldLogp, refLogp, mask, adv, shape, s) =>
          K.prepare('grpoLoss', {
            params: {
              rows: shape.rows,
              tokens: shape.tokens,
              lossType: LOSS_TYPE_CODE[s.lossType],
              epsilonLow: s.epsilonLow,
              epsilonHigh: s.epsilonHigh,
              beta: s.beta,
              maxCompletionLength: s.maxCompletionLength,
            },
            buffers: [logp, oldLogp, refLogp ?? logp, mask, adv, gradLogp, this.out.loss],
            workgroups: 1,
          }),
        pairwiseLoss: (logp, mask, rewardsOf, shape) =>
          K.prepare('pairwiseLoss', { params: { ...shape }, buffers: [logp, mask, rewardsOf, gradLogp, this.out.loss], workgroups: 1 }),
      },
      {
        shape: { rows, tokens: T },
        // On-policy: the sampling policy is the current one, so oldLogp (and refLogp) are logp itself.
        logp: logpTok,
        oldLogp: logpTok,
        refLogp: logpTok,
        mask: ones,
        advantages,
        rewards,
        settings: { ...c.loss, lossType: c.lossType, groupSize: k },
      },
    );
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
      dense(x1, 'w1', 'b1', z1, y1, input[1], d.hidden, tanh),
      dense(y1, 'w1h', 'b1h', heads1, heads1y, d.hidden, STAGE_WIDTH[1], identity),
      this.samplers[HEADS.tier.column]!,
      this.samplers[HEADS.insertion.column]!,
      // stage 2 sees the sampled insertion position; knob 3's options depend on it
      K.prepare('oneHot', {
        params: { rows, stride: input[2], offset: d.dModel, width: HEADS.insertion.width },
        buffers: [actions[HEADS.insertion.column]!, x2],
        invocations: rows * HEADS.insertion.width,
      }),
      K.prepare('knob3Mask', {
        params: { rows },
        buffers: [actions[HEADS.insertion.column]!, mask3],
        invocations: rows * HEADS.knob3.width,
      }),
      dense(x2, 'w2', 'b2', z2, y2, input[2], d.hidden, tanh),
      dense(y2, 'w2h', 'b2h', heads2, heads2y, d.hidden, STAGE_WIDTH[2], identity),
      this.samplers[HEADS.topK.column]!,
      this.samplers[HEADS.knob3.column]!,
      // rewards, advantages (also the mean-reward metric), loss and d loss / d logp
      K.prepare('controllerReward', {
        params: { rows, groupSize: k },
        buffers: [...actions, difficulty, budget, rewards],
        invocations: rows,
      }),
      K.prepare('groupAdvantage', {
        params: { rows, groupSize: k, scale: SCALE_REWARDS_CODE[c.rewardScale] },
        buffers: [rewards, advantages, this.out.stats],
        workgroups: 1,
      }),
      lossDispatch,
      // backward: heads, then each stage's trunk (no gradient crosses the sampled insertion)
      ...HEAD_LIST.map(logProb),
      backWeight(y1, dHeads1, 'w1h', 'b1h', d.hidden, STAGE_WIDTH[1]),
      backInput(dHeads1, 'w1h', dy1, d.hidden, STAGE_WIDTH[1]),
      actBack(z1, dy1, dz1),
      backWeight(x1, dz1, 'w1', 'b1', input[1], d.hidden),
      backWeight(y2, dHeads2, 'w2h', 'b2h', d.hidden, STAGE_WIDTH[2]),
      backInput(dHeads2, 'w2h', dy2, d.hidden, STAGE_WIDTH[2]),
      actBack(z2, dy2, dz2),
      backWeight(x2, dz2, 'w2', 'b2', input[2], d.hidden),
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
