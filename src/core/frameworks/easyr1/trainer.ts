// EasyR1's loss normaliser and micro-batches per optimizer step (b44b311):
// - DataParallelPPOActor.update_policy (verl/workers/actor/dp_actor.py): each rank splits its share into mini-batches of
//   global_batch_size_per_device (one optimizer step each, ppo_epochs passes); total_response_tokens = Σ response_mask
//   of the mini-batch, all-reduced over the ranks; micro-batches by rearrange_micro_batches (dynamic_batching, default)
//   or split(micro_batch_size_per_device_for_update) — the home's packer (packing.ts);
// - per micro-batch: loss = average_loss(...) (verl/trainer/core_algos.py: token → masked_mean = Σ / (Σ mask + 1e-8);
//   seq → mean over the micro-batch of Σ / (Σ mask + 1e-8) per sequence), then
//   `loss * torch.sum(response_mask) * self.world_size / total_response_tokens`, backward; FSDP averages over the ranks.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting } from '../settings.ts';
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
import { globalBatchPerDevice } from './checks.ts';
import { EASYR1_VERSION } from './dispatch.ts';
import { sizesOf } from './layout.ts';
import { packing, paddedWidth } from './packing.ts';

const EPS = 1e-8;

export const trainer: TrainerWithFindings = {
  losses: ['token', 'seq'],
  lossFlag: 'loss-avg-mode',
  sequenceRatio: [],
  about:
    'worker.actor.loss_avg_mode averages each micro-batch (token: over its response tokens; seq: the mean of its sequence means), ' +
    "then × the micro-batch's response tokens × world_size / the mini-batch's response tokens on all ranks; FSDP averages over the ranks.",
  optimizerSteps(step, completionTokens, settings, loss, firstIndex) {
    const s = sizesOf(settings);
    if (s.ulysses !== 1)
      throw new ConfigError(
        `steps models worker.actor.ulysses_size 1 (the loss's world_size then equals the data-parallel ranks); got ${s.ulysses}`,
      );
    const seqlens = step.seqlens;
    if (!seqlens) throw new ConfigError(`EasyR1 steps need the step's token counts (the layout gives them) (${EASYR1_VERSION})`);
    const world = s.ranks;
    const perDevice = globalBatchPerDevice(s);
    const passes = intSetting(settings, 'ppo-epochs');
    const share = step.sources[0]?.length ?? 0;
    const minis = Math.ceil(share / perDevice);
    const padFree = boolSetting(settings, 'padding-free');
    const width = paddedWidth(settings);
    const out: TrainerStep[] = [];
    for (let pass = 0; pass < passes; pass++) {
      for (let m = 0; m < minis; m++) {
        const v = versions(firstIndex, out.length);
        // rank r's mini-batch m, laid end to end as the packer takes one optimizer step.
        const parts = step.sources.map((src) => src.slice(m * perDevice, (m + 1) * perDevice));
        const flat = parts.flat();
        const total = tokensOf(flat, completionTokens);
        const packed = packing.pack(
          flat.map((i) => seqlens[i]!),
          settings,
        );
        const microBatches: TrainerMicroBatch[] = [];
        packed.ranks.forEach((mbs, rank) => {
          for (const mb of mbs) {
            const samples = mb.map((j) => flat[j]!);
            const n = tokensOf(samples, completionTokens);
            const scale = (n * world) / total / world;
            const weight = samples.map((i) =>
              loss === 'token' ? scale / (n + EPS) : scale / (samples.length * (completionTokens[i]! + EPS)),
            );
            microBatches.push(
              microBatch({
                rank,
                samples,
                completionTokens,
                padding: padFree ? 0 : samples.length * width - tokensOf(samples, seqlens),
                normaliser:
                  (loss === 'token' ? `masked mean over ${n} tokens` : `mean of ${samples.length} sequence means`) +
                  ` × ${n} × world_size ${world} / total_response_tokens ${total}, FSDP ÷ ${world}`,
                weight,
                ...v,
              }),
            );
          }
        });
        out.push({ index: firstIndex + out.length, microBatches });
      }
    }
    return out;
  },
  findings(run) {
    const dynamic = run.settings['dynamic-batching'] === true;
    return [
      weightSpreadFinding(run.steps, run.loss === 'seq' ? 'sample-mean' : dynamic ? 'packing' : 'micro-batch'),
      paddingFinding(run.steps),
      offPolicyFinding(run.steps),
    ].filter((x): x is string => x !== null);
  },
};
