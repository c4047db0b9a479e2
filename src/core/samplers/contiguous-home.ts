// The generic contiguous sampler (contiguous.ts: Flow-Factory's GroupContiguousSampler run) as an entry of the
// sampler homes' list (src/core/frameworks/sampler-homes.ts), so it keeps its place in the samplers' order.
// It is no framework's code at a pinned version: no steps model, scheme, `--emit` target or version rule.
import type { SamplerDefault } from '../grpo/scheme-types.ts';
import type { SamplerFrameworkHome } from '../frameworks/sampler-home.ts';
import { contiguous } from './contiguous.ts';

/** What the run of Flow-Factory's GroupContiguousSampler does after it. */
const samplerDefaults = [
  {
    sampler: 'contiguous',
    framework: 'Flow-Factory (GroupContiguousSampler)',
    regroup: 'local',
    scale: 'group',
    does: 'keeps all k copies on one rank, so each rank can form its groups without a gather',
  },
] as const satisfies readonly SamplerDefault[];

export const home = {
  name: 'contiguous',
  samplers: [contiguous],
  steps: [],
  schemes: [],
  samplerDefaults,
  emitter: { absent: 'layout --emit writes no configuration for the generic sampler' },
  versionRule: { absent: 'the generic sampler pins no framework version for a probe log to be checked against' },
  weightColumns: [],
  trlReadings: [],
} satisfies SamplerFrameworkHome;
