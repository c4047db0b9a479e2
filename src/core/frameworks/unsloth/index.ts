// Unsloth's home: a wrapper of TRL (the trl sampler's layout under --framework unsloth-015bdef), with its own
// reading of the batch settings and its steps model, as one SamplerFrameworkHome.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { UNSLOTH_STEPS } from './steps.ts';
import { unsloth } from './trl-reading.ts';

export const home = {
  name: 'unsloth',
  samplers: [],
  steps: UNSLOTH_STEPS,
  schemes: [],
  samplerDefaults: [],
  emitter: { absent: 'layout --emit writes no Unsloth configuration (its layout is the trl sampler’s)' },
  versionRule: { absent: 'probe/grpo_sandbox_probe.py has no Unsloth probe, so no log names its version' },
  trlReadings: [unsloth],
} satisfies SamplerFrameworkHome;
