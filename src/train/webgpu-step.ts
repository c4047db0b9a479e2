// `train --backend webgpu`: the data-parallel step of step.ts with each rank's tensors on its own
// GPU device, run as the fused step of src/gpu/fused-step.ts. Per step and rank:
//   1. rollout on the GPU (one submission, preceded by the previous step's Adam); the actions come back;
//   2. the host scores them (step.ts's scoring, the same Philox draws) and all-gathers rewards,
//      expected rewards and prompt ids (collective 1), then computes the scheme's advantages;
//   3. loss and backward on the GPU (one submission); the gradients and the metric sums come back;
//   4. one allReduce(mean) of them (collective 2), clip_grad_norm_'s factor on the host (the CPU
//      reference's gradNorm over the same reduced gradients), and Adam queued on the GPU.
// Two submissions and two readbacks per step, both readbacks being what a collective sends: the
// step needs every rank's rewards before its loss and every rank's gradients before Adam, so a
// single submission per step is not possible while the collectives run between ranks' devices.
// Metrics need no readback of their own (they ride on the collectives, as on the CPU path);
// parameters come back only for the replica checksum and the checkpoint.
// Same results as the CPU path within float32 tolerance (test/train/gpu-train.test.ts): the same
// samples and rewards, the loss and gradients summed in float32 by the kernels. What it does not
// run (config.ts's fusedStepUnsupported): β > 0, dynamic sampling, and the pairwise loss except on
// one rank whose rows hold each prompt's k samples side by side.
import { HEADS, HEAD_LIST, INSERTION_POSITIONS, stageInputs, type HeadName } from '../core/env/controller.ts';
import { cacheLatencyTokens, latencyToken, scoreSample, type Task } from '../core/env/task.ts';
import { schemeAdvantages } from '../core/grpo/schemes.ts';
import { FusedStep, type TransferCounts } from '../gpu/fused-step.ts';
import { ADAM_DEFAULTS } from '../ops/cpu/adam.ts';
import { gradNorm } from '../ops/cpu/gradNorm.ts';
import type { Rank } from '../ranks/rank.ts';
import { contiguousGroups, fusedStepUnsupported, type TrainConfig } from './config.ts';
import { gatherSamples, rewardStats, std, type StepMetrics, type TrainState } from './step.ts';

export type { TransferCounts } from '../gpu/fused-step.ts';

/** One rank's fused step and the host's share of it. */
export class WebGpuTrainer {
  private constructor(
    private readonly gpu: FusedStep,
    private readonly task: Task,
    private readonly c: TrainConfig,
  ) {}

  /** Builds the fused step on the rank's device with the replica's current tensors. */
  static async create(device: GPUDevice, task: Task, c: TrainConfig, state: TrainState): Promise<WebGpuTrainer> {
    const unsupported = fusedStepUnsupported(c);
    if (unsupported) throw new Error(`the fused WebGPU step does not run ${unsupported}`);
    const gpu = await FusedStep.create(
      device,
      {
        dims: c.dims,
        rows: c.batch,
        seed: c.seed,
        loss: {
          lossType: c.loss,
          epsilonLow: c.epsilonLow,
          epsilonHigh: c.epsilonHigh,
          beta: c.beta,
          maxCompletionLength: HEAD_LIST.length,
          groupSize: c.k,
        },
        adam: { ...ADAM_DEFAULTS, lr: c.lr },
      },
      state,
    );
    return new WebGpuTrainer(gpu, task, c);
  }

  /** Submissions and readbacks so far. */
  get counts(): TransferCounts {
    return { ...this.gpu.counts };
  }

  /** One training step on this rank (every rank calls it); returns the step's metrics, as trainStep does. */
  async step(rank: Rank, state: TrainState, promptIds: readonly number[]): Promise<StepMetrics> {
    const { c, task } = this;
    const rows = promptIds.length;
    if (rows !== c.batch) throw new Error(`the fused step was built for ${c.batch} rows per rank, got ${rows}`);
    const rowOffset = rank.rank * rows;
    const d = c.dims.dModel;
    const s1 = stageInputs(c.dims)[1];
    const P = INSERTION_POSITIONS.length;
    const x1 = new Float32Array(rows * s1);
    const candidates = new Float32Array(rows * P * d);
    cacheLatencyTokens(task, promptIds); // the step's new prompts together (blocked)
    promptIds.forEach((id, r) => {
      x1.set(task.prompts.stage1Input.subarray(id * s1, (id + 1) * s1), r * s1);
      for (let p = 1; p <= P; p++) latencyToken(task, id, p, candidates, (r * P + p - 1) * d);
    });
    const actions = await this.gpu.rollout(x1, candidates, { step: state.step, rowOffset });
    const of = (h: HeadName, r: number) => actions[HEADS[h].column * rows + r]!;
    const rewards = new Float32Array(rows);
    const expected = new Float32Array(rows);
    for (let r = 0; r < rows; r++) {
      const a = { tier: of('tier', r), insertion: of('insertion', r), topK: of('topK', r), knob3: of('knob3', r) };
      const s = scoreSample(task, promptIds[r]!, a, c.reward, { seed: c.seed, step: state.step, gatheredIndex: rowOffset + r });
      rewards[r] = s.reward;
      expected[r] = s.expected;
    }
    const gathered = await gatherSamples(rank, rewards, expected, promptIds);
    const advantages = schemeAdvantages(c.advantage, {
      rewards: gathered.rewards,
      promptIds: gathered.promptIds,
      k: c.k,
      ranks: rank.size,
    });
    // The pairwise loss ranks this rank's rows in contiguous groups (one rank only: fusedStepUnsupported).
    if (c.loss === 'pairwise' && !contiguousGroups(promptIds, c.k))
      throw new Error(
        `the fused pairwise loss needs each prompt's ${c.k} samples side by side; step ${state.step} gives ${promptIds.join(', ')}`,
      );
    const back = await this.gpu.backward(
      Float32Array.from(advantages.slice(rowOffset, rowOffset + rows)),
      gathered.rewards.subarray(rowOffset, rowOffset + rows),
    );
    const L = back.length - 1 - HEAD_LIST.length;
    // The all-reduce payload of step.ts: gradients, then [loss, KL sum, clipped tokens, entropy sums].
    // KL: no reference at β = 0. Clipped: on-policy with one pass the ratio is e^0 = 1 exactly, so
    // no token is clipped (the CPU path counts them and finds 0 for the same reason).
    const payload = new Float32Array(L + 3 + HEAD_LIST.length);
    payload.set(back.subarray(0, L));
    payload[L] = back[L]!;
    payload.set(back.subarray(L + 1), L + 3);
    const reduced = await rank.allReduce(payload, { op: 'mean' });
    const grads = reduced.subarray(0, L);
    const sums = Array.from(reduced.subarray(L), (mean) => mean * rank.size);
    const clip = gradNorm(grads, c.maxGradNorm);
    state.step++;
    this.gpu.queueAdam(grads, clip.scale, state.step);

    const n = gathered.rewards.length;
    const T = HEAD_LIST.length;
    return {
      step: state.step,
      ...rewardStats(task, gathered),
      loss: sums[0]! / rank.size,
      kl: null,
      entropy: Object.fromEntries(HEAD_LIST.map((h, i) => [h.name, sums[3 + i]! / n])) as Record<HeadName, number>,
      clipFraction: sums[2]! / (n * T),
      gradNorm: clip.norm,
      advantageStd: std(advantages),
    };
  }

  /** Copies the device's parameters and moments into `state` (for the replica checksum and checkpoints). */
  async syncState(state: TrainState): Promise<void> {
    const t = await this.gpu.readState();
    state.params.set(t.params);
    state.m.set(t.m);
    state.v.set(t.v);
  }

  /** Uploads `state`'s parameters and moments (call syncState first). */
  writeState(state: TrainState): void {
    this.gpu.writeState(state);
  }

  destroy(): void {
    this.gpu.destroy();
  }
}
