// prime-rl's optimizer step and loss weights (src/prime_rl/trainer/rl/train.py and trainer/rl/loss.py @ 559b447).
// A training step is one optimizer step over every micro-batch of every rank (packing.ts: prepare_batch). Before the
// micro-batch loop, train.py sums the loss-mask tokens of the rank's micro-batches, all-reduces the sum over the dp_cp
// group and takes rl_scale = max(sum, 1); compute_loss divides each micro-batch's summed per-token loss by rl_scale,
// and scale_gradients_ multiplies by fsdp_gradient_divide_factor to undo FSDP's mean over the ranks: every token of
// the step weighs 1 / its global loss tokens. prepare_sample truncates a sample to seq_len; cut tokens do not train.
import { ConfigError } from '../../errors.ts';
import { offPolicyFinding, type TrainerRun, type TrainerWithFindings, versions, weightSpreadFinding } from '../trainer.ts';
import type { FrameworkSettings, FrameworkStep, TrainerMicroBatch, TrainerStep } from '../types.ts';
import { resolveConfig } from './config.ts';
import { prepareBatch } from './packing.ts';
import { PRIME_RL_VERSION } from './version.ts';

export const PRIME_RL_LOSSES = ['global-token-mean'] as const;

/** The loss-mask tokens of sample `i` left after prepare_sample cuts its sequence to `seqLen` (the prompt comes first). */
export function trainedTokens(i: number, seqlens: readonly number[], completionTokens: readonly number[], seqLen: number): number {
  const completion = completionTokens[i] ?? 0;
  const cut = Math.max(0, (seqlens[i] ?? completion) - seqLen);
  return Math.max(0, completion - cut);
}

function optimizerSteps(
  step: FrameworkStep,
  completionTokens: readonly number[],
  settings: FrameworkSettings,
  loss: string,
  firstIndex: number,
): TrainerStep[] {
  if (loss !== 'global-token-mean') {
    throw new ConfigError(`prime-rl has one loss normalisation (global-token-mean), not '${loss}' ${PRIME_RL_VERSION}`);
  }
  const c = resolveConfig(settings);
  if (c.padToMultipleOf > 1) {
    throw new ConfigError(
      `trainer.model.cp ${c.padToMultipleOf}: the loss-mask count is all-reduced over dp × cp before the sequences are sharded; ` +
        `the sandbox models the loss weights with cp 1 ${PRIME_RL_VERSION}`,
    );
  }
  const seqlens = step.seqlens ?? completionTokens;
  const perRank = prepareBatch(seqlens, c.seqLen, c.ranks, c.padToMultipleOf);
  const trained = (i: number) => trainedTokens(i, seqlens, completionTokens, c.seqLen);
  let total = 0;
  for (const rank of perRank) for (const mb of rank) for (const i of mb.samples) total += trained(i);
  const rlScale = Math.max(total, 1);
  const W = c.ranks;
  const weight = ((1 / W) * W) / rlScale;
  const { policyVersion, trainVersion } = versions(firstIndex, 0);
  const microBatches: TrainerMicroBatch[] = perRank.flatMap((rank, r) =>
    rank.map((mb) => {
      let tokens = 0;
      let used = 0;
      for (const i of mb.samples) {
        tokens += trained(i);
        used += Math.min(seqlens[i] ?? 0, c.seqLen);
      }
      const rowTokens = mb.lengths.reduce((a, b) => a + b, 0);
      return {
        rank: r,
        samples: [...mb.samples],
        tokens,
        padding: mb.dummy ? rowTokens : rowTokens - used,
        normaliser: mb.dummy
          ? `a zero-loss copy of the first micro-batch (fills the ranks); rl_scale ${rlScale}`
          : `Σ loss / rl_scale ${rlScale} (loss-mask tokens on all ${W} ranks), FSDP mean × fsdp_gradient_divide_factor ${W}`,
        weights: mb.samples.map(() => weight),
        policyVersion,
        trainVersion,
      };
    }),
  );
  return [{ index: firstIndex, microBatches }];
}

function findings(run: TrainerRun): string[] {
  return [weightSpreadFinding(run.steps, 'micro-batch'), offPolicyFinding(run.steps)].filter((s): s is string => s !== null);
}

export const PRIME_RL_TRAINER: TrainerWithFindings = {
  losses: PRIME_RL_LOSSES,
  lossFlag: null,
  sequenceRatio: [],
  about:
    'one optimizer step per training step; compute_loss divides each micro-batch by rl_scale = the loss-mask tokens of every micro-batch on all ' +
    'ranks (all-reduced before the loop), and the FSDP mean is undone: a global token mean (tokens cut at seq_len do not train)',
  optimizerSteps,
  findings,
};
