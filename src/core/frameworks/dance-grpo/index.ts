// DanceGRPO's home: the dance-grpo sampler (its DistributedSampler loop), its steps model, advantages,
// `--emit` target and version rule, as one SamplerFrameworkHome.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { samplerDefaults, schemes } from './advantages.ts';
import { emitter } from './emit.ts';
import { danceGrpo } from './sampler.ts';
import { DANCE_GRPO_STEPS } from './steps.ts';
import { versionRule } from './versions.ts';

export const home = {
  name: 'dance-grpo',
  samplers: [danceGrpo],
  steps: DANCE_GRPO_STEPS,
  schemes,
  samplerDefaults,
  emitter,
  versionRule,
  trlReadings: [],
} satisfies SamplerFrameworkHome;
