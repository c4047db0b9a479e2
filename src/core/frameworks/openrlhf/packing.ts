// OpenRLHF's token-budget micro-batches (--train.dynamic_batch_enable) @ 3c3be62:
// after dispatch (dispatch.ts), every actor's NaiveReplayBuffer.setup_dynamic_batch
// (trainer/ppo_utils/replay_buffer.py) cuts its samples into optimizer steps of
// train.batch_size // DP consecutive samples (the number of steps is the MIN over ranks of
// min(rollout.batch_size × n // train.batch_size, samples // that)), takes for each step the MAX over ranks of the
// first-fit micro-batch count within train.max_tokens_per_gpu, and splits the step into that many
// balanced partitions (equal_size=False). Samples past the last whole step are not trained on.
import { ConfigError } from '../../errors.ts';
import type { FrameworkSettings, PackedStep, PackerDef } from '../types.ts';
import { type Parallel, balancedPartitions, dispatchStep, minimumMicroBatches } from './dispatch.ts';
import { type RunSizes, runSizes } from './sizes.ts';
import { VERSION } from './version.ts';
import { keyBudget } from '../budget.ts';
import { keys } from './keys.ts';

export interface OpenRlhfPackedStep extends PackedStep {
  /** replay_buffer.dynamic_optimizer_step: 1 where a micro-batch ends an optimizer step (the same on every rank). */
  optimizerStepEnds: boolean[];
  /** Samples (indices into the step) that no micro-batch holds, per rank. */
  untrained: number[][];
}

/** setup_dynamic_batch on every rank at once (its all-reduces are MIN over steps, MAX over micro-batch counts). */
export function dynamicMicroBatches(
  ranks: readonly number[][],
  lengths: readonly number[],
  p: Parallel,
  o: { trainBatchSize: number; expectedSteps: number; trainMaxTokens: number },
): OpenRlhfPackedStep {
  // runSizes has refused train.batch_size < DP (OpenRLHF's ZeroDivisionError), so local >= 1.
  const local = Math.floor(o.trainBatchSize / p.effective);
  const steps = Math.min(...ranks.map((r) => Math.min(o.expectedSteps, Math.floor(r.length / local))));
  const out: number[][][] = ranks.map(() => []);
  const ends: boolean[] = [];
  for (let s = 0; s < steps; s++) {
    const slices = ranks.map((r) => r.slice(s * local, (s + 1) * local));
    const count = Math.max(
      ...slices.map((sl) =>
        minimumMicroBatches(
          sl.map((i) => lengths[i]!),
          o.trainMaxTokens,
          p,
        ),
      ),
    );
    slices.forEach((sl, r) => {
      for (const part of balancedPartitions(
        sl.map((i) => lengths[i]!),
        count,
      ))
        out[r]!.push(part.map((j) => sl[j]!));
    });
    for (let m = 0; m < count; m++) ends.push(m === count - 1);
  }
  return {
    ranks: out,
    microBatchesPerRank: ends.length,
    optimizerStepEnds: ends,
    untrained: ranks.map((r) => r.slice(steps * local)),
  };
}

/** The whole path for one step: dispatch (dynamic), then setup_dynamic_batch on every rank. */
export function packStep(lengths: readonly number[], sizes: RunSizes): OpenRlhfPackedStep {
  const { ranks } = dispatchStep(lengths, sizes.parallel, {
    dynamic: true,
    microBatchSize: sizes.rolloutMicroBatch,
    rolloutMaxTokens: sizes.rolloutMaxTokens,
  });
  return dynamicMicroBatches(ranks, lengths, sizes.parallel, {
    trainBatchSize: sizes.trainBatchSize,
    expectedSteps: sizes.optimizerStepsPerStep,
    trainMaxTokens: sizes.trainMaxTokens,
  });
}

export const packing: PackerDef = {
  about:
    '--train.dynamic_batch_enable: rollout micro-batches balanced by total length (rollout.max_tokens_per_gpu), long/short interleaved over the ' +
    'ranks (balance_experiences), then each optimizer step of train.batch_size // DP samples split into the MAX-over-ranks first-fit count of ' +
    'train.max_tokens_per_gpu micro-batches by Karmarkar–Karp (equal_size=False). Without it, each actor draws micro-batches of ' +
    'train.micro_batch_size at random from its replay buffer (DataLoader(shuffle=True) on its own torch RNG), which the sandbox does not reproduce.',
  flags: [
    'dynamic-batch-enable',
    'train-global-batch-size',
    'train-max-tokens-per-gpu',
    'rollout-max-tokens-per-gpu',
    'train-batch-size',
    'k',
    'ranks',
    'actor-num-nodes',
    'ring-attn-size',
    'tensor-parallel-size',
  ],
  // It sets the micro-batch count, and the balanced partitions may pass it.
  budget: (s) => (s['dynamic-batch-enable'] === true ? keyBudget(keys, s, 'train-max-tokens-per-gpu', 'count') : null),
  pack(seqlens: readonly number[], settings: FrameworkSettings): OpenRlhfPackedStep {
    const sizes = runSizes(settings);
    if (!sizes.dynamic) {
      throw new ConfigError(
        `OpenRLHF packs by tokens only with --train.dynamic_batch_enable; without it each rank's replay buffer is read by DataLoader(shuffle=True) ` +
          `in micro-batches of --train.micro_batch_size ${sizes.trainMicroBatch}, in an order drawn from that actor's own torch RNG (${VERSION})`,
      );
    }
    return packStep(seqlens, sizes);
  },
};
