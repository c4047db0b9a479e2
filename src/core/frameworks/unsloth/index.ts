// Unsloth's home: a wrapper of TRL (the trl sampler's layout under --framework unsloth-015bdef), with its own
// reading of the batch settings and its steps model, as one SamplerFrameworkHome.
import type { SamplerFrameworkHome } from '../sampler-home.ts';
import { UNSLOTH_STEPS } from './steps.ts';
import { unsloth } from './trl-reading.ts';

import { trlOneStep } from '../trl/one-step.ts';

export const home = {
  name: 'unsloth',
  samplers: [],
  steps: UNSLOTH_STEPS,
  schemes: [],
  samplerDefaults: [],
  emitter: { absent: 'layout --emit writes no Unsloth configuration (its layout is the trl sampler’s)' },
  versionRule: { absent: 'probe/grpo_sandbox_probe.py has no Unsloth probe, so no log names its version' },
  weightColumns: [
    // TRL 0.18.2–0.24.0's group advantages (scale_rewards group) and Unsloth's own default loss bnpo, over its default
    // gradient_accumulation_steps 2: the batch two micro-batches of half the samples (an odd count: GA 1). Unsloth's
    // rewrite of the batch size never fires: GA × batch is the samples.
    {
      name: 'unsloth',
      framework: 'unsloth-015bdef',
      loss: null,
      switched: false,
      scheme: 'trl-group',
      flags: (b) => {
        const ga = b.samples % 2 === 0 ? 2 : 1;
        return { ...trlOneStep(b), batch: String(b.samples / ga), 'gradient-accumulation-steps': String(ga) };
      },
    },
  ],
  trlReadings: [unsloth],
} satisfies SamplerFrameworkHome;
