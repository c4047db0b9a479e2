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
  weightColumns: [
    // A diffusion trainer: one weight per sample; DanceGRPO steps the optimizer every gradient_accumulation_steps
    // samples: all of them, one step.
    {
      name: 'dance-grpo',
      framework: 'dance-grpo-22b85ef',
      loss: null,
      switched: false,
      scheme: 'dance',
      flags: (b) => ({
        sampler: 'dance-grpo',
        ranks: '1',
        batch: String(b.samples),
        k: String(b.k),
        'dataset-size': String(b.prompts),
        epochs: '1',
        'gradient-accumulation-steps': String(b.samples),
      }),
    },
  ],
  trlReadings: [],
} satisfies SamplerFrameworkHome;
