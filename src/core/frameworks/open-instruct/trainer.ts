// open-instruct's optimizer steps and loss weights (grpo_fast.py PolicyTrainerRayProcess.step @ e6c3044). Each rank
// trains its packed micro-batches (packing.ts) in order: accumulation_steps = max(ceil(micro-batches / num_mini_batches
// − 0.5), 1), the leftover micro-batches past a multiple of it are dropped, and every accumulation_steps micro-batches
// make one DeepSpeed optimizer step (DeepSpeed's own gradient_accumulation_steps is 1). With loss_denominator "token"
// grpo_utils.calculate_token_counts all-reduces each micro-batch's response tokens over the data-parallel ranks and sums
// them per accumulation group; masked_mean divides the micro-batch's loss sum by that total (or by the number given as
// loss_denominator), × world_size // sequence_parallel_size, and DeepSpeed averages gradients over the ranks.
import { ConfigError } from '../../errors.ts';
import {
  chunks,
  microBatch,
  offPolicyFinding,
  scaleFinding,
  type TrainerRun,
  type TrainerWithFindings,
  versions,
  weightSpreadFinding,
} from '../trainer.ts';
import type { FrameworkSettings, FrameworkStep, TrainerStep } from '../types.ts';
import { packSequences } from './packing.ts';
import { runSizes } from './sizes.ts';
import { VERSION, openInstructError } from './version.ts';

/**
 * loss_denominator "token" (the shipped default); open-instruct also takes a number of tokens, which optimizerSteps accepts
 * as the loss string ('4096'): it is not listed, since the CLI checks --loss against this list.
 */
export const OPEN_INSTRUCT_LOSSES = ['token'] as const;

/** The loss denominator: null for "token", else the number given as the loss. */
function denominatorOf(loss: string): number | null {
  if (loss === 'token') return null;
  const value = Number(loss);
  if (loss.trim() === '' || Number.isNaN(value)) {
    throw openInstructError('ValueError', `could not convert string to float: '${loss}'`, 'GRPOConfig.__post_init__');
  }
  if (!(value > 0)) {
    throw openInstructError(
      'ValueError',
      `loss_denominator must be a valid float greater than 0 if not 'token', got: ${loss}`,
      'GRPOConfig.__post_init__',
    );
  }
  return value;
}

export interface PackedMicroBatch {
  samples: number[];
  /** Token length (query + response) of each pack it holds: collate_fn pads every row to the longest. */
  packTokens: number[];
}

/** Each rank's micro-batches: its samples (in the layout's order) cut at pack boundaries, per_device_train_batch_size packs each. */
export function rankMicroBatches(step: FrameworkStep, packLength: number, perDevice: number): PackedMicroBatch[][] {
  const seqlens = step.seqlens ?? [];
  const packOf = new Map<number, number>();
  packSequences(seqlens, packLength, step.sources.length).forEach((pack, p) => {
    for (const s of pack) packOf.set(s, p);
  });
  return step.sources.map((samples) => {
    const packs: number[][] = [];
    let last = -1;
    for (const s of samples) {
      const p = packOf.get(s) ?? -1;
      if (p !== last || packs.length === 0) packs.push([]);
      packs[packs.length - 1]!.push(s);
      last = p;
    }
    return chunks(packs, perDevice).map((mb) => ({
      samples: mb.flat(),
      packTokens: mb.map((pack) => pack.reduce((a, i) => a + (seqlens[i] ?? 0), 0)),
    }));
  });
}

function optimizerSteps(
  step: FrameworkStep,
  completionTokens: readonly number[],
  settings: FrameworkSettings,
  loss: string,
  firstIndex: number,
): TrainerStep[] {
  const s = runSizes(settings);
  const denominator = denominatorOf(loss);
  if (s.learners !== s.ranks) {
    throw new ConfigError(
      `sequence_parallel_size ${s.learners / s.ranks}: the sandbox models the loss weights with one learner per data-parallel rank (${VERSION})`,
    );
  }
  const W = s.ranks;
  const perRank = rankMicroBatches(step, s.packLength, s.perDevice);
  const micro = Math.min(...perRank.map((r) => r.length));
  if (perRank.some((r) => r.length !== micro)) {
    throw new ConfigError(
      `the ranks hold ${perRank.map((r) => r.length).join(', ')} micro-batches; open-instruct deals every rank the same number of packs (${VERSION})`,
    );
  }
  const accumulation = Math.max(Math.ceil(micro / s.numMiniBatches - 0.5), 1);
  const kept = micro - (micro % accumulation);
  const out: TrainerStep[] = [];
  for (let epoch = 0; epoch < s.numEpochs; epoch++) {
    for (let start = 0; start < kept; start += accumulation) {
      const { policyVersion, trainVersion } = versions(firstIndex, out.length);
      const group = perRank.map((r) => r.slice(start, start + accumulation));
      let tokens = 0;
      for (const r of group) for (const mb of r) for (const i of mb.samples) tokens += completionTokens[i] ?? 0;
      const denom = denominator ?? tokens;
      const weight = ((1 / W) * W) / denom;
      const normaliser =
        denominator === null
          ? `Σ loss / ${tokens} response tokens of the accumulation group on all ranks (calculate_token_counts) × world size ${W}, ÷ ${W} ranks (DeepSpeed)`
          : `Σ loss / loss_denominator ${denominator} × world size ${W}, ÷ ${W} ranks (DeepSpeed)`;
      const microBatches = group.flatMap((mbs, rank) =>
        mbs.map(({ samples, packTokens }) => {
          const longest = Math.max(0, ...packTokens);
          const sum = packTokens.reduce((a, b) => a + b, 0);
          return microBatch({
            rank,
            samples,
            completionTokens,
            padding: packTokens.length * longest - sum,
            normaliser,
            weight,
            policyVersion,
            trainVersion,
          });
        }),
      );
      out.push({ index: firstIndex + out.length, microBatches });
    }
  }
  return out;
}

function findings(run: TrainerRun): string[] {
  const out = [
    weightSpreadFinding(run.steps, 'micro-batch'),
    run.loss === 'token'
      ? null
      : scaleFinding(run, 'a numeric loss_denominator divides every micro-batch by the same constant, whatever the tokens'),
    offPolicyFinding(run.steps),
  ];
  return out.filter((x): x is string => x !== null);
}

export const OPEN_INSTRUCT_TRAINER: TrainerWithFindings = {
  losses: OPEN_INSTRUCT_LOSSES,
  lossFlag: 'loss-denominator',
  sequenceRatio: [],
  about:
    'masked_mean(loss, response_mask, None, loss_denominator): "token" sums the response tokens of each accumulation group over all ranks ' +
    '(calculate_token_counts), × world size, ÷ ranks by DeepSpeed: a global token mean per optimizer step; a number divides by that constant',
  optimizerSteps,
  findings,
};
