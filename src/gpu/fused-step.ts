// The training step's GPU half for one rank, fused: parameters, Adam state, activations, samples,
// rewards and gradients live in this device's buffers for the whole run, and the step is prepared
// dispatches encoded into as few command submissions as the collectives allow.
//   One rank (`ranks: 1`, the collectives are identities): the whole step is ONE submission,
//     stage 1 → sample tier and insertion → stage 2's input (selectCandidates, one-hot, knob-3 mask)
//     → stage 2 → sample top-K and knob 3 → each head's entropy sum → the rewards, looked up in the
//     bank's reward table (sampledReward) → the scheme's advantages (schemeAdvantage) → the loss
//     (d loss / d logp; on-policy, old = current log-probs) → logProbBackward per head → both
//     stages' backward → gradNorm (clip_grad_norm_'s factor) → Adam; then copies of the step's
//     metrics (rewards, expected rewards, loss, entropy sums, gradient norm) into its slot of a
//     mappable ring. Nothing is read back per step: `readMetrics` maps the ring once for the steps
//     since the last call (every N steps), with the parameters and moments when asked.
//   W ranks: the rewards' all-gather and the gradients' all-reduce run between the ranks' devices,
//     so the step is two submissions, each ending in the collective's payload:
//     rollout  = [Adam with the previous step's all-reduced gradients] → the rollout → the rewards;
//                the rewards and expected rewards come back (the all-gather's payload);
//     backward = the loss (the advantages uploaded) → the backward pass; the gradients and the
//                metric sums (loss, entropies) come back (the all-reduce's payload).
// Uploads (queued writes, no submission): the rows' prompt features, latency tokens and prompt ids,
// and the advantages' groups (one rank) or the advantages and the all-reduced gradients with the
// clip factor (W ranks). The dispatches mirror src/train/policy.ts's rollout and backward on the
// CPU ops, kernel for kernel.
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
import { LONE_DIVISOR, packedGroups, type SchemeGroups } from '../core/grpo/scheme-groups.ts';
import { philoxKey } from '../core/rng/philox.ts';
import { ACTIVATION_CODE, LOSS_TYPE_CODE } from '../ops/codes.ts';
import type { AdamSettings } from '../ops/cpu/adam.ts';
import { computeLoss } from '../ops/loss.ts';
import { storageBuffer, uploadBuffer } from './buffers.ts';
import { Kernels, type PreparedDispatch } from './kernels.ts';

/** schemeAdvantage.wgsl's uniforms for a scheme's groups (scheme-groups.ts): one mapping for the step and its tests. */
export function schemeAdvantageParams(s: SchemeGroups): Record<string, number> {
  return {
    groups: s.groups.length,
    ddof: s.ddof,
    batchStd: s.batchStd ? 1 : 0,
    eps: s.eps,
    divide: s.divide ? 1 : 0,
    loneKeepsReward: s.loneKeepsReward ? 1 : 0,
    loneDivisor: LONE_DIVISOR,
  };
}

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
  /** World size: 1 runs the whole step in one submission (advantages, gradient norm and Adam on the device). */
  ranks: number;
  /** The bank's reward table (src/core/env/reward-table.ts) and its configurations per prompt. */
  rewardTable: Uint32Array;
  configs: number;
  /** scoreSample's Philox stream for the correctness draw. */
  rewardStream: number;
  /** One rank: metric slots in the ring, the most steps between two readMetrics calls. */
  metricSlots: number;
  /** clip_grad_norm_'s max norm (one rank: gradNorm runs on the device). */
  maxGradNorm: number;
}

/**
 * The metric sums the device computes, named as the training step's metrics table names them
 * (src/train/metrics.ts: webgpu-step.ts puts each at its place in the all-reduce's payload): the
 * loss, the per-token KL to the reference summed (0 at β = 0) and each head's entropy summed over
 * the rows. `backward` returns them in this order after the gradients.
 */
export const DEVICE_SUMS = ['loss', 'kl', ...HEAD_LIST.map((h) => `entropy.${h.name}` as const)] as const;
export type DeviceSum = (typeof DEVICE_SUMS)[number];

/** One step's metrics as the ring holds them (one rank). */
export interface DeviceStepMetrics {
  rewards: Float32Array;
  expected: Float32Array;
  /** The step's metric sums by name. */
  sums: Record<DeviceSum, number>;
  gradNorm: number;
}

/** Parameters and Adam's moments, flat, in the controller's layout. */
export interface ReplicaTensors {
  params: Float32Array;
  m: Float32Array;
  v: Float32Array;
}

/** What the step starts from: the replica's tensors and, at β > 0, the reference policy's parameters. */
export type StepTensors = ReplicaTensors & { ref?: Float32Array | null };

/** Command submissions and buffer readbacks (mapAsync) since the step was built. */
export interface TransferCounts {
  submissions: number;
  readbacks: number;
}

/** One step's rows on this rank: stage-1 inputs (rows × 2·dModel), each row's five latency tokens (rows × 5 × dModel), prompt ids, sampling key. */
export interface StepRows {
  x1: Float32Array;
  candidates: Float32Array;
  promptIds: Uint32Array;
  key: { step: number; rowOffset: number };
}

/** The sums the backward half returns after the gradients (DEVICE_SUMS). */
export const BACKWARD_SUMS = DEVICE_SUMS.length;

export class FusedStep {
  readonly device: GPUDevice;
  readonly settings: FusedStepSettings;
  readonly counts: TransferCounts = { submissions: 0, readbacks: 0 };
  /** Dispatches per step (the rollout, the rewards, the backward pass and Adam; one rank: the advantages and gradNorm too). */
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
  private readonly scoring: PreparedDispatch;
  /** One rank: the advantages and the gradient norm on the device. */
  private readonly advantage: PreparedDispatch | null;
  private readonly norm: PreparedDispatch | null;
  /** W ranks: the collectives' payloads. */
  private readonly stagingRewards: GPUBuffer;
  private readonly stagingGrads: GPUBuffer;
  /** One rank: each step's metrics in its slot, then (when asked) params, m and v; mapped by readMetrics. */
  private readonly ring: GPUBuffer | null;
  private readonly slotFloats: number;
  private slotsUsed = 0;
  private stateInRing = false;
  /** Validation errors of submissions nobody waited for (one rank), checked at the next readback. */
  private errors: Promise<GPUError | null>[] = [];
  /** Adam for the last all-reduced gradients is queued: it runs at the start of the next submission. */
  private adamPending = false;

  private constructor(device: GPUDevice, kernels: Kernels, ownsKernels: boolean, s: FusedStepSettings, init: StepTensors) {
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
    const advantages = zeros('advantages', rows);
    // [rewards (rows), expected rewards (rows)]: sampledReward's output; the pairwise loss reads the first half.
    const scored = zeros('scored', 2 * rows);
    const rewards: GPUBufferBinding = { buffer: scored, offset: 0, size: rows * 4 };
    const prompts = zeros('prompt ids', rows);
    const table = keep('reward table', uploadBuffer(device, s.rewardTable, 'reward table'));
    const members = zeros('group members', rows),
      starts = zeros('group starts', rows + 1);
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
    // A stage's forward pass under the parameters `from` (the policy's, or the reference's for the KL term).
    const forward = (stage: 1 | 2, from = P, out = { z, y, logits, logitsY }) => {
      const [w, bias, wh, bh] = names(stage);
      const i = stage - 1;
      return [
        K.prepare('dense', {
          params: { rows, inDim: input[stage], outDim: d.hidden },
          overrides: { ACTIVATION: ACTIVATION_CODE.tanh },
          buffers: [stage === 1 ? x1 : x2, from(w), from(bias), out.z[i]!, out.y[i]!],
          invocations: rows * d.hidden,
        }),
        K.prepare('dense', {
          params: { rows, inDim: d.hidden, outDim: STAGE_WIDTH[stage] },
          overrides: { ACTIVATION: ACTIVATION_CODE.identity },
          buffers: [out.y[i]!, from(wh), from(bh), out.logits[i]!, out.logitsY[i]!],
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
    const column = (h: Readonly<HeadSpec>) => this.actions[h.column]!;
    this.scoring = K.prepare('sampledReward', {
      params: { rows, configs: s.configs, seedLo, seedHi, step: 0, rowOffset: 0, stream: s.rewardStream },
      buffers: [column(HEADS.tier), column(HEADS.insertion), column(HEADS.topK), column(HEADS.knob3), prompts, table, scored],
      invocations: rows,
    });
    this.advantage =
      s.ranks === 1
        ? K.prepare('schemeAdvantage', {
            params: { rows, groups: 0, ddof: 0, batchStd: 0, eps: 0, divide: 0, loneKeepsReward: 0, loneDivisor: LONE_DIVISOR },
            buffers: [rewards, members, starts, advantages],
            workgroups: 1,
          })
        : null;
    // β > 0: the reference policy's log-probs of the sampled actions (policy.ts's logpUnder: both
    // stages under the initial parameters, each head's masked log-softmax, the sampled action's
    // entry) and the KL metric's sum; the loss reads refLogp.
    const klOut = zeros('kl sum', 1);
    let refLogp: GPUBuffer | null = null;
    const referencePass: PreparedDispatch[] = [];
    if (s.loss.beta > 0) {
      if (!init.ref) throw new Error('the fused step with beta > 0 needs the reference parameters');
      const refParams = keep('reference params', uploadBuffer(device, init.ref, 'reference params'));
      const R = (name: TensorName) => range(refParams, layout.tensors[name]);
      const pair = (label: string, width: number) => [zeros(`${label}1`, rows * width), zeros(`${label}2`, rows * width)] as const;
      const refOut = {
        z: pair('ref z', d.hidden),
        y: pair('ref y', d.hidden),
        logits: [zeros('ref logits1', rows * STAGE_WIDTH[1]), zeros('ref logits2', rows * STAGE_WIDTH[2])] as const,
        logitsY: [zeros('ref logits1 y', rows * STAGE_WIDTH[1]), zeros('ref logits2 y', rows * STAGE_WIDTH[2])] as const,
      };
      refLogp = zeros('reference logp per action', rows * T);
      const headLogp = zeros('reference head logp', rows * widest),
        headProbs = zeros('reference head probs', rows * widest);
      referencePass.push(...forward(1, R, refOut), ...forward(2, R, refOut));
      for (const h of HEAD_LIST) {
        referencePass.push(
          K.prepare('maskedSoftmax', {
            params: headParams(h),
            buffers: [refOut.logits[h.stage - 1]!, maskOf(h), headLogp, headProbs],
            invocations: rows,
          }),
          // The sampled action's entry of the head's log-probs, into column h of rows × T.
          K.prepare('selectCandidates', {
            params: { rows, choices: h.width, width: 1, stride: T, offset: h.column },
            buffers: [headLogp, this.actions[h.column]!, refLogp],
            invocations: rows,
          }),
        );
      }
      referencePass.push(K.prepare('klSum', { params: { n: rows * T, at: 0 }, buffers: [logpTok, refLogp, klOut], workgroups: 1 }));
    }
    const lossDispatch = computeLoss<GPUBuffer | GPUBufferBinding, PreparedDispatch, PreparedDispatch>(
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
      // On-policy, one pass per generation: the sampling policy is the current one (old = logp).
      {
        shape: { rows, tokens: T },
        logp: logpTok,
        oldLogp: logpTok,
        refLogp,
        mask: ones,
        advantages,
        rewards,
        settings: s.loss,
      },
    );
    this.backwardPass = [
      ...referencePass,
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
    this.norm =
      s.ranks === 1
        ? K.prepare('gradNorm', { params: { n: layout.length, maxNorm: s.maxGradNorm }, buffers: [grads, clip], workgroups: 1 })
        : null;
    this.dispatchesPerStep = this.rolloutPass.length + 1 + this.backwardPass.length + 1 + (s.ranks === 1 ? 2 : 0);
    const staging = (label: string, bytes: number) => {
      const buffer = device.createBuffer({ label, size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      this.made.push(buffer);
      return buffer;
    };
    this.stagingRewards = staging('rewards readback', 2 * rows * 4);
    this.stagingGrads = staging('gradients readback', (layout.length + BACKWARD_SUMS) * 4);
    this.slotFloats = 2 * rows + 3 + HEAD_LIST.length;
    this.ring = s.ranks === 1 ? staging('metrics ring', (s.metricSlots * this.slotFloats + 3 * layout.length) * 4) : null;
    this.b.lossOut = lossOut;
    this.b.scored = scored;
    this.b.prompts = prompts;
    this.b.members = members;
    this.b.starts = starts;
    this.b.entropy = entropy;
    this.b.kl = klOut;
  }

  /** Builds the step on `device` with the replica's initial tensors (compiles the kernels unless given). */
  static async create(device: GPUDevice, settings: FusedStepSettings, init: StepTensors, kernels?: Kernels): Promise<FusedStep> {
    const k = kernels ?? (await Kernels.load(device));
    return new FusedStep(device, k, !kernels, settings, init);
  }

  /** The rows' inputs and sampling key, as policy.ts's rollout takes them: row r draws at global position rowOffset + r. */
  private upload(rows: StepRows): void {
    const q = this.device.queue;
    const write = (name: string, data: Float32Array | Uint32Array) =>
      q.writeBuffer(this.b[name]!, 0, data.buffer, data.byteOffset, data.byteLength);
    write('x1', rows.x1);
    write('candidates', rows.candidates);
    write('prompts', rows.promptIds);
    for (const s of this.samplers) s.set({ step: rows.key.step, rowOffset: rows.key.rowOffset });
    this.scoring.set({ step: rows.key.step, rowOffset: rows.key.rowOffset });
  }

  /**
   * One rank's whole step in one submission (no readback): the rollout, the rewards, the scheme's
   * advantages over `groups`, the loss, the backward pass, the gradient norm and Adam step
   * `adamStep`; the step's metrics go to the ring's next slot, and with `withState` the parameters
   * and moments after it too (readMetrics returns them).
   */
  stepOnDevice(rows: StepRows, groups: SchemeGroups, adamStep: number, withState: boolean): void {
    const s = this.settings;
    if (!this.advantage || !this.norm || !this.ring) throw new Error('stepOnDevice runs the step of one rank (ranks: 1)');
    if (this.slotsUsed === s.metricSlots) throw new Error(`the metrics ring holds ${s.metricSlots} steps: readMetrics first`);
    this.upload(rows);
    const q = this.device.queue;
    const { members, starts } = packedGroups(groups.groups);
    q.writeBuffer(this.b.members!, 0, members.buffer, members.byteOffset, members.byteLength);
    q.writeBuffer(this.b.starts!, 0, starts.buffer, starts.byteOffset, starts.byteLength);
    this.advantage.set(schemeAdvantageParams(groups));
    this.setAdamStep(adamStep);
    const encoder = this.encode([...this.rolloutPass, this.scoring, this.advantage, ...this.backwardPass, this.norm, this.optimizer]);
    const at = this.slotsUsed * this.slotFloats * 4;
    const R = s.rows * 4;
    encoder.copyBufferToBuffer(this.b.scored!, 0, this.ring, at, 2 * R);
    encoder.copyBufferToBuffer(this.b.lossOut!, 0, this.ring, at + 2 * R, 4);
    encoder.copyBufferToBuffer(this.b.clip!, 0, this.ring, at + 2 * R + 4, 4);
    encoder.copyBufferToBuffer(this.b.kl!, 0, this.ring, at + 2 * R + 8, 4);
    encoder.copyBufferToBuffer(this.b.entropy!, 0, this.ring, at + 2 * R + 12, HEAD_LIST.length * 4);
    this.slotsUsed++;
    if (withState) this.copyState(encoder, this.ring, s.metricSlots * this.slotFloats * 4);
    this.stateInRing = withState;
    this.device.pushErrorScope('validation');
    this.device.queue.submit([encoder.finish()]);
    this.counts.submissions++;
    this.errors.push(this.device.popErrorScope());
  }

  /**
   * One rank: maps the ring once (one readback) and returns the metrics of the steps since the last
   * call, oldest first, and the parameters and moments when the last of them asked for them.
   */
  async readMetrics(): Promise<{ steps: DeviceStepMetrics[]; state: ReplicaTensors | null }> {
    const ring = this.ring;
    if (!ring) throw new Error('readMetrics reads the ring of one rank (ranks: 1)');
    if (this.slotsUsed === 0) return { steps: [], state: null };
    await this.checkErrors();
    await ring.mapAsync(GPUMapMode.READ);
    this.counts.readbacks++;
    const data = new Float32Array(ring.getMappedRange().slice(0));
    ring.unmap();
    const rows = this.settings.rows;
    const steps = Array.from({ length: this.slotsUsed }, (_, i) => {
      const at = i * this.slotFloats;
      // A slot: rewards, expected rewards, the loss, the gradient norm, the KL sum, each head's entropy sum.
      const entropy = data.subarray(at + 2 * rows + 3, at + this.slotFloats);
      const sums = { loss: data[at + 2 * rows]!, kl: data[at + 2 * rows + 2]! } as Record<DeviceSum, number>;
      HEAD_LIST.forEach((h, j) => {
        sums[`entropy.${h.name}`] = entropy[j]!;
      });
      return {
        rewards: data.slice(at, at + rows),
        expected: data.slice(at + rows, at + 2 * rows),
        sums,
        gradNorm: data[at + 2 * rows + 1]!,
      };
    });
    const L = this.length,
      base = this.settings.metricSlots * this.slotFloats;
    const state = this.stateInRing
      ? { params: data.slice(base, base + L), m: data.slice(base + L, base + 2 * L), v: data.slice(base + 2 * L, base + 3 * L) }
      : null;
    this.slotsUsed = 0;
    this.stateInRing = false;
    return { steps, state };
  }

  /**
   * W ranks, the rollout half: uploads the rows, runs the queued Adam step if any, the rollout and
   * the rewards in one submission, and reads back [rewards (rows), expected rewards (rows)]: the
   * all-gather's payload.
   */
  async rollout(rows: StepRows): Promise<Float32Array> {
    this.upload(rows);
    const encoder = this.encode([...this.rolloutPass, this.scoring]);
    encoder.copyBufferToBuffer(this.b.scored!, 0, this.stagingRewards, 0, 2 * this.settings.rows * 4);
    return new Float32Array(await this.submitAndRead(encoder, this.stagingRewards));
  }

  /**
   * W ranks, the backward half: uploads this rank's advantages (one per row), runs the loss and the
   * backward pass in one submission, and reads back [gradients (the layout's length), DEVICE_SUMS
   * (loss, KL sum, each head's entropy sum)]: what the all-reduce's payload carries.
   */
  async backward(advantages: Float32Array): Promise<Float32Array> {
    this.device.queue.writeBuffer(this.b.advantages!, 0, advantages.buffer, advantages.byteOffset, advantages.byteLength);
    const encoder = this.encode(this.backwardPass);
    const L = this.length * 4;
    encoder.copyBufferToBuffer(this.b.grads!, 0, this.stagingGrads, 0, L);
    encoder.copyBufferToBuffer(this.b.lossOut!, 0, this.stagingGrads, L, 4);
    encoder.copyBufferToBuffer(this.b.kl!, 0, this.stagingGrads, L + 4, 4);
    encoder.copyBufferToBuffer(this.b.entropy!, 0, this.stagingGrads, L + 8, HEAD_LIST.length * 4);
    return new Float32Array(await this.submitAndRead(encoder, this.stagingGrads));
  }

  /**
   * W ranks: queues Adam step `step` with the all-reduced gradients and the clip factor
   * (clip_grad_norm_'s, computed by the caller): the gradients are uploaded now, the update runs
   * first in the next submission (the next rollout, or readState).
   */
  queueAdam(grads: Float32Array, clipScale: number, step: number): void {
    const q = this.device.queue;
    q.writeBuffer(this.b.grads!, 0, grads.buffer, grads.byteOffset, grads.byteLength);
    q.writeBuffer(this.b.clip!, 0, new Float32Array([0, clipScale]));
    this.setAdamStep(step);
    this.adamPending = true;
  }

  private setAdamStep(step: number): void {
    const a = this.settings.adam;
    this.optimizer.set({ bc1: 1 - a.beta1 ** step, bc2: 1 - a.beta2 ** step });
  }

  private copyState(encoder: GPUCommandEncoder, staging: GPUBuffer, offset: number): void {
    const L = this.length * 4;
    ['params', 'm', 'v'].forEach((name, i) => encoder.copyBufferToBuffer(this.b[name]!, 0, staging, offset + i * L, L));
  }

  private async checkErrors(): Promise<void> {
    const errors = await Promise.all(this.errors.splice(0));
    const error = errors.find((e) => e);
    if (error) throw new Error(`fused step: ${error.message}`);
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
      this.copyState(encoder, staging, 0);
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
    const all = [...this.rolloutPass, ...this.backwardPass, this.optimizer, this.scoring, this.advantage, this.norm];
    for (const d of new Set(all)) d?.release();
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
    this.errors.push(this.device.popErrorScope());
    await this.checkErrors();
    await staging.mapAsync(GPUMapMode.READ);
    this.counts.readbacks++;
    const data = staging.getMappedRange().slice(0);
    staging.unmap();
    return data;
  }
}
