// slime's loss normaliser and micro-batches per optimizer step (624b824, Megatron backend):
// - build_dp_schedule (slime/utils/dp_schedule.py, the home's dispatch.ts): the rollout's samples in optimizer steps of
//   global_batch_size, each packed into micro-batches dealt to the ranks (numMicrobatches per rank per step);
// - get_sum_of_sample_mean (slime/backends/megatron_utils/cp_utils.py): --calculate-per-token-loss off (default) sums each
//   sample's (x × loss_mask).sum() / clamp_min(loss_mask.sum(), 1); on, sums the tokens;
// - loss_function (megatron_utils/loss.py): off → loss × num_microbatches / step_global_batch_size × DP×CP and returns
//   num_tokens 1; on → loss × CP and returns num_tokens = Σ clamp_min(loss_mask.sum(), 1);
// - Megatron-LM (transcribed; not in the mirrors): forward_step divides by clamp(num_tokens, 1) and num_microbatches when
//   calculate_per_token_loss is off, and DDP averages the gradients over DP×CP; when it is on, DDP sums and
//   finalize_model_grads divides by the step's num_tokens summed over the ranks.
import { ConfigError } from '../../errors.ts';
import { microBatch, offPolicyFinding, paddingFinding, type TrainerWithFindings, versions, weightSpreadFinding } from '../trainer.ts';
import type { FrameworkSettings, TrainerMicroBatch, TrainerStep } from '../types.ts';
import { resolveRun, VERSION } from './config.ts';
import { buildDpSchedule } from './dispatch.ts';

export function slimeTrainer(ranked: (s: FrameworkSettings) => FrameworkSettings): TrainerWithFindings {
  return {
    losses: ['false', 'true'],
    lossFlag: 'calculate-per-token-loss',
    sequenceRatio: [],
    about:
      '--calculate-per-token-loss off (default): each sample’s token mean, summed, × num_microbatches / the step’s global batch × DP, ' +
      'then Megatron ÷ num_microbatches and DDP’s mean: a mean of sample means over the optimizer step; on: Σ tokens ÷ the step’s tokens on all ranks.',
    optimizerSteps(step, completionTokens, given, loss, firstIndex) {
      const settings = ranked(given);
      const run = resolveRun(settings);
      if (run.cp !== 1)
        throw new ConfigError(
          `steps models --context-parallel-size 1 (CP splits each sample's tokens over ranks); got ${run.cp} ${VERSION}`,
        );
      const seqlens = step.seqlens;
      if (!seqlens) throw new ConfigError(`slime steps need the rollout's token counts (the layout gives them) ${VERSION}`);
      const { partitions, microBatches, numMicrobatches } = buildDpSchedule(seqlens, run.schedule);
      const dp = run.schedule.dpSize;
      const perToken = loss === 'true';
      const out: TrainerStep[] = [];
      const clamp = (i: number) => Math.max(completionTokens[i]!, 1);
      let before = 0;
      numMicrobatches.forEach((count, p) => {
        const v = versions(firstIndex, p);
        const mbs = microBatches.map((rank, r) =>
          rank.slice(before, before + count).map((mb) => mb.map((local) => partitions[r]![local]!)),
        );
        before += count;
        const samples = mbs.flat(2);
        const global = samples.length;
        const numTokens = samples.reduce((a, i) => a + clamp(i), 0);
        const micro: TrainerMicroBatch[] = [];
        mbs.forEach((rank, r) => {
          for (const mb of rank) {
            micro.push(
              microBatch({
                rank: r,
                samples: mb,
                completionTokens,
                padding: 0,
                normaliser: perToken
                  ? `Σ token losses; Megatron ÷ num_tokens ${numTokens} (Σ clamp_min(loss_mask.sum(), 1) over the step, all ranks)`
                  : `Σ sample means × num_microbatches ${count} / step_global_batch_size ${global} × DP ${dp}; Megatron ÷ ${count}, DDP ÷ ${dp}`,
                weight: mb.map((i) => (perToken ? 1 / numTokens : 1 / (global * clamp(i)))),
                ...v,
              }),
            );
          }
        });
        out.push({ index: firstIndex + p, microBatches: micro });
      });
      return out;
    },
    findings(run) {
      const perToken = run.loss === 'true';
      const dynamic = run.settings['use-dynamic-batch-size'] === true;
      return [
        weightSpreadFinding(run.steps, perToken ? (dynamic ? 'packing' : 'micro-batch') : 'sample-mean'),
        paddingFinding(run.steps),
        offPolicyFinding(run.steps),
      ].filter((x): x is string => x !== null);
    },
  };
}
