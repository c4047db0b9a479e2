// TRL's batch as one optimizer step on one rank (the weights figure's columns of TRL and its wrappers): the trl
// sampler with --batch the whole batch, one epoch of its prompts, max_completion_length at least the longest.
import type { OneStepBatch } from '../one-step.ts';

export const trlOneStep = (b: OneStepBatch): Record<string, string> => ({
  ranks: '1',
  batch: String(b.samples),
  k: String(b.k),
  'dataset-size': String(b.prompts),
  epochs: '1',
  'max-completion-length': String(b.maxLength),
});
