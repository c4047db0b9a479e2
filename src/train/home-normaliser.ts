// A framework home's loss normaliser in train (`train --framework nemo-rl`, …): every completion of the controller is
// ACTIONS_PER_CONFIG tokens, so each home's trainer (core/frameworks/<name>/trainer.ts, checked against its own code)
// gives every token of a step the same weight; it is read from the home's model of one optimizer step of the run's
// global batch (core/frameworks/one-step.ts: the batch `steps --framework NAME` and the weights figure run), and a
// plain step's loss is rescaled to it (step.ts's rescaleToNormaliser: perToken before DDP's mean over the ranks).
import { ACTIONS_PER_CONFIG } from '../core/env/controller.ts';
import { ConfigError } from '../core/errors.ts';
import { TRAINED_HOMES } from '../core/frameworks/index.ts';
import { homeStepWeights } from '../core/frameworks/one-step.ts';
import type { FrameworkHome } from '../core/frameworks/types.ts';

/** Two weights closer than this (relative) are one weight (the trainers' float32 factors round at ~6e-8). */
const SAME = 1e-6;

/** The homes train can apply: those with a trainer model. */
export const trainableHome = (name: string): FrameworkHome | undefined => TRAINED_HOMES.find((h) => h.name === name);

const cache = new Map<string, { weight: number; normaliser: string | null }>();

/**
 * The weight of each token in the applied update under `home`'s `loss` for a step of `samples` completions of k, every
 * one ACTIONS_PER_CONFIG tokens long; throws ConfigError where the home refuses that batch or weighs its tokens unevenly.
 */
export function homeTokenWeight(
  home: FrameworkHome,
  loss: string,
  samples: number,
  k: number,
): { weight: number; normaliser: string | null } {
  const key = `${home.name}\0${loss}\0${samples}\0${k}`;
  const held = cache.get(key);
  if (held) return held;
  const lengths = new Array<number>(samples).fill(ACTIONS_PER_CONFIG);
  const { weights, normaliser } = homeStepWeights(home, lengths, k, loss);
  const first = weights[0]!;
  const far = weights.findIndex((w) => Math.abs(w - first) > SAME * Math.abs(first));
  if (far >= 0) {
    throw new ConfigError(
      `--framework ${home.name} weighs completion ${far}'s tokens ${weights[far]} and completion 0's ${first} although every ` +
        `completion has ${ACTIONS_PER_CONFIG} tokens: its micro-batches cut this batch of ${samples} unevenly, which train does not model`,
    );
  }
  const out = { weight: first, normaliser };
  cache.set(key, out);
  return out;
}

/**
 * The per-token weight of every row of this rank before DDP's mean over `ranks` (the factor the plain step's loss is
 * rescaled to), for a run under framework `name` whose step gathers `samples` completions; null: not a home's.
 */
export function homePerToken(name: string, loss: string, ranks: number, samples: number, k: number): ((row: number) => number) | null {
  const home = trainableHome(name);
  if (!home) return null;
  const { weight } = homeTokenWeight(home, loss, samples, k);
  return () => weight * ranks;
}
