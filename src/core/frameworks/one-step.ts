// One batch as one optimizer step of a framework home: the flags of its own keys that make it so (each home's
// `oneStep`), and the weight its trainer then gives each completion's tokens in the applied update, read from the
// optimizer step `steps --framework NAME` builds (the home's layout and TrainerDef). The weights figure
// (core/grpo/compare-weights.ts) and `train --framework NAME` (src/train/home-normaliser.ts) take them from here.
import { ConfigError } from '../errors.ts';
import { frameworkSettingsFrom } from './reading.ts';
import type { FrameworkHome } from './types.ts';

/** A batch of `samples` completions, `prompts` × k, none longer than `maxLength` tokens. */
export interface OneStepBatch {
  prompts: number;
  k: number;
  samples: number;
  /** The response width the batch needs: at least its longest completion. */
  maxLength: number;
}

/** The flags every home's one-step batch starts from: one rank, one training step of the batch's prompts, that dataset. */
export const oneStepBase = (b: OneStepBatch): Record<string, string> => ({
  ranks: '1',
  'train-batch-size': String(b.prompts),
  k: String(b.k),
  'dataset-size': String(b.prompts),
});

/**
 * A column of the weights figure (core/grpo/compare-weights.ts) from one of a sampler-style home's `steps` versions:
 * the flags of `steps` (besides --framework and --lengths) that make a batch one optimizer step on one rank.
 */
export interface SpecWeightColumn {
  /** Column name: the framework (and the loss, where one framework shows two). */
  name: string;
  /** `steps --framework` value: one of the home's step specs. */
  framework: string;
  /** The loss the column shows; null: the version's shipped default. */
  loss: string | null;
  /** Whether `loss` is a documented switch shown beside the default. */
  switched: boolean;
  /** The sandbox's scheme of the framework's default advantages. */
  scheme: string;
  flags(batch: OneStepBatch): Record<string, string>;
}

export interface OneStepWeights {
  /** The flags of the home's keys the step ran with (`steps --framework NAME` with them and --lengths/--seqlens gives it). */
  flags: Record<string, string>;
  /** The loss mode run (the home's default where none was asked). */
  loss: string;
  /** The first micro-batch's normaliser as `steps` says it. */
  normaliser: string | null;
  /** Each completion's per-token weight in the applied update, in input order. */
  weights: number[];
}

/**
 * The weights `home`'s trainer gives the batch of `lengths` (completion tokens, in input order; prompts of k
 * consecutive completions) as one optimizer step, under `loss` (null: the home's default), with a response width of
 * `maxLength` (at least the longest). Throws ConfigError in the framework's words where it refuses the batch, or where
 * it is not one optimizer step.
 */
export function homeStepWeights(
  home: FrameworkHome,
  lengths: readonly number[],
  k: number,
  loss: string | null,
  maxLength = lengths.reduce((a, b) => Math.max(a, b), 0),
): OneStepWeights {
  const trainer = home.trainer;
  if (!trainer) throw new ConfigError(`${home.title} has no trainer model`);
  const samples = lengths.length;
  if (samples % k !== 0) throw new ConfigError(`${samples} completions are not a whole number of prompts of k=${k}`);
  const flags = home.oneStep({ prompts: samples / k, k, samples, maxLength });
  const { settings } = frameworkSettingsFrom(home, flags, () => {
    throw new Error('a one-step batch reads no config file');
  });
  const mode = loss ?? (trainer.lossFlag ? String(settings[trainer.lossFlag] ?? trainer.losses[0]) : trainer.losses[0]!);
  const first = home.layout(settings, lengths).steps[0];
  if (!first) throw new ConfigError(`${home.title} trains no step on this batch`);
  const steps = trainer.optimizerSteps(first, lengths, settings, mode, 0);
  if (steps.length !== 1) throw new ConfigError(`${home.title} takes ${steps.length} optimizer steps for this batch, not one`);
  const weights = new Array<number>(samples).fill(Number.NaN);
  for (const mb of steps[0]!.microBatches) mb.samples.forEach((s, i) => (weights[s] = mb.weights[i]!));
  const missing = weights.findIndex((w) => Number.isNaN(w));
  if (missing >= 0) throw new ConfigError(`${home.title}'s optimizer step does not train completion ${missing}`);
  const normaliser = steps[0]!.microBatches.find((mb) => mb.samples.length > 0)?.normaliser ?? null;
  return { flags, loss: mode, normaliser, weights };
}
