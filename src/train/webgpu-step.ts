// `train --backend webgpu`: the data-parallel step of step.ts with each rank's tensors on its own
// GPU device, run as the fused step of src/gpu/fused-step.ts.
//   One rank (the collectives are identities): each step is ONE command submission, from the
//   rollout to Adam, with the rewards looked up on the device (the bank's reward table), the
//   scheme's advantages, the gradient norm and Adam there too; the host only uploads the step's
//   rows and the advantages' groups (from the prompt ids, known without the device). Nothing comes
//   back per step: `results` maps the metric ring once for every step since the last call (the
//   caller asks every checksumEvery steps and at the end of each call from the main thread, and
//   run.ts ends those calls on a check), with the parameters when a replica check wants them.
//   W ranks: the step needs every rank's rewards before its advantages and every rank's gradients
//   before Adam, so it is two submissions, each ending in a collective's payload:
//     1. the previous step's Adam, the rollout and the rewards (one submission); the rewards and
//        expected rewards come back and are all-gathered with the prompt ids (collective 1); the
//        host computes the scheme's advantages over the gathered batch (as step.ts does);
//     2. the loss and the backward pass (one submission); the gradients and the metric sums come
//        back and are all-reduced (collective 2); clip_grad_norm_'s factor on the host (the CPU
//        reference's gradNorm over the same reduced gradients), and Adam queued on the device.
//   Two submissions and two readbacks per step, and no other: the metrics ride on the collectives,
//   as on the CPU path; parameters come back only for the replica checksum and the checkpoint.
// Same results as the CPU path within float32 tolerance (test/train/gpu-train.test.ts): the same
// samples and rewards (the table holds the CPU's float32 rewards), the loss, advantages (one rank)
// and gradients summed in float32 by the kernels. What it does not run (config.ts's
// fusedStepUnsupported): dynamic sampling, micro-steps, and the pairwise loss except on one rank
// whose rows hold each prompt's k samples side by side. β > 0 runs fused: the reference policy's
// forward pass and the KL term are dispatches of the backward half.
import { HEAD_LIST, INSERTION_POSITIONS, stageInputs } from '../core/env/controller.ts';
import { rewardTable } from '../core/env/reward-table.ts';
import { cacheLatencyTokens, CORRECTNESS_STREAM, latencyToken, VALID_CONFIGS, type Task } from '../core/env/task.ts';
import { simdLatencyTokens } from '../ops/fast/latencyTokens.ts';
import { schemeGroups } from '../core/grpo/scheme-groups.ts';
import { schemeAdvantages } from '../core/grpo/schemes.ts';
import { DEVICE_SUMS, FusedStep, type DeviceStepMetrics, type StepRows, type TransferCounts } from '../gpu/fused-step.ts';
import { ADAM_DEFAULTS } from '../ops/cpu/adam.ts';
import { gradNorm } from '../ops/cpu/gradNorm.ts';
import type { Rank } from '../ranks/rank.ts';
import { contiguousGroups, fusedStepUnsupported, lossOpType, type TrainConfig } from './config.ts';
import { type MetricSums, type SumKey, stepMetrics, SUM_FLOATS, writeSums, zeroSums } from './metrics.ts';
import { gatherSamples, rewardStats, std, type Gathered, type StepMetrics, type TrainState } from './step.ts';

/** The device's sums are metrics of the table (a name it does not list fails to compile here). */
const DEVICE_SUM_KEYS: readonly SumKey[] = DEVICE_SUMS;

/**
 * A step's metric sums from the device's (by name); the rest are 0: on-policy with one pass the ratio
 * is e^0 = 1 exactly, so no token is clipped or off-policy (the CPU path counts them and finds 0 for the same reason).
 */
function sumsOf(device: ArrayLike<number>): MetricSums {
  const sums = zeroSums();
  DEVICE_SUM_KEYS.forEach((key, i) => {
    sums[key] = device[i]!;
  });
  return sums;
}

export type { TransferCounts } from '../gpu/fused-step.ts';

/** The most steps one rank's metric ring holds between two reads (a call from the main thread runs at most 64). */
const METRIC_SLOTS = 64;

/** One rank's step submitted whose metrics are still on the device. */
interface OnDevice {
  step: number;
  promptIds: Int32Array;
}

/** One rank's fused step and the host's share of it. */
export class WebGpuTrainer {
  /** One rank: the steps whose metrics are in the ring. W ranks: the metrics of the steps since the last `results`. */
  private onDevice: OnDevice[] = [];
  private done: StepMetrics[] = [];
  /** The last step asked for the parameters (W ranks: read back in `results`). */
  private stateWanted = false;

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
          lossType: lossOpType(c),
          epsilonLow: c.epsilonLow,
          epsilonHigh: c.epsilonHigh,
          beta: c.beta,
          maxCompletionLength: HEAD_LIST.length,
          groupSize: c.k,
        },
        adam: { ...ADAM_DEFAULTS, lr: c.lr },
        ranks: c.ranks,
        rewardTable: rewardTable(task, c.reward),
        configs: VALID_CONFIGS.length,
        rewardStream: CORRECTNESS_STREAM,
        metricSlots: Math.min(METRIC_SLOTS, c.checksumEvery),
        maxGradNorm: c.maxGradNorm,
      },
      { params: state.params, m: state.m, v: state.v, ref: state.ref },
    );
    return new WebGpuTrainer(gpu, task, c);
  }

  /** Submissions and readbacks so far. */
  get counts(): TransferCounts {
    return { ...this.gpu.counts };
  }

  /** The rows' device inputs: prompt features, latency tokens, prompt ids and the sampling key. */
  private rowsOf(rank: Rank, state: TrainState, promptIds: readonly number[]): StepRows {
    const { c, task } = this;
    const rows = promptIds.length;
    if (rows !== this.c.batch) throw new Error(`the fused step was built for ${this.c.batch} rows per rank, got ${rows}`);
    // The pairwise loss ranks this rank's rows in contiguous groups (one rank only: fusedStepUnsupported).
    if (c.loss === 'pairwise' && !contiguousGroups(promptIds, c.k))
      throw new Error(
        `the fused pairwise loss needs each prompt's ${c.k} samples side by side; step ${state.step} gives ${promptIds.join(', ')}`,
      );
    const d = c.dims.dModel;
    const s1 = stageInputs(c.dims)[1];
    const P = INSERTION_POSITIONS.length;
    const x1 = new Float32Array(rows * s1);
    const candidates = new Float32Array(rows * P * d);
    cacheLatencyTokens(task, promptIds, simdLatencyTokens); // the step's new prompts together (the reference's bits)
    promptIds.forEach((id, r) => {
      x1.set(task.prompts.stage1Input.subarray(id * s1, (id + 1) * s1), r * s1);
      for (let p = 1; p <= P; p++) latencyToken(task, id, p, candidates, (r * P + p - 1) * d);
    });
    return { x1, candidates, promptIds: Uint32Array.from(promptIds), key: { step: state.step, rowOffset: rank.rank * rows } };
  }

  /**
   * One training step on this rank (every rank calls it). `readState`: the parameters after it are
   * wanted (the replica check), and `results` puts them into the state. Its metrics come from `results`.
   */
  async step(rank: Rank, state: TrainState, promptIds: readonly number[], options: { readState?: boolean } = {}): Promise<void> {
    const rows = this.rowsOf(rank, state, promptIds);
    this.stateWanted = options.readState ?? false;
    if (rank.size === 1) {
      if (this.onDevice.length === this.gpu.settings.metricSlots) this.done.push(...(await this.readRing(state)));
      const c = this.c;
      const ids = Int32Array.from(promptIds);
      // The groups need only the prompt ids: the rewards stay on the device.
      const groups = schemeGroups(c.advantage, { rewards: new Float32Array(ids.length), promptIds: ids, k: c.k, ranks: 1 });
      state.step++;
      this.gpu.stepOnDevice(rows, groups, state.step, this.stateWanted);
      this.onDevice.push({ step: state.step, promptIds: ids });
      return;
    }
    this.done.push(await this.stepAcrossRanks(rank, state, rows));
  }

  /** The metrics of every step since the last call, oldest first; with the parameters and moments in `state` when the last step asked. */
  async results(state: TrainState): Promise<StepMetrics[]> {
    if (this.onDevice.length > 0) this.done.push(...(await this.readRing(state)));
    else if (this.stateWanted) await this.syncState(state);
    this.stateWanted = false;
    return this.done.splice(0);
  }

  /** One rank: the ring's metrics (one readback) as step.ts's metrics. */
  private async readRing(state: TrainState): Promise<StepMetrics[]> {
    const { steps, state: tensors } = await this.gpu.readMetrics();
    if (tensors) {
      state.params.set(tensors.params);
      state.m.set(tensors.m);
      state.v.set(tensors.v);
    }
    return this.onDevice.splice(0).map((s, i) => this.metricsOf(s, steps[i]!));
  }

  /**
   * step.ts's metrics of one rank's step from what the device kept. The reward statistics and the
   * advantages' std are computed here in float64 from the float32 rewards, as the CPU path computes
   * them (the device's own advantages, summed in float32, differ from these by rounding only).
   */
  private metricsOf(s: OnDevice, m: DeviceStepMetrics): StepMetrics {
    const gathered: Gathered = { rewards: m.rewards, expected: m.expected, promptIds: s.promptIds };
    const advantages = schemeAdvantages(this.c.advantage, { rewards: m.rewards, promptIds: s.promptIds, k: this.c.k, ranks: 1 });
    const n = m.rewards.length;
    // One rank: the device's sums are the reduction (float32, as the payload would carry them).
    const reduced = new Float32Array(SUM_FLOATS);
    writeSums(reduced, 0, sumsOf(DEVICE_SUMS.map((key) => m.sums[key])));
    return stepMetrics({
      step: s.step,
      reduced,
      counts: { ranks: 1, rows: n, tokens: n * HEAD_LIST.length },
      gathered: { ...rewardStats(this.task, gathered), advantageStd: std(advantages) },
      gradNorm: m.gradNorm,
      reference: this.c.beta > 0,
    });
  }

  /** W ranks: the two halves around the two collectives; returns the step's metrics, as trainStep does. */
  private async stepAcrossRanks(rank: Rank, state: TrainState, stepRows: StepRows): Promise<StepMetrics> {
    const { c, task } = this;
    const rows = stepRows.promptIds.length;
    const rowOffset = stepRows.key.rowOffset;
    const scored = await this.gpu.rollout(stepRows);
    const gathered = await gatherSamples(rank, scored.subarray(0, rows), scored.subarray(rows), Array.from(stepRows.promptIds));
    const advantages = schemeAdvantages(c.advantage, {
      rewards: gathered.rewards,
      promptIds: gathered.promptIds,
      k: c.k,
      ranks: rank.size,
    });
    const back = await this.gpu.backward(Float32Array.from(advantages.slice(rowOffset, rowOffset + rows)));
    const L = back.length - DEVICE_SUMS.length;
    // The all-reduce payload of step.ts: the gradients, then the metric sums in the table's order.
    const payload = new Float32Array(L + SUM_FLOATS);
    payload.set(back.subarray(0, L));
    writeSums(payload, L, sumsOf(back.subarray(L)));
    const reduced = await rank.allReduce(payload, { op: 'mean' });
    const grads = reduced.subarray(0, L);
    const clip = gradNorm(grads, c.maxGradNorm);
    state.step++;
    this.gpu.queueAdam(grads, clip.scale, state.step);

    const n = gathered.rewards.length;
    return stepMetrics({
      step: state.step,
      reduced: reduced.subarray(L),
      counts: { ranks: rank.size, rows: n, tokens: n * HEAD_LIST.length },
      gathered: { ...rewardStats(task, gathered), advantageStd: std(advantages) },
      gradNorm: clip.norm,
      reference: c.beta > 0,
    });
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
