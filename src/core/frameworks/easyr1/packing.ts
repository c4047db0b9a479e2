// EasyR1's micro-batches (b44b311). verl/workers/actor/dp_actor.py update_policy splits each rank's share
// into mini-batches of global_batch_size_per_device samples (one optimizer step each); with
// worker.actor.dynamic_batching (default true) every mini-batch goes through
// verl/utils/seqlen_balancing.py rearrange_micro_batches with
// max_token_len = micro_batch_size_per_device_for_update × input_ids.size(-1) (the padded width,
// data.max_prompt_length + data.max_response_length): the count is min(samples, ceil(tokens / budget)),
// raised to the maximum over the data-parallel ranks (dist.all_reduce MAX), the samples are split by
// Karmarkar–Karp (equal_size=False) and the micro-batches run in descending order of Σ seqlen².
// Without dynamic batching: mini_batch.split(micro_batch_size_per_device_for_update), contiguous.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkSettings, PackedStep, PackerDef } from '../types.ts';
import { EASYR1_VERSION, easyr1Assert } from './dispatch.ts';
import { unequalPartitions } from './kk.ts';
import { byWorkloadDescending, ownMicroBatchCount } from '../verl/rearrange.ts';
import { keyName, num } from '../budget.ts';
import { keys } from './keys.ts';

/** input_ids width: prompts left-padded to max_prompt_length, responses right-padded to max_response_length. */
export function paddedWidth(settings: FrameworkSettings): number {
  return intSetting(settings, 'max-prompt-length') + intSetting(settings, 'max-response-length');
}

export function worldSize(settings: FrameworkSettings): number {
  return intSetting(settings, 'n-gpus-per-node') * intSetting(settings, 'nnodes');
}

/** rearrange_micro_batches' partitions of one rank's mini-batch into `count` micro-batches, in run order. */
function tokenBudgetMicroBatches(seqlens: readonly number[], count: number): number[][] {
  // sort(key=(Σ seqlen², min index), reverse=True), verl's sort with EasyR1's workload.
  return byWorkloadDescending(unequalPartitions(seqlens, count), (i) => seqlens[i]! * seqlens[i]!);
}

function pack(seqlens: readonly number[], settings: FrameworkSettings): PackedStep {
  const ranks = worldSize(settings);
  const micro = intSetting(settings, 'micro-batch-size-per-device-for-update');
  const width = paddedWidth(settings);
  if (ranks < 1 || seqlens.length === 0 || seqlens.length % ranks !== 0) {
    throw new ConfigError(
      `the packer takes one optimizer step's samples over all ${ranks} ranks (rank r's mini-batch is the r-th equal contiguous part); got ` +
        `${seqlens.length} samples`,
    );
  }
  const bad = seqlens.findIndex((s) => !Number.isSafeInteger(s) || s < 1 || s > width);
  if (bad >= 0) {
    throw new ConfigError(
      `sample ${bad} has ${seqlens[bad]} tokens; EasyR1 pads every sample to max_prompt_length + max_response_length = ${width}, so a token count ` +
        `is a whole number in 1…${width} (${EASYR1_VERSION})`,
    );
  }
  const per = seqlens.length / ranks;
  const chunks = Array.from({ length: ranks }, (_, r) => seqlens.slice(r * per, (r + 1) * per));
  const offset = (r: number, parts: number[][]) => parts.map((p) => p.map((i) => r * per + i));
  if (!boolSetting(settings, 'dynamic-batching')) {
    const parts = chunks.map((c, r) =>
      offset(
        r,
        Array.from({ length: Math.ceil(c.length / micro) }, (_, m) =>
          Array.from({ length: Math.min(micro, c.length - m * micro) }, (_, j) => m * micro + j),
        ),
      ),
    );
    return { ranks: parts, microBatchesPerRank: Math.max(...parts.map((p) => p.length)) };
  }
  const budget = micro * width;
  if (budget < width) {
    throw easyr1Assert(
      `max_token_len must be greater than the sequence length. Got max_token_len=${budget} and max_seq_len=${width}`,
      'seqlen_balancing.rearrange_micro_batches',
    );
  }
  const own = chunks.map((c) => ownMicroBatchCount(c, budget));
  const count = Math.max(...own);
  return { ranks: chunks.map((c, r) => offset(r, tokenBudgetMicroBatches(c, count))), microBatchesPerRank: count };
}

export const packing: PackerDef = {
  about:
    'worker.actor.dynamic_batching (default true): per rank and mini-batch, token budget micro_batch_size_per_device_for_update × ' +
    '(max_prompt_length + max_response_length); micro-batch count min(samples, ceil(tokens / budget)), synchronised to the ranks’ maximum; ' +
    'Karmarkar–Karp split, run in descending Σ seqlen². Input: one optimizer step’s samples, rank r’s mini-batch being the r-th equal part.',
  flags: [
    'n-gpus-per-node',
    'nnodes',
    'micro-batch-size-per-device-for-update',
    'max-prompt-length',
    'max-response-length',
    'dynamic-batching',
  ],
  // Karmarkar–Karp balances the micro-batches this budget counts, so one may pass it.
  budget(s) {
    const mbs = num(s, 'micro-batch-size-per-device-for-update');
    const prompt = num(s, 'max-prompt-length');
    const response = num(s, 'max-response-length');
    if (s['dynamic-batching'] !== true || mbs === null || prompt === null || response === null) return null;
    const name = (f: string) => keyName(keys, f);
    return {
      tokens: mbs * (prompt + response),
      from: `${name('micro-batch-size-per-device-for-update')} × (${name('max-prompt-length')} + ${name('max-response-length')})`,
      rule: 'count',
    };
  },
  pack,
};
