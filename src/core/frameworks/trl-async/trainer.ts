// TRL async_grpo's optimizer step and loss weights (trl 1.13.0 wheel, trl/experimental/async_grpo/async_grpo_trainer.py):
// - get_train_dataloader: the planner (planner.ts) yields micro-batches of num_processes rows; DataLoaderDispatcher
//   (dispatch_batches=True) scatters row r to rank r, and transformers' Trainer takes gradient_accumulation_steps of
//   them per optimizer step.
// - DataCollatorForRollout.torch_call: each row concatenates its samples (padding-free), rows are padded to the longest
//   row (the padding compute_loss strips before the forward), and global_n_tokens = Σ completion_mask over every sample
//   of the micro-batch, on all ranks.
// - AsyncGRPOTrainer.compute_loss: loss = Σ per_token_loss × completion_mask[:, 1:] / clamp(global_n_tokens /
//   num_processes, min=1) / current_gradient_accumulation_steps. __init__ passes compute_loss_func (a non-None value),
//   so Trainer.training_step does not divide by the accumulation steps again; DDP/FSDP averages the gradients over the
//   num_processes ranks. A token's weight is therefore 1 / (clamp(N_mb / W, 1) × GA × W): its micro-batch's own
//   completion tokens, not the optimizer step's.
// The row's first token has no log-prob (completion_mask[:, 1:]): a sample with no prompt token that leads a row loses
// its first completion token's gradient (still counted in global_n_tokens); the weights shown are its other tokens'.
import { ConfigError } from '../../errors.ts';
import {
  microBatch,
  num,
  scaleFinding,
  span,
  type TrainerRun,
  type TrainerWithFindings,
  versions,
  weightSpreadFinding,
} from '../trainer.ts';
import type { DroppedSample, FrameworkSettings, FrameworkStep, TrainerMicroBatch, TrainerStep } from '../types.ts';
import { type MicroBatch, plan, resolveConfig } from './planner.ts';

export const TRL_ASYNC_LOSSES = ['micro-batch-token-mean'] as const;

const VERSION = '(trl 1.13.0, async_grpo)';

/** The micro-batches of one optimizer step's samples (`seqlens`, in pull order), and the samples dropped among them. */
export function stepMicroBatches(
  seqlens: readonly number[],
  settings: FrameworkSettings,
): { microBatches: MicroBatch[]; dropped: number[]; budget: number } {
  const c = resolveConfig(settings);
  const planned = plan(seqlens, c);
  const microBatches = planned.open ? [...planned.yielded, planned.open] : planned.yielded;
  if (microBatches.length !== c.gradientAccumulationSteps || (!planned.open && planned.held.length > 0))
    throw new ConfigError(
      `these ${seqlens.length} samples make ${microBatches.length} micro-batches, not one optimizer step of gradient_accumulation_steps ` +
        `${c.gradientAccumulationSteps} ${VERSION}`,
    );
  return { microBatches, dropped: planned.dropped, budget: c.tokenBudget };
}

/** compute_loss's divisor before the accumulation: clamp(float32(global_n_tokens) / num_processes, min=1), in float32. */
export function tokensPerRank(globalTokens: number, numProcesses: number): number {
  return Math.max(Math.fround(Math.fround(globalTokens) / numProcesses), 1);
}

function optimizerSteps(
  step: FrameworkStep,
  completionTokens: readonly number[],
  settings: FrameworkSettings,
  loss: string,
  firstIndex: number,
): TrainerStep[] {
  if (loss !== 'micro-batch-token-mean')
    throw new ConfigError(`TRL async has one loss normalisation (micro-batch-token-mean), not '${loss}' ${VERSION}`);
  const seqlens = step.seqlens ?? [];
  const c = resolveConfig(settings);
  const { microBatches, dropped, budget } = stepMicroBatches(seqlens, settings);
  const W = c.numProcesses;
  const GA = c.gradientAccumulationSteps;
  const { policyVersion, trainVersion } = versions(firstIndex, 0);
  const rowTokens = (row: readonly number[]) => row.reduce((a, s) => a + seqlens[s]!, 0);
  const out: TrainerMicroBatch[] = [];
  for (let r = 0; r < W; r++) {
    for (const mb of microBatches) {
      const global = mb.reduce((a, row) => a + row.reduce((b, s) => b + (completionTokens[s] ?? 0), 0), 0);
      const perRank = tokensPerRank(global, W);
      const widest = Math.max(...mb.map(rowTokens));
      out.push(
        microBatch({
          rank: r,
          samples: mb[r]!,
          completionTokens,
          padding: widest - rowTokens(mb[r]!),
          normaliser:
            `Σ loss / clamp(global_n_tokens ${global} / num_processes ${W}, min=1) = ${num(perRank)} / gradient_accumulation_steps ${GA}, ` +
            `DDP mean ÷ ${W}`,
          weight: 1 / GA / perRank / W,
          policyVersion,
          trainVersion,
        }),
      );
    }
  }
  const lost: DroppedSample[] = dropped.map((s) => ({ sample: s, tokens: seqlens[s]!, why: `longer than token_budget=${budget}` }));
  return [{ index: firstIndex, microBatches: out, ...(lost.length ? { dropped: lost } : {}) }];
}

/** "TokenBudgetBatcher dropped n samples …", where it did. */
export function droppedFinding(run: TrainerRun): string | null {
  const all = run.steps.flatMap((s) => (s.dropped ?? []).map((d) => ({ step: s.index, ...d })));
  if (all.length === 0) return null;
  const budget = resolveConfig(run.settings).tokenBudget;
  const said = all
    .slice(0, 4)
    .map((d) => `sample ${d.sample} of optimizer step ${d.step} (${d.tokens} tokens)`)
    .join(', ');
  return (
    `TokenBudgetBatcher dropped ${all.length} sample${all.length === 1 ? '' : 's'} longer than token_budget=${budget}` +
    ` (${said}${all.length > 4 ? `, and ${all.length - 4} more` : ''}): TRL logs a warning and counts batch/dropped_oversize_total, ` +
    'but the run goes on and those completions train nowhere.'
  );
}

/** "an optimizer step holds from x to y samples", where token_budget makes them differ. */
export function samplesPerStepFinding(run: TrainerRun): string | null {
  const c = resolveConfig(run.settings);
  if (c.tokenBudget <= 0) return null;
  const counts = run.steps.map((s) => s.microBatches.reduce((a, mb) => a + mb.samples.length, 0));
  const [lo, hi] = span(counts);
  if (!(lo < hi)) return null;
  return (
    `With token_budget the optimizer step is gradient_accumulation_steps ${c.gradientAccumulationSteps} micro-batches whatever they hold: ` +
    `here from ${lo} to ${hi} samples (per_device_train_batch_size does not size it).`
  );
}

function findings(run: TrainerRun): string[] {
  const c = resolveConfig(run.settings);
  return [
    droppedFinding(run),
    weightSpreadFinding(run.steps, c.tokenBudget > 0 ? 'packing' : 'micro-batch'),
    samplesPerStepFinding(run),
    scaleFinding(
      run,
      `clamp(global_n_tokens / num_processes, min=1) holds where a micro-batch has fewer completion tokens than num_processes ${c.numProcesses}`,
    ),
  ].filter((s): s is string => s !== null);
}

export const TRL_ASYNC_TRAINER: TrainerWithFindings = {
  losses: TRL_ASYNC_LOSSES,
  lossFlag: null,
  sequenceRatio: [],
  about:
    'an optimizer step is gradient_accumulation_steps micro-batches of num_processes rows (one per rank); compute_loss divides each ' +
    "rank's Σ loss by clamp(global_n_tokens / num_processes, min=1), global_n_tokens being the micro-batch's completion tokens on all ranks, " +
    'and by gradient_accumulation_steps; DDP averages over the ranks: a token mean per micro-batch. Generation is not timed here: the ' +
    'policy versions shown assume lag 0 (async --framework trl-async models the lag and max_staleness’s drops)',
  optimizerSteps,
  findings,
};
