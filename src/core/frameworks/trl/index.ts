// TRL's home: the trl sampler (RepeatSampler + accelerate's per-process blocks), its steps models, advantages,
// `--emit` target, version rule and TRL 0.18.2's reading of the batch settings, as one SamplerFrameworkHome.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { samplerDefaults, schemes } from './advantages.ts';
import { emitter } from './emit.ts';
import { trl } from './sampler.ts';
import { TRL_STEPS } from './steps.ts';
import { trl018 } from './v018.ts';
import { versionRule } from './versions.ts';

export const home = {
  name: 'trl',
  samplers: [trl],
  steps: TRL_STEPS,
  schemes,
  samplerDefaults,
  emitter,
  versionRule,
  trlReadings: [trl018],
} satisfies SamplerFrameworkHome;
