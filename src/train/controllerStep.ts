// One GRPO training step of the seed-003 controller, written with the CPU reference ops in the
// order src/gpu/controllerStep.ts encodes the same kernels on the GPU:
//   stage 1 forward → sample tier, insertion → one-hot(insertion) and knob-3 mask → stage 2
//   forward → sample top-K, knob 3 → rewards → advantages → loss (pairwise or TRL's GRPO,
//   on-policy: old = current log-probs) → backward through both stages → grad-norm clip → Adam.
// Rows are configurations: prompt p's k configurations are rows p·k … p·k + k − 1.
import {
  ACTIONS_PER_CONFIG,
  HEADS,
  STAGE_WIDTH,
  controllerLayout,
  expandPrompts,
  headShape,
  initControllerParams,
  makePrompts,
  stageInputs,
  type ControllerPrompts,
  type HeadSpec,
} from '../core/env/controller.ts';
import type { ControllerTrainConfig, StepMetrics } from '../core/env/train-config.ts';
import { CPU_OPS, type CpuOps } from '../ops/backend.ts';
import { computeLoss } from '../ops/loss.ts';

// The run's configuration and metrics are plain data in src/core/env/train-config.ts (the GPU
// step shares them); re-exported here for callers that only know the trainer.
export { DEFAULT_TRAIN_CONFIG, type ControllerTrainConfig, type StepMetrics } from '../core/env/train-config.ts';

/** One step's gradients (flat, in the parameter layout) and what the step measured before Adam. */
export interface StepGradients {
  grads: Float32Array;
  loss: number;
  meanReward: number;
}

/**
 * The CPU trainer: parameters and Adam state as plain arrays. `ops` picks the CPU namespace the
 * step calls: the reference (`CPU_OPS.cpu`, the default and the definition) or the fast backend
 * (`CPU_OPS.fast`, the same results; test/train/controllerStep.test.ts checks the steps agree).
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
    const input = stageInputs(d);
    const sample = (logits: Float32Array, mask: Float32Array | null, head: HeadSpec) => {
      const s = ops.categoricalSample(logits, mask, headShape(head.name, rows), key(head.stream));
      for (let r = 0; r < rows; r++) logpTok[r * T + head.column] = s.logp[r]!;
      return s;
    };
    // Forward, stage 1.
    const s1 = { rows, inDim: input[1], outDim: d.hidden };
    const h1 = ops.dense(this.x1, view('w1'), view('b1'), { ...s1, activation: 'tanh' });
    const o1 = { rows, inDim: d.hidden, outDim: STAGE_WIDTH[1] };
    const heads1 = ops.dense(h1.y, view('w1h'), view('b1h'), { ...o1, activation: 'identity' }).z;
    const tier = sample(heads1, null, HEADS.tier);
    const insertion = sample(heads1, null, HEADS.insertion);
    // Stage 2 sees the insertion position it was given.
    const x2 = this.x2.slice();
    ops.oneHot(insertion.actions, { rows, stride: input[2], offset: d.dModel, width: HEADS.insertion.width }, x2);
    const mask3 = ops.knob3Mask(insertion.actions);
    const s2 = { rows, inDim: input[2], outDim: d.hidden };
    const h2 = ops.dense(x2, view('w2'), view('b2'), { ...s2, activation: 'tanh' });
    const o2 = { rows, inDim: d.hidden, outDim: STAGE_WIDTH[2] };
    const heads2 = ops.dense(h2.y, view('w2h'), view('b2h'), { ...o2, activation: 'identity' }).z;
    const topK = sample(heads2, null, HEADS.topK);
    const knob3 = sample(heads2, mask3, HEADS.knob3);
    // Rewards, advantages, loss (on-policy: old and reference log-probs are the current ones).
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
    const loss = computeLoss(ops, {
      shape: { rows, tokens: T },
      logp: logpTok,
      oldLogp: logpTok,
      refLogp: logpTok,
      mask: tokenMask,
      advantages: adv.advantages,
      rewards,
      settings: { ...c.loss, lossType: c.lossType, groupSize: k },
    });
    // Backward: each head's d loss / d logits into its stage's gradient, then each stage's trunk.
    const grads = new Float32Array(this.params.length);
    const put = (name: keyof typeof t, value: Float32Array) => grads.set(value, t[name].offset);
    const dHeads = { 1: new Float32Array(rows * STAGE_WIDTH[1]), 2: new Float32Array(rows * STAGE_WIDTH[2]) };
    for (const [head, s, mask] of [
      [HEADS.tier, tier, null],
      [HEADS.insertion, insertion, null],
      [HEADS.topK, topK, null],
      [HEADS.knob3, knob3, mask3],
    ] as const) {
      const shape = headShape(head.name, rows);
      ops.logProbBackward(s.probs, s.actions, mask, loss.gradLogp, shape, { stride: T, column: head.column }, dHeads[head.stage]);
    }
    for (const [stage, x, h, o, s] of [
      [1, this.x1, h1, o1, s1],
      [2, x2, h2, o2, s2],
    ] as const) {
      const head = ops.denseBackwardWeight(h.y, dHeads[stage], o);
      put(stage === 1 ? 'w1h' : 'w2h', head.dw);
      put(stage === 1 ? 'b1h' : 'b2h', head.db);
      const dy = ops.denseBackwardInput(dHeads[stage], view(stage === 1 ? 'w1h' : 'w2h'), o);
      const dz = ops.activationBackward(h.z, dy, 'tanh');
      const trunk = ops.denseBackwardWeight(x, dz, s);
      put(stage === 1 ? 'w1' : 'w2', trunk.dw);
      put(stage === 1 ? 'b1' : 'b2', trunk.db);
    }
    return { grads, loss: loss.loss, meanReward: adv.meanReward };
  }
}
