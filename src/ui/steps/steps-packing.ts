// One optimizer step of a steps report as the packing figure draws it (frameworks/packing-figure.ts): each rank's
// micro-batches of that step, each completion a bar as long as its seqlen (prompt + response, what verl's
// ppo_max_token_len_per_gpu counts), the budget under actor.use_dynamic_bsz, and where one prompt's copies sit.
// Only where the layout carries seqlens (the verl sampler's). Pure: reads the core's layout and report.
import type { PackedStep, TokenBudget } from '../../core/frameworks/types.ts';
import { ownMicroBatchCount, verlMaxTokenLen } from '../../core/frameworks/verl/rearrange.ts';
import { completionSeqlens } from '../../core/frameworks/verl/steps-schedule.ts';
import type { Layout } from '../../core/layout/types.ts';
import type { StepsReport } from '../../core/steps/types.ts';

/** verl's key of the budget, as its config writes it. */
export const VERL_BUDGET_KEY = 'actor_rollout_ref.actor.ppo_max_token_len_per_gpu';

export interface StepsPacking {
  /** Index into report.steps of the optimizer step drawn. */
  at: number;
  /** Each completion's seqlen, by completion index over the run (the figure's sample ids are completion ids). */
  seqlens: number[];
  /** packed.ranks[r][m]: the completions of rank r's m-th micro-batch of the step, in order. */
  packed: PackedStep;
  /** The prompt of each completion of the step. */
  promptOf: Map<number, number>;
  /**
   * use_dynamic_bsz: the budget each micro-batch is cut under (it sets the count: rule 'count'), ppo_max_token_len_per_gpu ×
   * ulysses_sequence_parallel_size as update_policy passes it; null otherwise.
   */
  budget: TokenBudget | null;
  /** use_dynamic_bsz: each rank's own count, min(samples, ⌈tokens / budget⌉), before the ranks take the largest; null otherwise. */
  ownCounts: number[] | null;
  /** Samples per rank per micro-batch when not packed by tokens (ppo_micro_batch_size_per_gpu). */
  microBatch: number;
}

/** Where prompt p's copies sit in the step: each rank holding one, with the micro-batches (in order) that do. */
export interface CopiesIn {
  rank: number;
  micro: number[];
  copies: number;
}

/** The packing of optimizer step `at` (clamped to the report), or null where the layout has no seqlens. */
export function stepsPacking(layout: Layout, report: StepsReport, at: number): StepsPacking | null {
  const seqlens = completionSeqlens(layout);
  if (!seqlens || report.steps.length === 0) return null;
  const i = Math.max(0, Math.min(report.steps.length - 1, Number.isSafeInteger(at) ? at : 0));
  const step = report.steps[i]!;
  const micro = [...new Set(step.microBatches.map((m) => m.microStep))].sort((a, b) => a - b);
  const ranks: number[][][] = Array.from({ length: report.config.ranks }, () => micro.map(() => []));
  const promptOf = new Map<number, number>();
  for (const mb of step.microBatches) {
    ranks[mb.rank]![micro.indexOf(mb.microStep)] = mb.rows.map((r) => step.rows[r]!.completion);
    for (const r of mb.rows) promptOf.set(step.rows[r]!.completion, step.rows[r]!.promptId);
  }
  const dynamic = step.microBatches.some((m) => m.packedTokens !== undefined);
  const maxTokenLen = verlMaxTokenLen(report.config);
  const tokens = maxTokenLen.tokens;
  // Under Ulysses SP the line is at T × S: a rank here is a group of S GPUs sharing each sequence.
  const from =
    maxTokenLen.sp === 1 ? VERL_BUDGET_KEY : `${VERL_BUDGET_KEY} ${maxTokenLen.perGpu} × ulysses_sequence_parallel_size ${maxTokenLen.sp}`;
  return {
    at: i,
    seqlens,
    packed: { ranks, microBatchesPerRank: micro.length },
    promptOf,
    budget: dynamic ? { tokens, from, rule: 'count' } : null,
    ownCounts: dynamic
      ? ranks.map((mbs) =>
          ownMicroBatchCount(
            mbs.flat().map((c) => seqlens[c]!),
            tokens,
          ),
        )
      : null,
    microBatch: report.microBatch,
  };
}

/** Where prompt p's copies sit in the drawn step (empty: none of them is in it). */
export function copiesIn(packing: StepsPacking, p: number): CopiesIn[] {
  return packing.packed.ranks.flatMap((mbs, rank) => {
    const micro = mbs.flatMap((mb, m) => (mb.some((c) => packing.promptOf.get(c) === p) ? [m] : []));
    const copies = mbs.flat().filter((c) => packing.promptOf.get(c) === p).length;
    return copies ? [{ rank, micro, copies }] : [];
  });
}
