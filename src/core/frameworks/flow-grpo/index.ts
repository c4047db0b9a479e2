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
  weightColumns: [
    // A diffusion trainer: one weight per sample (its steps take no lengths); the batch one training batch, one an epoch.
    {
      name: 'flow_grpo',
      framework: 'flow_grpo-ac4c86e',
      loss: null,
      switched: false,
      scheme: 'flow-grpo',
      flags: (b) => ({
        sampler: 'flow-grpo',
        ranks: '1',
        batch: String(b.samples),
        k: String(b.k),
        'dataset-size': String(b.prompts),
        epochs: '1',
        'batches-per-epoch': '1',
      }),
    },
  ],
  trlReadings: [],
} satisfies SamplerFrameworkHome;
