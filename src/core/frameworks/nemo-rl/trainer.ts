// NeMo RL's loss normaliser and micro-batches per optimizer step (7ea279a):
// - DTensorPolicyWorker.train (models/policy/workers/dtensor_policy_worker.py): one optimizer step per global batch of
//   train_global_batch_size samples; before its micro-batches it all-reduces global_valid_seqs (Σ sample_mask) and
//   global_valid_toks (Σ token_mask[:, 1:] × sample_mask) over the data-parallel ranks; each micro-batch's loss is
//   multiplied by dp_size × cp_size ("we want to sum them so we cancel out the average here") before backward, and
//   FSDP averages the gradients over dp × cp: the two cancel, so the applied update is the sum of the ranks' losses.
// - ClippedPGLossFn (algorithms/loss/loss_functions.py): token_level_loss true (shipped) → masked_mean(loss, mask,
//   global_normalization_factor=global_valid_toks); false → masked_mean(masked_mean(loss, token_mask, dim=-1),
//   sample_mask, global_normalization_factor=global_valid_seqs). masked_mean divides by (factor + 1e-8)
//   (algorithms/utils.py). Under sequence packing SequencePackingLossWrapper sums the per-sequence losses (the same).
// - Sequence packing: a rank with fewer bins than the most in the global batch runs dummy micro-batches (its own bins
//   cycled) whose loss is multiplied by 0.
import { ConfigError } from '../../errors.ts';
import {
  microBatch,
  offPolicyFinding,
  paddingFinding,
  type TrainerWithFindings,
  tokensOf,
  versions,
  weightSpreadFinding,
} from '../trainer.ts';
import type { TrainerMicroBatch, TrainerStep } from '../types.ts';
import { dispatchStep } from './dispatch.ts';
import { resolveRun } from './resolve.ts';

/** masked_mean's guard against an empty mask (algorithms/utils.py). */
const EPS = 1e-8;
const roundUp = (x: number, m: number) => Math.ceil(x / m) * m;

export const trainer: TrainerWithFindings = {
  losses: ['true', 'false'],
  lossFlag: 'token-level-loss',
  sequenceRatio: [],
  about:
    'loss_fn.token_level_loss true: Σ token losses / global_valid_toks, the completion tokens of the global batch on all ranks; ' +
    'false: each sequence averaged over its tokens, then Σ / global_valid_seqs; × dp_size × cp_size against FSDP’s average, so ranks sum.',
  optimizerSteps(step, completionTokens, settings, loss, firstIndex) {
    const run = resolveRun(settings);
    const seqlens = step.seqlens;
    if (!seqlens) throw new ConfigError('NeMo RL steps need the step’s token counts (the layout gives them)');
    const { micro } = dispatchStep(seqlens, run.dp, run.gbs, run.mode);
    const chunks = seqlens.length / run.gbs;
    const mode = run.mode;
    // Padding: plain micro-batches are slices of the step's batch, padded to its longest (rounded to the multiple);
    // dynamic ones are cut to their longest over the ranks, rounded; packed sequences are each rounded up.
    const width = roundUp(Math.max(...seqlens), mode.kind === 'plain' ? 1 : mode.padMultiple);
    const padding = (mb: readonly number[], m: number, c: number): number => {
      const sum = tokensOf(mb, seqlens);
      if (mode.kind === 'plain') return mb.length * width - sum;
      if (mode.kind === 'packing') return mb.reduce((a, i) => a + roundUp(seqlens[i]!, mode.padMultiple), 0) - sum;
      const same = micro.map((r) => r.filter((x) => Math.floor(x[0]! / run.gbs) === c)[m] ?? []);
      const longest = Math.max(...same.flat().map((i) => seqlens[i]!));
      return mb.length * Math.min(roundUp(longest, mode.round), width) - sum;
    };
    const out: TrainerStep[] = [];
    for (let c = 0; c < chunks; c++) {
      const v = versions(firstIndex, c);
      const mine = micro.map((r) => r.filter((mb) => Math.floor(mb[0]! / run.gbs) === c));
      const inChunk = Array.from({ length: run.gbs }, (_, i) => c * run.gbs + i);
      const toks = tokensOf(inChunk, completionTokens);
      const seqs = run.gbs;
      const most = Math.max(...mine.map((r) => r.length));
      const microBatches: TrainerMicroBatch[] = [];
      mine.forEach((mbs, rank) => {
        mbs.forEach((mb, m) => {
          const token = loss === 'true';
          microBatches.push(
            microBatch({
              rank,
              samples: mb,
              completionTokens,
              padding: padding(mb, m, c),
              normaliser: token
                ? `Σ token losses / (global_valid_toks ${toks} + 1e-8), × dp_size ${run.dp} against FSDP's mean over ${run.dp}`
                : `Σ sequence means / (global_valid_seqs ${seqs} + 1e-8), × dp_size ${run.dp} against FSDP's mean over ${run.dp}`,
              weight: mb.map((i) => (token ? 1 / (toks + EPS) : 1 / ((completionTokens[i]! + EPS) * (seqs + EPS)))),
              ...v,
            }),
          );
        });
        for (let d = 0; d < most - mbs.length; d++) {
          const copy = mbs[d % mbs.length] ?? [];
          microBatches.push(
            microBatch({
              rank,
              samples: [],
              completionTokens,
              padding: copy.reduce((a, i) => a + roundUp(seqlens[i]!, mode.kind === 'plain' ? 1 : mode.padMultiple), 0),
              normaliser: `dummy micro-batch (a copy of this rank's bin ${d % Math.max(1, mbs.length)}, cycled, to match ${most} bins): loss *= 0`,
              weight: 0,
              ...v,
            }),
          );
        }
      });
      out.push({ index: firstIndex + c, microBatches });
    }
    return out;
  },
  findings(run) {
    const token = run.loss === 'true';
    const packing = run.settings['sequence-packing'] === true;
    return [
      weightSpreadFinding(run.steps, token ? 'packing' : 'sample-mean'),
      packing ? paddingFinding(run.steps) : null,
      offPolicyFinding(run.steps),
    ].filter((s): s is string => s !== null);
  },
};
