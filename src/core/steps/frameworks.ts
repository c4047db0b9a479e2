// Each framework version's loss normaliser, as its code computes it, and the micro-batching it
// uses. A normaliser gives the factor multiplying d(per-token loss) of each token of one rank's
// micro-batch in that micro-step's backward; DDP / FSDP / accelerate then average the gradient
// over the W ranks (÷ W, applied by the caller), and micro-steps add up until the optimizer steps.
import type { SamplerName } from '../layout/types.ts';
import { type NormaliserTerms, normaliserText } from '../messages/steps.ts';
import type { FrameworkName, FrameworkVersion } from './types.ts';

/** What one rank's micro-step knows when it normalises its loss. */
export interface NormaliserContext {
  ranks: number;
  /** Tokens of each completion of this rank's micro-batch, in order. */
  rows: readonly number[];
  /** Micro-steps in this optimizer step (transformers' current_gradient_accumulation_steps: the last window may be short). */
  window: number;
  /** gradient_accumulation_steps as configured (verl: ppo_mini_batch_size // ppo_micro_batch_size_per_gpu, per rank). */
  ga: number;
  /** TRL's steps_per_generation. */
  stepsPerGeneration: number;
  /** Completion tokens of the whole generation batch the rows come from, every rank (TRL's num_items_in_batch). */
  generationTokens: number;
  /** Completion tokens of every micro-batch of this optimizer step, every rank. */
  windowTokens: number;
  /** Completions of every micro-batch of this optimizer step, every rank (verl's global_batch_size). */
  windowSequences: number;
  /** max_completion_length (TRL dr_grpo) / the padded response length (verl's loss_mask.shape[-1]). */
  maxLength: number;
}

export interface Normaliser {
  /** Weight of each token of row i in this rank's backward (before the mean over ranks). */
  perToken(row: number): number;
  /** The normaliser's formula with its numbers. */
  terms: NormaliserTerms;
  /** The same in English. */
  text: string;
}

/** How a framework cuts generation batches into micro-steps (src/core/steps/schedule.ts). */
export type Schedule = 'trl' | 'flow-grpo' | 'verl' | 'dance-grpo';

export interface FrameworkSpec extends FrameworkVersion {
  /** CLI name (`--framework`). */
  name: FrameworkName;
  schedule: Schedule;
  losses: readonly string[];
  defaultLoss: string;
  /** The samplers whose layouts this framework trains on. */
  accepts(sampler: SamplerName): boolean;
  normaliser(loss: string, c: NormaliserContext): Normaliser;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
/** A normaliser whose weight depends on the token's row. */
const perRow = (perToken: (row: number) => number, terms: NormaliserTerms): Normaliser => ({
  perToken,
  terms,
  text: normaliserText(terms),
});
const constant = (w: number, terms: NormaliserTerms): Normaliser => perRow(() => w, terms);

/** TRL's grpo, bnpo and dr_grpo (unchanged between the two TRL versions), and ms-swift's (Trainer divides by the window). */
function perMicroBatch(loss: string, c: NormaliserContext): Normaliser | null {
  const B = c.rows.length;
  const T = sum(c.rows);
  if (loss === 'grpo') {
    return perRow((i) => 1 / (Math.max(1, c.rows[i]!) * B * c.window), { kind: 'completion-mean', B, ga: c.window });
  }
  if (loss === 'bnpo') return constant(1 / (Math.max(1, T) * c.window), { kind: 'micro-tokens', tokens: T, ga: c.window });
  if (loss === 'dr_grpo') {
    return constant(1 / (B * c.maxLength * c.window), { kind: 'constant-length', B, maxLength: c.maxLength, ga: c.window });
  }
  return null;
}

const TRL_LOSSES = ['grpo', 'bnpo', 'dr_grpo', 'dapo'] as const;
const trlOnly = (s: SamplerName) => s === 'trl';

function unknownLoss(framework: string, loss: string): never {
  throw new Error(`${framework}: no normaliser for loss '${loss}'`);
}

const trl113: FrameworkSpec = {
  name: 'trl-1.13.0',
  pinnedTo: 'trl 1.13.0, trl/trainer/grpo_trainer.py GRPOTrainer._compute_loss (with transformers 5.18.0 Trainer, accelerate 1.15.0)',
  checkedBy: 'run: a real GRPOTrainer under torchrun (test/fixtures/golden-steps-trl.json)',
  schedule: 'trl',
  losses: TRL_LOSSES,
  defaultLoss: 'dapo',
  accepts: trlOnly,
  normaliser(loss, c) {
    const own = perMicroBatch(loss, c);
    if (own) return own;
    if (loss !== 'dapo') unknownLoss(this.name, loss);
    // num_items_in_batch spans the generation batch; rescaled to one accumulation window.
    const n = (Math.max(1, c.generationTokens) / c.ranks) * (c.window / c.stepsPerGeneration);
    return constant(1 / n, {
      kind: 'generation-rescaled',
      generationTokens: c.generationTokens,
      ranks: c.ranks,
      ga: c.window,
      spg: c.stepsPerGeneration,
    });
  },
};

const trlBefore: FrameworkSpec = {
  ...trl113,
  name: 'trl-1.9.0',
  pinnedTo:
    'trl 1.9.0 (tag v1.9.0, 35def3e; main at f2cd577 still has the same code), trl/trainer/grpo_trainer.py _compute_loss: dapo divides ' +
    'by num_items_in_batch / num_processes only, without the rescale by GA / steps_per_generation that PR #6024 added (in 1.13.0)',
  checkedBy:
    'grpo/bnpo/dr_grpo: v1.9.0 reads as 1.13.0, which the fixture runs; dapo: transcription of v1.9.0 (not installed here, not run)',
  normaliser(loss, c) {
    const own = perMicroBatch(loss, c);
    if (own) return own;
    if (loss !== 'dapo') unknownLoss(this.name, loss);
    return constant(c.ranks / Math.max(1, c.generationTokens), {
      kind: 'generation',
      generationTokens: c.generationTokens,
      ranks: c.ranks,
    });
  },
};

/** TRL before dapo (added in 0.20): grpo, bnpo and dr_grpo, normalised as perMicroBatch says. */
const PRE_DAPO_LOSSES = ['grpo', 'bnpo', 'dr_grpo'] as const;

function preDapo(this: FrameworkSpec, loss: string, c: NormaliserContext): Normaliser {
  return perMicroBatch(loss, c) ?? unknownLoss(this.name, loss);
}

const trl0182: FrameworkSpec = {
  ...trl113,
  name: 'trl-0.18.2',
  pinnedTo:
    'trl 0.18.2 (tag v0.18.2), trl/trainer/grpo_trainer.py _compute_loss: grpo, bnpo (its default) and dr_grpo; GRPOConfig.__post_init__ ' +
    'reads the batch settings (src/core/samplers/trl-frameworks.ts)',
  checkedBy:
    'batch settings: GRPOConfig.__post_init__ exec’d from v0.18.2 (test/fixtures/golden-trl-wrappers.json); normalisers: transcription ' +
    '(trl 0.18.2 is not in the local package index, not run)',
  losses: PRE_DAPO_LOSSES,
  defaultLoss: 'bnpo',
  normaliser: preDapo,
};

const unsloth: FrameworkSpec = {
  ...trl113,
  name: 'unsloth-015bdef',
  pinnedTo:
    'unslothai/unsloth 015bdef on trl 0.18.2–0.24.0: unsloth/models/rl.py sets loss_type bnpo and beta 0.001 and may rewrite ' +
    'per_device_train_batch_size (src/core/samplers/trl-frameworks.ts); the normalisers are TRL’s grpo, bnpo and dr_grpo',
  checkedBy:
    'batch settings: Unsloth’s check exec’d from 015bdef (test/fixtures/golden-trl-wrappers.json); normalisers: TRL’s, assumed (Unsloth ' +
    'replaces the loss with unsloth_zoo’s grpo_accumulated_loss, which was not read)',
  losses: PRE_DAPO_LOSSES,
  defaultLoss: 'bnpo',
  normaliser: preDapo,
};

const MS_SWIFT_LOSSES = TRL_LOSSES;

const msSwiftBefore: FrameworkSpec = {
  name: 'ms-swift-efd0a54',
  pinnedTo:
    'ms-swift at efd0a54, swift/rlhf_trainers/grpo_trainer.py: dapo/cispo/fipo divide by num_items_in_batch (the accumulation window, ' +
    'every process) / num_processes, and transformers Trainer.training_step divides every loss by current_gradient_accumulation_steps',
  checkedBy: 'transcription (ms-swift not installed here); micro-batching assumed to be TRL’s, which its GRPOTrainer extends',
  schedule: 'trl',
  losses: MS_SWIFT_LOSSES,
  defaultLoss: 'grpo',
  accepts: trlOnly,
  normaliser(loss, c) {
    const own = perMicroBatch(loss, c);
    if (own) return own;
    if (loss !== 'dapo') unknownLoss(this.name, loss);
    return constant(c.ranks / (Math.max(1, c.windowTokens) * c.window), {
      kind: 'window-twice',
      windowTokens: c.windowTokens,
      ranks: c.ranks,
      ga: c.window,
    });
  },
};

const msSwift3602360: FrameworkSpec = {
  ...msSwiftBefore,
  name: 'ms-swift-3602360',
  pinnedTo:
    'modelscope/ms-swift 3602360 (trl>=0.26,<1.0): loss_type grpo and beta 0.04 by default (swift/arguments/rlhf_args.py); its batch ' +
    'settings and sequence-parallel sampler in src/core/samplers/trl-frameworks.ts; grpo, bnpo and dr_grpo normalised as TRL does',
  checkedBy:
    'batch settings: _init_generation_batch_params exec’d from 3602360 (test/fixtures/golden-trl-wrappers.json); normalisers: ' +
    'transcription (ms-swift not installed here)',
  losses: PRE_DAPO_LOSSES,
  normaliser: preDapo,
};

const msSwiftAfter: FrameworkSpec = {
  ...msSwiftBefore,
  name: 'ms-swift-pr10116',
  pinnedTo:
    'ms-swift with PR #10116 (merged): dapo/cispo/fipo multiply the window-normalised loss by current_gradient_accumulation_steps, ' +
    'so Trainer’s division cancels',
  normaliser(loss, c) {
    const own = perMicroBatch(loss, c);
    if (own) return own;
    if (loss !== 'dapo') unknownLoss(this.name, loss);
    return constant(c.ranks / Math.max(1, c.windowTokens), { kind: 'window', windowTokens: c.windowTokens, ranks: c.ranks });
  },
};

/** agg_loss's seq-mean-token-mean divides each sequence by (its tokens + 1e-8). */
const VERL_EPS = 1e-8;
const VERL_LOSSES = ['token-mean', 'seq-mean-token-sum', 'seq-mean-token-mean', 'seq-mean-token-sum-norm'] as const;
/** verl trains on its own layouts and on any sampler that is not TRL's or DanceGRPO's (a rank's block of each step). */
const verlAccepts = (s: SamplerName) => s !== 'trl' && s !== 'dance-grpo';

const verlLegacy: FrameworkSpec = {
  name: 'verl-b178a3c',
  pinnedTo:
    'verl at b178a3c, the default worker (use_legacy_worker_impl: auto): workers/actor/dp_actor.py update_policy calls ' +
    'core_algos.agg_loss on each micro-batch without global_batch_info and scales by 1 / gradient_accumulation',
  checkedBy: 'agg_loss exec’d from the checkout (test/fixtures/golden-steps-verl.json); update_policy’s scaling: transcription',
  schedule: 'verl',
  losses: VERL_LOSSES,
  defaultLoss: 'token-mean',
  accepts: verlAccepts,
  normaliser(loss, c) {
    // agg_loss's global_batch_size defaults to the micro-batch's sequences with at least one token.
    const B = Math.max(1, c.rows.filter((n) => n > 0).length);
    const T = sum(c.rows);
    const ga = c.ga;
    if (loss === 'token-mean') return constant(1 / (Math.max(1, T) * ga), { kind: 'verl-tokens', tokens: T, ga });
    if (loss === 'seq-mean-token-sum') return constant(1 / (B * ga), { kind: 'verl-sequences', B, ga });
    if (loss === 'seq-mean-token-mean') {
      return perRow((i) => 1 / ((c.rows[i]! + VERL_EPS) * B * ga), { kind: 'verl-sequence-mean', B, ga });
    }
    if (loss === 'seq-mean-token-sum-norm') {
      return constant(1 / (c.maxLength * ga), { kind: 'verl-length', maxLength: c.maxLength, ga });
    }
    unknownLoss(this.name, loss);
  },
};

const verlEngine: FrameworkSpec = {
  ...verlLegacy,
  name: 'verl-b178a3c-engine',
  pinnedTo:
    'verl at b178a3c with use_legacy_worker_impl: disable: workers/utils/losses.py ppo_loss passes global_batch_info (batch_num_tokens ' +
    'all-reduced over the data-parallel group per mini-batch, global_batch_size, dp_size) to core_algos.agg_loss; no 1/GA',
  normaliser(loss, c) {
    const W = c.ranks;
    const N = Math.max(1, c.windowTokens);
    const S = c.windowSequences;
    if (loss === 'token-mean') return constant(W / N, { kind: 'engine-tokens', tokens: N, dp: W });
    if (loss === 'seq-mean-token-sum') return constant(W / S, { kind: 'engine-sequences', sequences: S, dp: W });
    if (loss === 'seq-mean-token-mean') {
      return perRow((i) => W / ((c.rows[i]! + VERL_EPS) * S), { kind: 'engine-sequence-mean', sequences: S, dp: W });
    }
    if (loss === 'seq-mean-token-sum-norm') return constant(1 / c.maxLength, { kind: 'engine-length', maxLength: c.maxLength });
    unknownLoss(this.name, loss);
  },
};

const flowGrpo: FrameworkSpec = {
  name: 'flow_grpo-ac4c86e',
  pinnedTo:
    'flow_grpo at ac4c86e, scripts/train_sd3.py: policy_loss = mean over the training batch at each timestep, ' +
    'accelerator.accumulate with gradient_accumulation_steps = train.gradient_accumulation_steps × num_train_timesteps',
  checkedBy: 'transcription (a diffusion run does not fit here); one "token" per sample: the timesteps cancel',
  schedule: 'flow-grpo',
  losses: ['sample-mean'],
  defaultLoss: 'sample-mean',
  accepts: (s) => s === 'flow-grpo' || s === 'flow-grpo-lcm' || s === 'contiguous' || s === 'group-distributed',
  normaliser(loss, c) {
    if (loss !== 'sample-mean') unknownLoss(this.name, loss);
    const B = c.rows.length;
    return constant(1 / (B * c.ga), { kind: 'sample-mean', B, ga: c.ga });
  },
};

const flowGrpoFast: FrameworkSpec = {
  ...flowGrpo,
  name: 'flow_grpo-sd3-fast-74db691',
  pinnedTo:
    'flow_grpo at 74db691, scripts/train_sd3_fast.py: policy_loss = mean over the training batch at each timestep, accelerator.accumulate ' +
    'with gradient_accumulation_steps = train.gradient_accumulation_steps × num_train_timesteps; its layout: a new iterator after each ' +
    'set_epoch, not prepared (src/core/samplers/flow-grpo-fast.ts)',
  checkedBy:
    'transcription (read from the stored public file, no checkout; a diffusion run does not fit here); the script drops samples whose ' +
    'advantages are all zero before re-batching, which is not modelled',
  accepts: (s) => s === 'flow-grpo',
};

const danceGrpo: FrameworkSpec = {
  name: 'dance-grpo-22b85ef',
  pinnedTo:
    'DanceGRPO at 22b85ef, fastvideo/train_grpo_flux.py train_one_step: each sample is its own micro-batch; at each of its ' +
    'train_timesteps timesteps loss = mean over the micro-batch / (gradient_accumulation_steps × train_timesteps), optimizer.step ' +
    'every gradient_accumulation_steps samples, and the next step’s optimizer.zero_grad drops a short last window',
  checkedBy:
    'transcription (read from the stored public file, no checkout; a diffusion run does not fit here): ' +
    'test/fixtures/golden-steps-dance-grpo.json; one "token" per sample: the timesteps cancel',
  schedule: 'dance-grpo',
  losses: ['sample-mean'],
  defaultLoss: 'sample-mean',
  accepts: (s) => s === 'dance-grpo',
  normaliser(loss, c) {
    if (loss !== 'sample-mean') unknownLoss(this.name, loss);
    const B = c.rows.length;
    return constant(1 / (B * c.ga), { kind: 'dance-sample-mean', B, ga: c.ga });
  },
};

/** Every framework version, CLI name → spec, in display order. */
export const FRAMEWORKS: Record<string, FrameworkSpec> = {
  'trl-1.13.0': trl113,
  'trl-1.9.0': trlBefore,
  'trl-0.18.2': trl0182,
  'unsloth-015bdef': unsloth,
  'ms-swift-3602360': msSwift3602360,
  'ms-swift-efd0a54': msSwiftBefore,
  'ms-swift-pr10116': msSwiftAfter,
  'verl-b178a3c': verlLegacy,
  'verl-b178a3c-engine': verlEngine,
  'flow_grpo-ac4c86e': flowGrpo,
  'flow_grpo-sd3-fast-74db691': flowGrpoFast,
  'dance-grpo-22b85ef': danceGrpo,
} satisfies Record<FrameworkName, FrameworkSpec>;

export const FRAMEWORK_NAMES = Object.keys(FRAMEWORKS);

/** The framework a sampler's layout is trained by when `--framework` is not given; null when none is modelled. */
export function defaultFramework(sampler: SamplerName): FrameworkSpec | null {
  if (sampler === 'trl') return trl113;
  if (sampler === 'dance-grpo') return danceGrpo;
  if (flowGrpo.accepts(sampler)) return flowGrpo;
  return verlLegacy;
}
