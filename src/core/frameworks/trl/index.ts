// TRL's home: the trl sampler (RepeatSampler + accelerate's per-process blocks), its steps models, advantages,
// `--emit` target, version rule and TRL 0.18.2's reading of the batch settings, as one SamplerFrameworkHome.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { samplerDefaults, schemes } from './advantages.ts';
import { emitter } from './emit.ts';
import { trl } from './sampler.ts';
import { TRL_STEPS } from './steps.ts';
import { trl018 } from './v018.ts';
import { versionRule } from './versions.ts';

import { trlOneStep } from './one-step.ts';

export const home = {
  name: 'trl',
  samplers: [trl],
  steps: TRL_STEPS,
  schemes,
  samplerDefaults,
  emitter,
  versionRule,
  weightColumns: [
    { name: 'trl', framework: 'trl-1.13.0', loss: null, switched: false, scheme: 'trl-group', flags: trlOneStep },
    { name: 'trl-grpo', framework: 'trl-1.13.0', loss: 'grpo', switched: true, scheme: 'trl-group', flags: trlOneStep },
  ],
  trlReadings: [trl018],
} satisfies SamplerFrameworkHome;
