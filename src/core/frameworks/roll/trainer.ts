// ROLL's optimizer steps and loss weights (alibaba/ROLL @ 8eb27cc). roll/pipeline/base_worker.py
// ActorWorker.train_step cuts each rank's batch into backward batches of per_device_train_batch_size ×
// gradient_accumulation_steps with DataProto.make_iterator (a DataLoader shuffled by a generator seeded with the
// pipeline seed, ppo_epochs passes; every rank draws the same permutation), or under dynamic batching groups
// gradient_accumulation_steps of the shared micro-batch cut (make_mini_batch_iter_for_dynamic_batching). Each
// backward batch is one optimizer step (strategy.train_step). The loss of a micro-batch is
// roll/utils/functionals.py agg_loss with batch_num_tokens / global_valid_samples all-reduced over the
// data-parallel ranks' backward batches (strategy.py _get_batch_num_tokens, _get_global_valid_samples), times
// loss_scale = num_microbatches × dp_size; Megatron divides by num_microbatches and averages gradients over the
// ranks (FSDP2: / gradient_accumulation_steps, FSDP mean), so the scaling cancels and the normaliser is global.
import { ConfigError } from '../../errors.ts';
import { Mt19937, randperm } from '../../rng/index.ts';
import { boolSetting, intSetting } from '../settings.ts';
import {
  chunks,
  microBatch,
  offPolicyFinding,
  padToLongest,
  scaleFinding,
  type TrainerRun,
  type TrainerWithFindings,
  versions,
  weightSpreadFinding,
} from '../trainer.ts';
import type { FrameworkSettings, FrameworkStep, TrainerMicroBatch, TrainerStep } from '../types.ts';
import { rollDispatch } from './dispatch.ts';
import { ROLL_VERSION } from './version.ts';

export const ROLL_LOSSES = ['seq-mean-token-mean', 'token-mean', 'seq-mean-token-sum', 'seq-mean-token-sum-norm'] as const;

/** masked_mean's and agg_loss's epsilon. */
const EPS = 1e-8;

/** One optimizer step's micro-batches before weighing: each rank's samples and the padded width of its tensor. */
interface Planned {
  rank: number;
  samples: number[];
  /** loss_mask.shape[-1]: the padded sequence length − 1 (response_mask[:, 1:]). */
  width: number | null;
  /** Padding tokens of the micro-batch's tensor. */
  padding: number;
}

function says(message: string, where: string, fix: string): ConfigError {
  return new ConfigError(`${message} (ROLL ${ROLL_VERSION}, ${where}); ${fix}`);
}

/** The backward batches of one rank as make_iterator yields them: positions into the rank's batch, pass after pass. */
export function backwardBatches(perRank: number, size: number, passes: number, seed: number): number[][] {
  if (perRank % size !== 0) {
    throw says(
      `${perRank} % ${size} != 0`,
      'DataProto.make_iterator',
      'make per_device_train_batch_size × gradient_accumulation_steps divide the samples per rank',
    );
  }
  // DataLoader(shuffle=True, generator=manual_seed(seed)): each pass draws the iterator's base seed (random_), the
  // RandomSampler's permutation, and, on exhausting it, a second randperm whose empty slice [:0] it yields.
  const gen = new Mt19937(seed);
  const out: number[][] = [];
  for (let pass = 0; pass < passes; pass++) {
    gen.random64();
    const perm = Array.from(randperm(perRank, gen));
    randperm(perRank, gen);
    out.push(...chunks(perm, size));
  }
  return out;
}

function plan(step: FrameworkStep, settings: FrameworkSettings, loss: string): { steps: Planned[][]; perStep: number } {
  const ranks = step.sources.length;
  const passes = intSetting(settings, 'ppo-epochs');
  const ga = intSetting(settings, 'gradient-accumulation-steps');
  const seqlens = step.seqlens ?? [];
  const lengthOf = (s: number) => seqlens[s] ?? 0;
  if (boolSetting(settings, 'use-dynamic-batching-in-train')) {
    const strategy = settings['strategy-name'];
    if (!(typeof strategy === 'string' && strategy.toLowerCase().includes('megatron'))) {
      throw new ConfigError(
        `ROLL ${ROLL_VERSION}: dynamic batching's micro-batch cut is trained by MegatronTrainStrategy; FSDP2TrainStrategy.train_step ` +
          're-chunks each mini-batch by per_device_train_batch_size, which the sandbox does not model: set --strategy-name megatron_train',
      );
    }
    const cut = rollDispatch(seqlens, ranks, {
      maxTokens: intSetting(settings, 'max-tokens-per-microbatch-in-train'),
      round: intSetting(settings, 'sequence-length-round-in-train'),
    }).dynamic!;
    const groups = chunks(
      cut.microBatchIndices.map((range, m) => ({ range, length: cut.microBatchLengths[m]! })),
      ga,
    );
    const steps: Planned[][] = [];
    for (let pass = 0; pass < passes; pass++) {
      for (const group of groups) {
        const mbs: Planned[] = [];
        for (let r = 0; r < ranks; r++) {
          for (const { range, length } of group) {
            const samples = cut.shards[r]!.slice(range[0], range[1]);
            let sum = 0;
            for (const s of samples) sum += lengthOf(s);
            mbs.push({ rank: r, samples, width: length - 1, padding: samples.length * length - sum });
          }
        }
        steps.push(mbs);
      }
    }
    return { steps, perStep: ga };
  }
  const perDevice = intSetting(settings, 'per-device-train-batch-size');
  const seqLen = settings['sequence-length'];
  if (loss === 'seq-mean-token-sum-norm' && typeof seqLen !== 'number') {
    throw new ConfigError(
      `ROLL ${ROLL_VERSION}: seq-mean-token-sum-norm divides by loss_mask.shape[-1] (sequence_length − 1); ` +
        'give --sequence-length (sequence_length, or prompt_length + response_length)',
    );
  }
  const perRank = step.sources[0]?.length ?? 0;
  const batches = backwardBatches(perRank, perDevice * ga, passes, intSetting(settings, 'seed'));
  const steps = batches.map((positions) => {
    const mbs: Planned[] = [];
    for (let r = 0; r < ranks; r++) {
      const local = positions.map((p) => step.sources[r]![p]!);
      for (const samples of chunks(local, perDevice)) {
        let sum = 0;
        for (const s of samples) sum += lengthOf(s);
        const padding = typeof seqLen === 'number' ? samples.length * seqLen - sum : padToLongest(samples, step.seqlens ?? []);
        mbs.push({ rank: r, samples, width: typeof seqLen === 'number' ? seqLen - 1 : null, padding });
      }
    }
    return mbs;
  });
  return { steps, perStep: ga };
}

function optimizerSteps(
  step: FrameworkStep,
  completionTokens: readonly number[],
  settings: FrameworkSettings,
  loss: string,
  firstIndex: number,
): TrainerStep[] {
  if (!(ROLL_LOSSES as readonly string[]).includes(loss)) throw new ConfigError(`Invalid loss_agg_mode: ${loss}`);
  if (intSetting(settings, 'context-parallel-size') > 1) {
    throw new ConfigError(`ROLL ${ROLL_VERSION}: context parallelism rescales the token counts (÷ cp_size); the sandbox models CP 1`);
  }
  const ranks = step.sources.length;
  const planned = plan(step, settings, loss);
  return planned.steps.map((mbs, k) => {
    const { policyVersion, trainVersion } = versions(firstIndex, k);
    let tokens = 0;
    let valid = 0;
    for (const mb of mbs) {
      for (const s of mb.samples) {
        const n = completionTokens[s] ?? 0;
        tokens += n;
        if (n > 0) valid++;
      }
    }
    // _get_batch_num_tokens / _get_global_valid_samples replace a zero count by 1.
    const batchTokens = tokens || 1;
    const validSamples = valid || 1;
    const scale = `× loss_scale ${planned.perStep}·${ranks} ÷ ${planned.perStep} micro-batches ÷ ${ranks} ranks`;
    const micro: TrainerMicroBatch[] = mbs.map((mb) => {
      const weightOf = (s: number): number => {
        const n = completionTokens[s] ?? 0;
        if (n === 0) return 0;
        if (loss === 'token-mean') return 1 / batchTokens;
        if (loss === 'seq-mean-token-mean') return 1 / (n + EPS) / (validSamples + EPS);
        if (loss === 'seq-mean-token-sum') return 1 / (validSamples + EPS);
        return 1 / mb.width!;
      };
      const normaliser =
        loss === 'token-mean'
          ? `Σ loss / batch_num_tokens ${batchTokens} (all ranks) ${scale}`
          : loss === 'seq-mean-token-sum-norm'
            ? `Σ sequence token sums / loss_mask.shape[-1] ${mb.width} ${scale}`
            : `Σ sequence token ${loss === 'seq-mean-token-mean' ? 'means' : 'sums'} / global_valid_samples ${validSamples} (all ranks) ${scale}`;
      return microBatch({
        rank: mb.rank,
        samples: mb.samples,
        completionTokens,
        padding: mb.padding,
        normaliser,
        weight: mb.samples.map(weightOf),
        policyVersion,
        trainVersion,
      });
    });
    return { index: firstIndex + k, microBatches: micro };
  });
}

/** "every token of an optimizer step weighs the same", where it does (the sequence-count and padded-width modes). */
function uniformWithinSteps(run: TrainerRun, what: string): string | null {
  const uniform = run.steps.every((step) => {
    const ws = step.microBatches.flatMap((mb) => mb.weights.filter((_, i) => mb.samples[i] !== undefined));
    return ws.every((w) => w === ws[0]);
  });
  return uniform ? `Within an optimizer step every token weighs the same, ${what}, whatever its completion's length or micro-batch.` : null;
}

function findings(run: TrainerRun): string[] {
  const out =
    run.loss === 'seq-mean-token-sum'
      ? [
          uniformWithinSteps(run, '1 / global_valid_samples'),
          scaleFinding(
            run,
            'seq-mean-token-sum divides the summed tokens by the number of sequences (global_valid_samples), not by tokens',
          ),
        ]
      : run.loss === 'seq-mean-token-sum-norm'
        ? [
            uniformWithinSteps(run, '1 / loss_mask.shape[-1] (the padded length − 1)') ?? weightSpreadFinding(run.steps, 'packing'),
            scaleFinding(
              run,
              'seq-mean-token-sum-norm divides each micro-batch by its padded width (loss_mask.shape[-1]) and never by a count of ' +
                'sequences, so the update grows with the batch',
            ),
          ]
        : [weightSpreadFinding(run.steps, run.loss === 'seq-mean-token-mean' ? 'sample-mean' : 'micro-batch')];
  out.push(offPolicyFinding(run.steps));
  return out.filter((s): s is string => s !== null);
}

export const ROLL_TRAINER: TrainerWithFindings = {
  losses: ROLL_LOSSES,
  lossFlag: 'loss-agg-mode',
  sequenceRatio: [],
  about:
    'agg_loss per micro-batch with batch_num_tokens / global_valid_samples all-reduced over the backward batch of every rank, ' +
    '× num_microbatches × dp_size, ÷ num_microbatches, averaged over ranks: one global normaliser per optimizer step',
  optimizerSteps,
  findings,
};
