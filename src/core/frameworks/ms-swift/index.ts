// ms-swift's home: a wrapper of TRL (the trl sampler's layout under --framework ms-swift-3602360), with its own
// reading of the batch settings, steps models and advantage scheme, as one SamplerFrameworkHome.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { schemes } from './advantages.ts';
import { MS_SWIFT_STEPS } from './steps.ts';
import { msSwift } from './trl-reading.ts';

import { trlOneStep } from '../trl/one-step.ts';

export const home = {
  name: 'ms-swift',
  samplers: [],
  steps: MS_SWIFT_STEPS,
  schemes,
  samplerDefaults: [],
  emitter: { absent: 'layout --emit writes no ms-swift configuration (its layout is the trl sampler’s)' },
  versionRule: { absent: 'probe/grpo_sandbox_probe.py has no ms-swift probe, so no log names its version' },
  weightColumns: [{ name: 'ms-swift', framework: 'ms-swift-3602360', loss: null, switched: false, scheme: 'ms-swift', flags: trlOneStep }],
  trlReadings: [msSwift],
} satisfies SamplerFrameworkHome;
