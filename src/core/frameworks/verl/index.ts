// verl's home: the verl sampler (RandomSampler, balance_batch, DataProto.chunk), its steps models, advantages,
// `--emit` target and version rule, as one SamplerFrameworkHome.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { samplerDefaults, schemes } from './advantages.ts';
import { emitter } from './emit.ts';
import { verl } from './sampler.ts';
import { VERL_STEPS } from './steps.ts';
import { versionRule } from './versions.ts';

export const home = {
  name: 'verl',
  samplers: [verl],
  steps: VERL_STEPS,
  schemes,
  samplerDefaults,
  emitter,
  versionRule,
  weightColumns: [
    {
      name: 'verl',
      framework: 'verl-b178a3c',
      loss: null,
      switched: false,
      scheme: 'verl',
      flags: (b) => ({
        sampler: 'verl',
        ranks: '1',
        'train-batch-size': String(b.prompts),
        k: String(b.k),
        'dataset-size': String(b.prompts),
        epochs: '1',
        'max-completion-length': String(b.maxLength),
      }),
    },
  ],
  trlReadings: [],
} satisfies SamplerFrameworkHome;
