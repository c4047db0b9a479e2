// AReaL's loss normaliser and micro-batches per optimizer step (4aef98d, FSDP engine):
// - PPOActor._ppo_update (areal/trainer/ppo/actor.py): each rank splits its batch into ppo_n_minibatches token-balanced
//   minibatches, one engine.train_batch (one optimizer step) each, with loss_weight_fn = loss_mask.count_nonzero();
//   FSDPEngine splits each minibatch into micro-batches (mb_spec) — both through the home's packRanks (packing.ts);
// - compute_total_loss_weight (areal/engine/core/train_engine.py): Σ of the micro-batches' weights, all-reduced over dp;
// - ppo_actor_loss_fn (areal/utils/functional/functional.py): Σ token losses / loss_mask_count (the micro-batch's, or 1);
// - FSDPEngine's loss scaling (areal/engine/fsdp_engine.py): loss × local_weight / total_loss_weight × dp_size, and
//   FSDP averages over dp: every token weighs 1 / the minibatch's loss-mask tokens on all ranks (the scale is float32).
import { ConfigError } from '../../errors.ts';
import { intSetting } from '../settings.ts';
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
import { packRanks } from './packing.ts';
import type { PackingAlgorithm } from './seqpack.ts';
import { AREAL_VERSION } from './version.ts';

export const trainer: TrainerWithFindings = {
  losses: ['token-mean'],
  lossFlag: null,
  sequenceRatio: [],
  about:
    'ppo_actor_loss_fn averages a micro-batch over its loss-mask tokens; FSDPEngine multiplies by its tokens / the minibatch’s tokens on ' +
    'all ranks (compute_total_loss_weight) × dp_size against FSDP’s mean: a global token mean per optimizer step (minibatch).',
  optimizerSteps(step, completionTokens, settings, _loss, firstIndex) {
    const lag = intSetting(settings, 'max-head-offpolicyness');
    if (lag !== 0)
      throw new ConfigError(
        `steps models synchronous training (rollout.max_head_offpolicyness 0); with ${lag} a rollout may come from up to ${lag} older weight ` +
          `versions, which steps does not simulate (${AREAL_VERSION})`,
      );
    const seqlens = step.seqlens;
    if (!seqlens) throw new ConfigError(`AReaL steps need the step's token counts (the layout gives them) (${AREAL_VERSION})`);
    const maxTokens = settings['max-tokens-per-mb'];
    const { minibatches } = packRanks(
      step.sources.map((src) => src.map((i) => seqlens[i]!)),
      typeof maxTokens === 'number' ? maxTokens : null,
      settings['packing-algorithm'] as PackingAlgorithm,
      intSetting(settings, 'ppo-n-minibatches'),
    );
    const dp = step.sources.length;
    const count = minibatches[0]?.length ?? 0;
    const out: TrainerStep[] = [];
    for (let j = 0; j < count; j++) {
      const v = versions(firstIndex, j);
      const mbs = minibatches.map((minis, r) => minis[j]!.map((mb) => mb.map((row) => step.sources[r]![row]!)));
      const total = tokensOf(mbs.flat(2), completionTokens);
      const micro: TrainerMicroBatch[] = [];
      mbs.forEach((rank, r) => {
        for (const mb of rank) {
          const n = tokensOf(mb, completionTokens);
          micro.push(
            microBatch({
              rank: r,
              samples: mb,
              completionTokens,
              padding: 0,
              normaliser: `Σ / loss_mask_count ${Math.max(n, 1)} × local_weight ${n} / total_loss_weight ${total} × dp_size ${dp}, FSDP ÷ ${dp}`,
              // local_weight / total_loss_weight * dp_size is a float32 tensor (total_loss_weight is cast to float32).
              weight: Math.fround(Math.fround(n / total) * dp) / Math.max(n, 1) / dp,
              ...v,
            }),
          );
        }
      });
      out.push({ index: firstIndex + j, microBatches: micro });
    }
    return out;
  },
  findings(run) {
    return [weightSpreadFinding(run.steps, 'packing'), paddingFinding(run.steps), offPolicyFinding(run.steps)].filter(
      (x): x is string => x !== null,
    );
  },
};
