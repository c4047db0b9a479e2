// SkyRL's loss normaliser and micro-batches per optimizer step (a956457):
// - RayPPOTrainer._normalize_advantages (skyrl/train/trainer.py): once per training step, for each mini-batch of
//   policy_mini_batch_size prompts (contiguous, before dispatch), apply_loss_reduction_to_advantages_minibatch
//   (backends/skyrl_train/utils/ppo_utils.py) rescales the advantages: token_mean ÷ the mini-batch's loss-mask tokens
//   (clamp 1); token_mean_legacy ÷ each chunk's tokens of micro_train_batch_size_per_gpu samples of the mini-batch
//   (in trainer order, not per rank) ÷ the chunk count (samples past the last whole chunk get 0); sequence_mean ÷ (B × the
//   sequence's tokens); seq_mean_token_sum_norm ÷ (B × max_seq_len); prompt_mean ÷ (prompts × the prompt's tokens).
// - The workers (backends/skyrl_train/workers/worker.py) sum token losses (reduce_loss), multiply by dp_size
//   (grad_sum_correction_factor) and FSDP averages over dp: the applied weight is the rescaling itself.
// - Each pass of update_epochs_per_batch repeats the mini-batches, one optimizer step each.
import { ConfigError } from '../../errors.ts';
import { intSetting } from '../settings.ts';
import {
  chunks,
  microBatch,
  offPolicyFinding,
  paddingFinding,
  scaleFinding,
  type TrainerWithFindings,
  tokensOf,
  versions,
  weightSpreadFinding,
} from '../trainer.ts';
import type { TrainerMicroBatch, TrainerStep } from '../types.ts';
import { dpSizes } from './checks.ts';
import { skyrlMicroBatches } from './packing.ts';
import { ranked, sizesOf } from './sizes.ts';
import { skyrlSays } from './version.ts';

const LOSSES = ['token_mean', 'token_mean_legacy', 'sequence_mean', 'seq_mean_token_sum_norm', 'prompt_mean'] as const;

/** Each sample's factor in one mini-batch (samples start … start + size − 1), and the normaliser in words. */
function scaling(
  loss: string,
  start: number,
  size: number,
  k: number,
  tokens: readonly number[],
  micro: number,
  maxSeqLen: number | null,
): { factor: (i: number) => number; normaliser: (i: number) => string } {
  const ids = Array.from({ length: size }, (_, j) => start + j);
  const clamp = (x: number) => Math.max(x, 1);
  if (loss === 'token_mean') {
    const t = clamp(tokensOf(ids, tokens));
    return { factor: () => 1 / t, normaliser: () => `advantages ÷ the mini-batch's loss-mask tokens ${t} (all ranks)` };
  }
  if (loss === 'token_mean_legacy') {
    const n = Math.floor(size / micro);
    const chunkTokens = chunks(ids, micro).map((c) => clamp(tokensOf(c, tokens)));
    return {
      factor: (i) => ((i - start) / micro < n ? 1 / chunkTokens[Math.floor((i - start) / micro)]! / n : 0),
      normaliser: (i) =>
        (i - start) / micro < n
          ? `advantages ÷ tokens ${chunkTokens[Math.floor((i - start) / micro)]} of its chunk of ${micro} mini-batch samples ÷ ${n} chunks`
          : `past the last whole chunk of ${micro}: advantages × 0`,
    };
  }
  if (loss === 'sequence_mean')
    return {
      factor: (i) => 1 / (size * clamp(tokens[i]!)),
      normaliser: () => `advantages ÷ (mini-batch ${size} × the sequence's tokens)`,
    };
  if (loss === 'seq_mean_token_sum_norm') {
    if (maxSeqLen === null)
      throw new ConfigError(
        skyrlSays(
          "ValueError: `trainer.algorithm.max_seq_len` must be set explicitly when `trainer.algorithm.loss_reduction='seq_mean_token_sum_norm'`. " +
            'Choose the total sequence-length normalization constant for your setup; this often matches the model context window / vLLM ' +
            '`max_model_len` when appropriate.',
        ),
      );
    return {
      factor: () => 1 / (size * maxSeqLen),
      normaliser: () => `advantages ÷ (mini-batch ${size} × max_seq_len ${maxSeqLen})`,
    };
  }
  // prompt_mean: a prompt's k samples are contiguous in generation order; boundaries are those starting in the mini-batch.
  const first = Math.ceil(start / k) * k;
  const prompts = Math.ceil((start + size - first) / k);
  const promptTokens = (i: number) => {
    const p = Math.floor(i / k) * k;
    return clamp(
      tokensOf(
        Array.from({ length: k }, (_, j) => p + j).filter((x) => x < start + size),
        tokens,
      ),
    );
  };
  return {
    factor: (i) => (i >= first ? 1 / (prompts * promptTokens(i)) : 0),
    normaliser: () => `advantages ÷ (${prompts} prompts × the prompt's tokens)`,
  };
}

export const trainer: TrainerWithFindings = {
  losses: LOSSES,
  lossFlag: 'loss-reduction',
  sequenceRatio: [],
  about:
    'trainer.algorithm.loss_reduction rescales the advantages per mini-batch before dispatch (token_mean: ÷ the mini-batch’s ' +
    'loss-mask tokens on all ranks); workers sum the token losses × dp_size against FSDP’s mean, so the applied weight of a token is its rescaling.',
  optimizerSteps(step, completionTokens, given, loss, firstIndex) {
    const settings = ranked(given);
    const s = sizesOf(settings);
    const dp = dpSizes(s).policyDp;
    const micro = intSetting(settings, 'micro-train-batch-size-per-gpu');
    const maxTokens = intSetting(settings, 'max-tokens-per-microbatch');
    const passes = intSetting(settings, 'update-epochs-per-batch');
    const maxSeqLen = settings['max-seq-len'] === null ? null : intSetting(settings, 'max-seq-len');
    if (maxTokens > 0 && !step.seqlens)
      throw new ConfigError('SkyRL packs micro-batches by token counts under max_tokens_per_microbatch > 0: give them with --seqlens FILE');
    const n = step.prompts.length * s.k;
    const miniSamples = s.miniBatchSize * s.k;
    const lengths = step.seqlens ?? completionTokens;
    const out: TrainerStep[] = [];
    const starts = Array.from({ length: Math.ceil(n / miniSamples) }, (_, m) => m * miniSamples);
    for (let pass = 0; pass < passes; pass++) {
      for (const start of starts) {
        const size = Math.min(miniSamples, n - start);
        const v = versions(firstIndex, out.length);
        const scale = scaling(loss, start, size, s.k, completionTokens, micro, maxSeqLen);
        const packed = skyrlMicroBatches(lengths.slice(start, start + size), dp, micro, maxTokens);
        const piece = Math.ceil(size / dp);
        const microBatches: TrainerMicroBatch[] = [];
        packed.ranks.forEach((mbs, rank) => {
          // stage_chunks' dummies (copies of the mini-batch's first sample, loss_mask 0) close the last ranks' pieces.
          const dummies = Math.max(0, (rank + 1) * piece - Math.max(size, rank * piece));
          mbs.forEach((mb, m) => {
            const samples = mb.map((j) => start + j);
            microBatches.push(
              microBatch({
                rank,
                samples,
                completionTokens,
                padding: m === mbs.length - 1 ? dummies * (lengths[start] ?? 0) : 0,
                normaliser: samples.length
                  ? scale.normaliser(samples[0]!)
                  : 'padding micro-batch: no samples (the ranks run the most micro-batches)',
                weight: samples.map(scale.factor),
                ...v,
              }),
            );
          });
        });
        out.push({ index: firstIndex + out.length, microBatches });
      }
    }
    return out;
  },
  findings(run) {
    const loss = run.loss;
    return [
      weightSpreadFinding(run.steps, loss === 'token_mean_legacy' ? 'micro-batch' : loss === 'prompt_mean' ? 'prompt-mean' : 'sample-mean'),
      loss === 'seq_mean_token_sum_norm'
        ? scaleFinding(
            run,
            'seq_mean_token_sum_norm divides each sequence’s token sum by max_seq_len, so the update shrinks with shorter completions',
          )
        : loss === 'token_mean_legacy'
          ? scaleFinding(run, 'token_mean_legacy gives 0 to the samples past the last whole chunk of micro_train_batch_size_per_gpu')
          : null,
      paddingFinding(run.steps),
      offPolicyFinding(run.steps),
    ].filter((x): x is string => x !== null);
  },
};
