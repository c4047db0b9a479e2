// One GRPO training step of the seed-003 controller, written with the CPU reference ops in the
// order src/gpu/controllerStep.ts encodes the same kernels on the GPU:
//   stage 1 forward → sample tier, insertion → one-hot(insertion) and knob-3 mask → stage 2
//   forward → sample top-K, knob 3 → rewards → advantages → loss (pairwise or TRL's GRPO,
//   on-policy: old = current log-probs) → backward through both stages → grad-norm clip → Adam.
// Rows are configurations: prompt p's k configurations are rows p·k … p·k + k − 1.
import {
  ACTIONS_PER_CONFIG,
  KNOB3_WIDTH,
  controllerLayout,
  initControllerParams,
  makePrompts,
  type ControllerDims,
  type ControllerPrompts,
} from '../core/env/controller.ts';
import { CPU_OPS, type CpuOps } from '../ops/backend.ts';
import { ADAM_DEFAULTS, type AdamSettings } from '../ops/cpu/adam.ts';
import { TRL_DEFAULTS, type GrpoLossSettings } from '../ops/cpu/grpoLoss.ts';
import type { RewardScale } from '../ops/cpu/groupAdvantage.ts';
import type { LossKind } from '../ops/lossBatch.ts';

/** Everything a controller training run is configured by. */
export interface ControllerTrainConfig {
  dims: ControllerDims;
  /** Prompts (inputs) per step; each gets groupSize configurations. */
  prompts: number;
  groupSize: number;
  lossType: LossKind;
  loss: Omit<GrpoLossSettings, 'lossType'>;
  rewardScale: RewardScale;
  adam: AdamSettings;
  /** Global gradient-norm clip (≤ 0: none). */
  maxGradNorm: number;
  seed: number;
  /** Rank of this replica: part of the sampling key (rank 0 when run alone). */
  rank: number;
}

export const DEFAULT_TRAIN_CONFIG: ControllerTrainConfig = {
  dims: { dModel: 32, hidden: 32 },
  prompts: 256,
  groupSize: 8,
  lossType: 'dapo',
  loss: { ...TRL_DEFAULTS, maxCompletionLength: ACTIONS_PER_CONFIG },
  rewardScale: 'group',
  adam: { ...ADAM_DEFAULTS, lr: 3e-3 },
  maxGradNorm: 1,
  seed: 0,
  rank: 0,
};

/** What a step reports (read back every N steps on the GPU). */
export interface StepMetrics {
  step: number;
  loss: number;
  meanReward: number;
  gradNorm: number;
}

/** Sampling streams of the four heads (the last word of the Philox counter). */
export const STREAM = { tier: 0, insertion: 1, topK: 2, knob3: 3 } as const;

/** Stage inputs repeated k times (repeat_interleave), rows = prompts · k. */
export function expandPrompts(p: ControllerPrompts, d: ControllerDims, k: number): { x1: Float32Array; x2: Float32Array } {
  const s1 = 2 * d.dModel,
    s2 = d.dModel + 5;
  const x1 = new Float32Array(p.count * k * s1),
    x2 = new Float32Array(p.count * k * s2);
  for (let r = 0; r < p.count * k; r++) {
    const i = Math.floor(r / k);
    x1.set(p.stage1Input.subarray(i * s1, (i + 1) * s1), r * s1);
    x2.set(p.stage2Input.subarray(i * s2, (i + 1) * s2), r * s2);
  }
  return { x1, x2 };
}

/** One step's gradients (flat, in the parameter layout) and what the step measured before Adam. */
export interface StepGradients {
  grads: Float32Array;
  loss: number;
  meanReward: number;
}

/**
 * The CPU trainer: parameters and Adam state as plain arrays. `ops` picks the CPU namespace the
 * step calls: the reference (`CPU_OPS.cpu`, the default and the definition) or the fast backend
 * (`CPU_OPS.fast`, the same results; test/train/controllerStep.fast.test.ts checks the steps agree).
 */
export class CpuControllerTrainer {
  readonly config: ControllerTrainConfig;
  readonly prompts: ControllerPrompts;
  readonly ops: CpuOps;
  readonly params: Float32Array;
  readonly m: Float32Array;
  readonly v: Float32Array;
  private readonly x1: Float32Array;
  private readonly x2: Float32Array;
  stepCount = 0;

  constructor(config: ControllerTrainConfig, prompts = makePrompts(config.dims, config.prompts, config.seed), ops: CpuOps = CPU_OPS.cpu) {
    this.config = config;
    this.prompts = prompts;
    this.ops = ops;
    this.params = initControllerParams(config.dims, config.seed);
    this.m = new Float32Array(this.params.length);
    this.v = new Float32Array(this.params.length);
    ({ x1: this.x1, x2: this.x2 } = expandPrompts(prompts, config.dims, config.groupSize));
  }

  /** Runs one training step; returns its metrics. */
  step(): StepMetrics {
    const g = this.gradients();
    const { norm } = this.apply(g.grads);
    return { step: this.stepCount, loss: g.loss, meanReward: g.meanReward, gradNorm: norm };
  }

  /**
   * Clips `grads` by global norm and takes one Adam step (data-parallel replicas call this with
   * the all-reduced mean of their gradients, so every replica takes the same step).
   */
  apply(grads: Float32Array): { norm: number } {
    const ops = this.ops,
      c = this.config;
    const clip = ops.gradNorm(grads, c.maxGradNorm);
    this.stepCount++;
    ops.adam(this.params, grads, this.m, this.v, clip.scale, this.stepCount, c.adam);
    return { norm: clip.norm };
  }

  /** The forward pass, sampling, rewards, loss and backward of one step, without changing the parameters. */
  gradients(): StepGradients {
    const ops = this.ops;
    const c = this.config,
      d = c.dims,
      k = c.groupSize,
      rows = c.prompts * k,
      T = ACTIONS_PER_CONFIG;
    const { tensors: t } = controllerLayout(d);
    const view = (name: keyof typeof t) => this.params.subarray(t[name].offset, t[name].offset + t[name].length);
    const key = (stream: number) => ({ seed: c.seed, rank: c.rank, step: this.stepCount, rowOffset: 0, stream });
    const logpTok = new Float32Array(rows * T);
    const sample = (
      logits: Float32Array,
      mask: Float32Array | null,
      h: { stride: number; offset: number; width: number },
      stream: number,
      column: number,
    ) => {
      const s = ops.categoricalSample(logits, mask, { rows, ...h }, key(stream));
      for (let r = 0; r < rows; r++) logpTok[r * T + column] = s.logp[r]!;
      return s;
    };
    // Forward, stage 1.
    const s1 = { rows, inDim: 2 * d.dModel, outDim: d.hidden };
    const h1 = ops.dense(this.x1, view('w1'), view('b1'), { ...s1, activation: 'tanh' });
    const o1 = { rows, inDim: d.hidden, outDim: 8 };
    const heads1 = ops.dense(h1.y, view('w1h'), view('b1h'), { ...o1, activation: 'identity' }).z;
    const tier = sample(heads1, null, { stride: 8, offset: 0, width: 3 }, STREAM.tier, 0);
    const insertion = sample(heads1, null, { stride: 8, offset: 3, width: 5 }, STREAM.insertion, 1);
    // Stage 2 sees the insertion position it was given.
    const x2 = this.x2.slice();
    ops.oneHot(insertion.actions, { rows, stride: d.dModel + 5, offset: d.dModel, width: 5 }, x2);
    const mask3 = ops.knob3Mask(insertion.actions);
    const s2 = { rows, inDim: d.dModel + 5, outDim: d.hidden };
    const h2 = ops.dense(x2, view('w2'), view('b2'), { ...s2, activation: 'tanh' });
    const o2 = { rows, inDim: d.hidden, outDim: 5 + KNOB3_WIDTH };
    const heads2 = ops.dense(h2.y, view('w2h'), view('b2h'), { ...o2, activation: 'identity' }).z;
    const topK = sample(heads2, null, { stride: 21, offset: 0, width: 5 }, STREAM.topK, 2);
    const knob3 = sample(heads2, mask3, { stride: 21, offset: 5, width: KNOB3_WIDTH }, STREAM.knob3, 3);
    // Rewards, advantages, loss.
    const rewards = ops.controllerReward(
      tier.actions,
      insertion.actions,
      topK.actions,
      knob3.actions,
      this.prompts.difficulty,
      this.prompts.budgetMs,
      k,
    );
    const adv = ops.groupAdvantage(rewards, k, c.rewardScale);
    const tokenMask = new Float32Array(rows * T).fill(1);
    const shape = { rows, tokens: T };
    const loss =
      c.lossType === 'pairwise'
        ? ops.pairwiseLoss(logpTok, tokenMask, rewards, { ...shape, groupSize: k })
        : ops.grpoLoss(logpTok, logpTok, logpTok, tokenMask, adv.advantages, shape, { ...c.loss, lossType: c.lossType });
    // Backward.
    const grads = new Float32Array(this.params.length);
    const put = (name: keyof typeof t, value: Float32Array) => grads.set(value, t[name].offset);
    const dHeads1 = new Float32Array(rows * 8);
    ops.logProbBackward(
      tier.probs,
      tier.actions,
      null,
      loss.gradLogp,
      { rows, stride: 8, offset: 0, width: 3 },
      { stride: T, column: 0 },
      dHeads1,
    );
    ops.logProbBackward(
      insertion.probs,
      insertion.actions,
      null,
      loss.gradLogp,
      { rows, stride: 8, offset: 3, width: 5 },
      { stride: T, column: 1 },
      dHeads1,
    );
    const dHeads2 = new Float32Array(rows * 21);
    ops.logProbBackward(
      topK.probs,
      topK.actions,
      null,
      loss.gradLogp,
      { rows, stride: 21, offset: 0, width: 5 },
      { stride: T, column: 2 },
      dHeads2,
    );
    ops.logProbBackward(
      knob3.probs,
      knob3.actions,
      mask3,
      loss.gradLogp,
      { rows, stride: 21, offset: 5, width: KNOB3_WIDTH },
      { stride: T, column: 3 },
      dHeads2,
    );
    for (const [stage, x, h, dHeads, o, s] of [
      [1, this.x1, h1, dHeads1, o1, s1],
      [2, x2, h2, dHeads2, o2, s2],
    ] as const) {
      const head = ops.denseBackwardWeight(h.y, dHeads, o);
      put(stage === 1 ? 'w1h' : 'w2h', head.dw);
      put(stage === 1 ? 'b1h' : 'b2h', head.db);
      const dy = ops.denseBackwardInput(dHeads, view(stage === 1 ? 'w1h' : 'w2h'), o);
      const dz = ops.activationBackward(h.z, dy, 'tanh');
      const trunk = ops.denseBackwardWeight(x, dz, s);
      put(stage === 1 ? 'w1' : 'w2', trunk.dw);
      put(stage === 1 ? 'b1' : 'b2', trunk.db);
    }
    return { grads, loss: loss.loss, meanReward: adv.meanReward };
  }
}
