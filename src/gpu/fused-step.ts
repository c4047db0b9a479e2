// The training step's GPU half for one rank, fused: parameters, Adam state, activations, samples
// and gradients live in this device's buffers for the whole run, and each half of a step is ONE
// command submission of prepared dispatches. A data-parallel step needs the other ranks twice (the
// rewards' all-gather before the advantages, the gradients' all-reduce before Adam), so it has two
// halves; src/train/webgpu-step.ts runs the collectives and the host's part between them:
//   rollout:  [Adam with the previous step's all-reduced gradients] → stage 1 → sample tier and
//             insertion → stage 2's input (selectCandidates picks each row's latency token, one-hot of
//             the insertion, knob-3 mask) → stage 2 → sample top-K and knob 3 → each head's entropy
//             sum; the actions are copied out (the host scores them for the all-gather);
//   backward: the loss (d loss / d logp; on-policy, old = current log-probs) → each head's
//             logProbBackward → both stages' backward; the gradients and the metric sums (loss,
//             entropies) are copied out: the all-reduce's payload.
// Each half maps one staging buffer, so a step reads back exactly the two collectives' inputs.
// Uploads (queued writes, no submission): the rows' prompt features and latency tokens, the
// advantages, and the all-reduced gradients with the clip factor. The dispatches mirror
// src/train/policy.ts's rollout and backward on the CPU ops, kernel for kernel.
import {
  ACTIONS_PER_CONFIG,
  controllerLayout,
  HEAD_LIST,
  HEADS,
  INSERTION_POSITIONS,
  STAGE_WIDTH,
  stageInputs,
  type ControllerDims,
  type HeadSpec,
  type ParamTensor,
} from '../core/env/controller.ts';
import type { LossSettings } from '../core/grpo/loss.ts';
import { philoxKey } from '../core/rng/philox.ts';
import { ACTIVATION_CODE, LOSS_TYPE_CODE } from '../ops/codes.ts';
import type { AdamSettings } from '../ops/cpu/adam.ts';
import { computeLoss } from '../ops/loss.ts';
import { storageBuffer, uploadBuffer } from './buffers.ts';
import { Kernels, type PreparedDispatch } from './kernels.ts';

type TensorName = keyof ReturnType<typeof controllerLayout>['tensors'];

/** What the fused step is built for: one rank's rows per step and the run's loss and optimiser settings. */
export interface FusedStepSettings {
  dims: ControllerDims;
  /** This rank's rows (samples) per step. */
  rows: number;
  seed: number;
  /** TRL's GRPO-family losses, or the pairwise loss over contiguous groups of `groupSize` rows of this rank. */
  loss: LossSettings;
  adam: AdamSettings;
}

/** Parameters and Adam's moments, flat, in the controller's layout. */
export interface ReplicaTensors {
  params: Float32Array;
  m: Float32Array;
  v: Float32Array;
}

/** Command submissions and buffer readbacks (mapAsync) since the step was built. */
export interface TransferCounts {
  submissions: number;
  readbacks: number;
}

/** The sums the backward half returns after the gradients: the loss and each head's entropy summed over the rows. */
export const BACKWARD_SUMS = 1 + HEAD_LIST.length;

export class FusedStep {
  readonly device: GPUDevice;
  readonly settings: FusedStepSettings;
  readonly counts: TransferCounts = { submissions: 0, readbacks: 0 };
  /** Dispatches per step (both halves and Adam). */
  readonly dispatchesPerStep: number;
  private readonly kernels: Kernels;
  private readonly ownsKernels: boolean;
  private readonly made: GPUBuffer[] = [];
  private readonly length: number;
  private readonly b: Record<string, GPUBuffer> = {};
  private readonly actions: GPUBuffer[];
  private readonly samplers: PreparedDispatch[];
  private readonly rolloutPass: PreparedDispatch[];
  private readonly backwardPass: PreparedDispatch[];
  private readonly optimizer: PreparedDispatch;
  private readonly stagingActions: GPUBuffer;
  private readonly stagingGrads: GPUBuffer;
  /** Adam for the last all-reduced gradients is queued: it runs at the start of the next submission. */
  private adamPending = false;

  private constructor(device: GPUDevice, kernels: Kernels, ownsKernels: boolean, s: FusedStepSettings, init: ReplicaTensors) {
    this.device = device;
    this.kernels = kernels;
    this.ownsKernels = ownsKernels;
    this.settings = s;
    const d = s.dims,
      rows = s.rows,
      T = ACTIONS_PER_CONFIG;
    const layout = controllerLayout(d);
    this.length = layout.length;
    const input = stageInputs(d);
    const keep = (name: string, buffer: GPUBuffer) => {
      this.made.push(buffer);
      this.b[name] = buffer;
      return buffer;
    };
    const zeros = (name: string, n: number) => keep(name, storageBuffer(device, n, name));
    const params = keep('params', uploadBuffer(device, init.params, 'params'));
    keep('m', uploadBuffer(device, init.m, 'adam m'));
    keep('v', uploadBuffer(device, init.v, 'adam v'));
    const grads = zeros('grads', layout.length);
    const clip = zeros('clip', 2);
    const x1 = zeros('x1', rows * input[1]),
      candidates = zeros('candidates', rows * INSERTION_POSITIONS.length * d.dModel),
      x2 = zeros('x2', rows * input[2]);
    const z = [zeros('z1', rows * d.hidden), zeros('z2', rows * d.hidden)] as const;
    const y = [zeros('y1', rows * d.hidden), zeros('y2', rows * d.hidden)] as const;
    const logits = [zeros('logits1', rows * STAGE_WIDTH[1]), zeros('logits2', rows * STAGE_WIDTH[2])] as const;
    // The heads' dense writes its (identity) activation too: a scratch output nobody reads.
    const logitsY = [zeros('logits1 y', rows * STAGE_WIDTH[1]), zeros('logits2 y', rows * STAGE_WIDTH[2])] as const;
    const dLogits = [zeros('dlogits1', rows * STAGE_WIDTH[1]), zeros('dlogits2', rows * STAGE_WIDTH[2])] as const;
    const dy = [zeros('dy1', rows * d.hidden), zeros('dy2', rows * d.hidden)] as const;
    const dz = [zeros('dz1', rows * d.hidden), zeros('dz2', rows * d.hidden)] as const;
    const widest = Math.max(...HEAD_LIST.map((h) => h.width), T);
    const ones = keep('ones', uploadBuffer(device, new Float32Array(rows * widest).fill(1), 'all-valid mask'));
    const mask3 = zeros('knob3 mask', rows * HEADS.knob3.width);
    this.actions = HEAD_LIST.map((h) => zeros(`actions ${h.name}`, rows));
    const probs = HEAD_LIST.map((h) => zeros(`probs ${h.name}`, rows * h.width));
    const logpTok = zeros('logp per action', rows * T),
      gradLogp = zeros('d loss / d logp', rows * T);
    const advantages = zeros('advantages', rows),
      rewards = zeros('rewards', rows);
    // [loss, (the loss kernels' second value)] and each head's entropy sum.
    const lossOut = zeros('loss', 2),
      entropy = zeros('entropy sums', HEAD_LIST.length);

    const range = (buffer: GPUBuffer, t: ParamTensor): GPUBufferBinding => ({ buffer, offset: t.offset * 4, size: t.length * 4 });
    const P = (name: TensorName) => range(params, layout.tensors[name]);
    const G = (name: TensorName) => range(grads, layout.tensors[name]);
    const K = kernels;
    const [seedLo, seedHi] = philoxKey(s.seed);
    const maskOf = (h: Readonly<HeadSpec>) => (h === HEADS.knob3 ? mask3 : ones);
    const headParams = (h: Readonly<HeadSpec>) => ({ rows, stride: STAGE_WIDTH[h.stage], offset: h.offset, width: h.width });
    const names = (stage: 1 | 2) => (stage === 1 ? (['w1', 'b1', 'w1h', 'b1h'] as const) : (['w2', 'b2', 'w2h', 'b2h'] as const));
    const forward = (stage: 1 | 2) => {
      const [w, bias, wh, bh] = names(stage);
      const i = stage - 1;
      return [
        K.prepare('dense', {
          params: { rows, inDim: input[stage], outDim: d.hidden },
          overrides: { ACTIVATION: ACTIVATION_CODE.tanh },
          buffers: [stage === 1 ? x1 : x2, P(w), P(bias), z[i]!, y[i]!],
          invocations: rows * d.hidden,
        }),
        K.prepare('dense', {
          params: { rows, inDim: d.hidden, outDim: STAGE_WIDTH[stage] },
          overrides: { ACTIVATION: ACTIVATION_CODE.identity },
          buffers: [y[i]!, P(wh), P(bh), logits[i]!, logitsY[i]!],
          invocations: rows * STAGE_WIDTH[stage],
        }),
      ];
    };
    const backward = (stage: 1 | 2) => {
      const [w, bias, wh, bh] = names(stage);
      const i = stage - 1;
      const head = { rows, inDim: d.hidden, outDim: STAGE_WIDTH[stage] };
      const trunk = { rows, inDim: input[stage], outDim: d.hidden };
      return [
        K.prepare('denseBackwardWeight', {
          params: head,
          buffers: [y[i]!, dLogits[i]!, G(wh), G(bh)],
          invocations: head.inDim * head.outDim + head.outDim,
        }),
        K.prepare('denseBackwardInput', { params: head, buffers: [dLogits[i]!, P(wh), dy[i]!], invocations: rows * head.inDim }),
        K.prepare('activationBackward', {
          params: { n: rows * d.hidden },
          overrides: { ACTIVATION: ACTIVATION_CODE.tanh },
          buffers: [z[i]!, dy[i]!, dz[i]!],
          invocations: rows * d.hidden,
        }),
        K.prepare('denseBackwardWeight', {
          params: trunk,
          buffers: [stage === 1 ? x1 : x2, dz[i]!, G(w), G(bias)],
          invocations: trunk.inDim * trunk.outDim + trunk.outDim,
        }),
      ];
    };
    this.samplers = HEAD_LIST.map((h) =>
      K.prepare('categoricalSample', {
        params: {
          ...headParams(h),
          seedLo,
          seedHi,
          rank: 0,
          step: 0,
          rowOffset: 0,
          stream: h.stream,
          logpStride: T,
          logpColumn: h.column,
        },
        buffers: [logits[h.stage - 1]!, maskOf(h), this.actions[h.column]!, logpTok, probs[h.column]!],
        invocations: rows,
      }),
    );
    const insertion = this.actions[HEADS.insertion.column]!;
    this.rolloutPass = [
      ...forward(1),
      this.samplers[HEADS.tier.column]!,
      this.samplers[HEADS.insertion.column]!,
      // Stage 2 sees the latency token of the sampled insertion and the insertion itself (one-hot).
      K.prepare('selectCandidates', {
        params: { rows, choices: INSERTION_POSITIONS.length, width: d.dModel, stride: input[2], offset: 0 },
        buffers: [candidates, insertion, x2],
        invocations: rows * d.dModel,
      }),
      K.prepare('oneHot', {
        params: { rows, stride: input[2], offset: d.dModel, width: HEADS.insertion.width },
        buffers: [insertion, x2],
        invocations: rows * HEADS.insertion.width,
      }),
      K.prepare('knob3Mask', { params: { rows }, buffers: [insertion, mask3], invocations: rows * HEADS.knob3.width }),
      ...forward(2),
      this.samplers[HEADS.topK.column]!,
      this.samplers[HEADS.knob3.column]!,
      ...HEAD_LIST.map((h) =>
        K.prepare('entropySum', { params: { n: rows * h.width, at: h.column }, buffers: [probs[h.column]!, entropy], workgroups: 1 }),
      ),
    ];
    const lossDispatch = computeLoss(
      {
        grpoLoss: (logp, oldLogp, refLogp, mask, adv, shape, ls) =>
          K.prepare('grpoLoss', {
            params: {
              rows: shape.rows,
              tokens: shape.tokens,
              lossType: LOSS_TYPE_CODE[ls.lossType],
              epsilonLow: ls.epsilonLow,
              epsilonHigh: ls.epsilonHigh,
              beta: ls.beta,
              maxCompletionLength: ls.maxCompletionLength,
            },
            buffers: [logp, oldLogp, refLogp ?? logp, mask, adv, gradLogp, lossOut],
            workgroups: 1,
          }),
        pairwiseLoss: (logp, mask, rewardsOf, shape) =>
          K.prepare('pairwiseLoss', { params: { ...shape }, buffers: [logp, mask, rewardsOf, gradLogp, lossOut], workgroups: 1 }),
      },
      // On-policy, one pass per generation: the sampling policy is the current one (old = logp); no reference (β = 0).
      {
        shape: { rows, tokens: T },
        logp: logpTok,
        oldLogp: logpTok,
        refLogp: null,
        mask: ones,
        advantages,
        rewards,
        settings: s.loss,
      },
    );
    this.backwardPass = [
      lossDispatch,
      ...HEAD_LIST.map((h) =>
        K.prepare('logProbBackward', {
          params: { ...headParams(h), gradStride: T, gradColumn: h.column },
          buffers: [probs[h.column]!, this.actions[h.column]!, maskOf(h), gradLogp, dLogits[h.stage - 1]!],
          invocations: rows * h.width,
        }),
      ),
      ...backward(1),
      ...backward(2),
    ];
    this.optimizer = K.prepare('adam', {
      params: { n: layout.length, ...s.adam, bc1: 1, bc2: 1 },
      buffers: [params, grads, this.b.m!, this.b.v!, clip],
      invocations: layout.length,
    });
    this.dispatchesPerStep = this.rolloutPass.length + this.backwardPass.length + 1;
    const staging = (label: string, bytes: number) => {
      const buffer = device.createBuffer({ label, size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      this.made.push(buffer);
      return buffer;
    };
    this.stagingActions = staging('actions readback', HEAD_LIST.length * rows * 4);
    this.stagingGrads = staging('gradients readback', (layout.length + BACKWARD_SUMS) * 4);
    this.b.lossOut = lossOut;
    this.b.rewards = rewards;
    this.b.entropy = entropy;
  }

  /** Builds the step on `device` with the replica's initial tensors (compiles the kernels unless given). */
  static async create(device: GPUDevice, settings: FusedStepSettings, init: ReplicaTensors, kernels?: Kernels): Promise<FusedStep> {
    const k = kernels ?? (await Kernels.load(device));
    return new FusedStep(device, k, !kernels, settings, init);
  }

  /**
   * The rollout half: uploads the rows' stage-1 inputs (rows × (2·dModel)) and each row's five
   * latency tokens (rows × 5 × dModel), runs the queued Adam step if any and the rollout in one
   * submission, and reads back the sampled actions: head h's at [h.column·rows, (h.column + 1)·rows).
   * `key` is the sampling key of policy.ts's rollout (row r draws at global position rowOffset + r).
   */
  async rollout(x1: Float32Array, candidates: Float32Array, key: { step: number; rowOffset: number }): Promise<Uint32Array> {
    const q = this.device.queue,
      rows = this.settings.rows;
    q.writeBuffer(this.b.x1!, 0, x1.buffer, x1.byteOffset, x1.byteLength);
    q.writeBuffer(this.b.candidates!, 0, candidates.buffer, candidates.byteOffset, candidates.byteLength);
    for (const s of this.samplers) s.set({ step: key.step, rowOffset: key.rowOffset });
    const encoder = this.encode(this.rolloutPass);
    this.actions.forEach((a, i) => encoder.copyBufferToBuffer(a, 0, this.stagingActions, i * rows * 4, rows * 4));
    return new Uint32Array(await this.submitAndRead(encoder, this.stagingActions));
  }

  /**
   * The backward half: uploads this rank's advantages and rewards (one per row; the GRPO losses
   * read the advantages, the pairwise loss the rewards), runs the loss and the backward pass in one
   * submission, and reads back [gradients (the layout's length), loss, each head's entropy sum]:
   * the all-reduce's payload.
   */
  async backward(advantages: Float32Array, rewards: Float32Array): Promise<Float32Array> {
    const q = this.device.queue;
    q.writeBuffer(this.b.advantages!, 0, advantages.buffer, advantages.byteOffset, advantages.byteLength);
    q.writeBuffer(this.b.rewards!, 0, rewards.buffer, rewards.byteOffset, rewards.byteLength);
    const encoder = this.encode(this.backwardPass);
    const L = this.length * 4;
    encoder.copyBufferToBuffer(this.b.grads!, 0, this.stagingGrads, 0, L);
    encoder.copyBufferToBuffer(this.b.lossOut!, 0, this.stagingGrads, L, 4);
    encoder.copyBufferToBuffer(this.b.entropy!, 0, this.stagingGrads, L + 4, HEAD_LIST.length * 4);
    return new Float32Array(await this.submitAndRead(encoder, this.stagingGrads));
  }

  /**
   * Queues Adam step `step` with the all-reduced gradients and the clip factor (clip_grad_norm_'s,
   * computed by the caller): the gradients are uploaded now, the update runs first in the next
   * submission (the next rollout, or readState).
   */
  queueAdam(grads: Float32Array, clipScale: number, step: number): void {
    const q = this.device.queue;
    q.writeBuffer(this.b.grads!, 0, grads.buffer, grads.byteOffset, grads.byteLength);
    q.writeBuffer(this.b.clip!, 0, new Float32Array([0, clipScale]));
    const a = this.settings.adam;
    this.optimizer.set({ bc1: 1 - a.beta1 ** step, bc2: 1 - a.beta2 ** step });
    this.adamPending = true;
  }

  /** Reads the parameters and Adam's moments back (after any queued Adam step): for replica checksums and checkpoints. */
  async readState(): Promise<ReplicaTensors> {
    const L = this.length * 4;
    const staging = this.device.createBuffer({
      label: 'state readback',
      size: 3 * L,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    try {
      const encoder = this.encode([]);
      ['params', 'm', 'v'].forEach((name, i) => encoder.copyBufferToBuffer(this.b[name]!, 0, staging, i * L, L));
      const data = await this.submitAndRead(encoder, staging);
      const at = (i: number) => new Float32Array(data, i * L, this.length);
      return { params: at(0), m: at(1), v: at(2) };
    } finally {
      staging.destroy();
    }
  }

  /** Replaces the parameters and moments (a test nudging one replica; call readState first so no Adam step is queued). */
  writeState(t: ReplicaTensors): void {
    if (this.adamPending) throw new Error('writeState with an Adam step queued: readState first');
    const q = this.device.queue;
    for (const [name, data] of [
      ['params', t.params],
      ['m', t.m],
      ['v', t.v],
    ] as const)
      q.writeBuffer(this.b[name]!, 0, data.buffer, data.byteOffset, data.byteLength);
  }

  /** Frees every buffer (and the kernels when this step compiled them); the device stays the caller's. */
  destroy(): void {
    for (const b of this.made) b.destroy();
    for (const d of new Set([...this.rolloutPass, ...this.backwardPass, this.optimizer])) d.release();
    if (this.ownsKernels) this.kernels.destroy();
  }

  /** An encoder with one compute pass: the queued Adam step (if any), then `dispatches`. */
  private encode(dispatches: PreparedDispatch[]): GPUCommandEncoder {
    const encoder = this.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    if (this.adamPending) this.kernels.encode(pass, this.optimizer);
    this.adamPending = false;
    for (const d of dispatches) this.kernels.encode(pass, d);
    pass.end();
    return encoder;
  }

  /** Submits the encoder (one submission) and maps `staging` (one readback); returns a copy of its bytes. */
  private async submitAndRead(encoder: GPUCommandEncoder, staging: GPUBuffer): Promise<ArrayBuffer> {
    this.device.pushErrorScope('validation');
    this.device.queue.submit([encoder.finish()]);
    this.counts.submissions++;
    const error = await this.device.popErrorScope();
    if (error) throw new Error(`fused step: ${error.message}`);
    await staging.mapAsync(GPUMapMode.READ);
    this.counts.readbacks++;
    const data = staging.getMappedRange().slice(0);
    staging.unmap();
    return data;
  }
}
