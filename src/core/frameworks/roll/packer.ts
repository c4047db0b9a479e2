// ROLL's token-budget micro-batching as a PackerDef: batch_balance, then dynamic_batching_shard
// (roll/utils/dynamic_batching.py @ 8eb27cc), then the per-rank chunks; every rank runs the same number of
// micro-batches because the cut is shared. Sequence packing (use_sequence_packing, Megatron only) is not modelled.
import { intSetting } from '../settings.ts';
import type { FrameworkSettings, PackedStep, PackerDef } from '../types.ts';
import { rollRanks } from './counts.ts';
import { rollDispatch } from './dispatch.ts';
import { keyBudget } from '../budget.ts';
import { ROLL_KEYS } from './keys.ts';

export const ROLL_PACKER: PackerDef = {
  about:
    'actor_train.use_dynamic_batching_in_train: sort the balanced step by token count, deal sorted[r::W] to rank r, cut shared ' +
    'micro-batches of at most max_tokens_per_microbatch_in_train padded tokens (lengths rounded up to sequence_length_round_in_train); ' +
    'shown when the switch is on',
  flags: [
    'use-dynamic-batching-in-train',
    'max-tokens-per-microbatch-in-train',
    'sequence-length-round-in-train',
    'ranks',
    'device-mapping',
    'tensor-model-parallel-size',
    'pipeline-model-parallel-size',
    'context-parallel-size',
  ],
  enabled: (settings) => settings['use-dynamic-batching-in-train'] === true,
  budget: (s) =>
    s['use-dynamic-batching-in-train'] === true ? keyBudget(ROLL_KEYS, s, 'max-tokens-per-microbatch-in-train', 'cap') : null,
  pack(seqlens: readonly number[], settings: FrameworkSettings): PackedStep {
    const { ranks } = rollRanks(settings, intSetting(settings, 'train-batch-size'));
    const { dynamic } = rollDispatch(seqlens, ranks, {
      maxTokens: intSetting(settings, 'max-tokens-per-microbatch-in-train'),
      round: intSetting(settings, 'sequence-length-round-in-train'),
    });
    const cut = dynamic!;
    return {
      ranks: cut.shards.map((shard) => cut.microBatchIndices.map(([start, end]) => shard.slice(start, end))),
      microBatchesPerRank: cut.microBatchIndices.length,
    };
  },
};
