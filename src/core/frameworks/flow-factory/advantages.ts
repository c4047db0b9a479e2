// Flow-Factory's advantages as far as the sandbox models them: the regrouping and scale its
// GroupDistributedSampler's run uses (the generic contiguous sampler keeps its own entry).
import type { SamplerDefault } from '../../grpo/scheme-types.ts';

/** What Flow-Factory does after its GroupDistributedSampler spreads a prompt's copies. */
export const samplerDefaults = [
  {
    sampler: 'group-distributed',
    framework: 'Flow-Factory (GroupDistributedSampler)',
    regroup: 'uid',
    scale: 'group',
    does:
      'spreads each prompt’s copies over ranks, so groups form after the gather (by draw here: the docs this sandbox follows do not record its ' +
      'exact grouping)',
  },
] as const satisfies readonly SamplerDefault[];
