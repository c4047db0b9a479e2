// Flow-Factory's home: the group-distributed sampler (GroupDistributedSampler) and what its run does after it,
// as one SamplerFrameworkHome. The sandbox models no more of it: no steps model, scheme, `--emit` target or probe.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { samplerDefaults } from './advantages.ts';
import { groupDistributed } from './sampler.ts';

export const home = {
  name: 'flow-factory',
  samplers: [groupDistributed],
  steps: [],
  schemes: [],
  samplerDefaults,
  emitter: { absent: 'layout --emit writes no Flow-Factory configuration' },
  versionRule: { absent: 'probe/grpo_sandbox_probe.py has no Flow-Factory probe, so no log names its version' },
  weightColumns: [],
  trlReadings: [],
} satisfies SamplerFrameworkHome;
