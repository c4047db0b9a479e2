// flow_grpo's home: its two samplers (the published DistributedKRepeatSampler and the rewritten lcm one),
// its steps models, advantages, `--emit` target and version rule, as one SamplerFrameworkHome.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { samplerDefaults, schemes } from './advantages.ts';
import { emitter } from './emit.ts';
import { flowGrpo, flowGrpoLcm } from './sampler.ts';
import { FLOW_GRPO_STEPS } from './steps.ts';
import { versionRule } from './versions.ts';

export const home = {
  name: 'flow-grpo',
  samplers: [flowGrpo, flowGrpoLcm],
  steps: FLOW_GRPO_STEPS,
  schemes,
  samplerDefaults,
  emitter,
  versionRule,
  trlReadings: [],
} satisfies SamplerFrameworkHome;
