// Which regrouping and advantage each sampler's framework uses (docs/frameworks.md), so a
// front end can start from what the real framework does and mark any other choice as a
// "what if" on that layout. Each entry is declared in its framework's home
// (src/core/frameworks/<name>/advantages.ts, `samplerDefaults`); the generic contiguous sampler's is here.
import { samplerDefaults as danceGrpo } from '../frameworks/dance-grpo/advantages.ts';
import { samplerDefaults as flowFactory } from '../frameworks/flow-factory/advantages.ts';
import { samplerDefaults as flowGrpo } from '../frameworks/flow-grpo/advantages.ts';
import { samplerDefaults as trl } from '../frameworks/trl/advantages.ts';
import { samplerDefaults as verl } from '../frameworks/verl/advantages.ts';
import type { SamplerName } from '../layout/types.ts';
import type { FrameworkDefault, SamplerDefault } from './scheme-types.ts';

export type { FrameworkDefault } from './scheme-types.ts';

/** The generic sampler that keeps a prompt's copies on one rank: Flow-Factory's GroupContiguousSampler's run. */
const contiguous = {
  sampler: 'contiguous',
  framework: 'Flow-Factory (GroupContiguousSampler)',
  regroup: 'local',
  scale: 'group',
  does: 'keeps all k copies on one rank, so each rank can form its groups without a gather',
} as const satisfies SamplerDefault;

const DEFAULTS = [...flowGrpo, ...trl, ...danceGrpo, contiguous, ...verl, ...flowFactory] as const;
/** The samplers no home declares a default for: the compiler names them here ("'true' is not assignable to 'group-distributed'"). */
type Missing = Exclude<SamplerName, (typeof DEFAULTS)[number]['sampler']>;
const everySamplerCovered: [Missing] extends [never] ? true : Missing = true;
void everySamplerCovered;

export const frameworkDefaults: Readonly<Record<SamplerName, FrameworkDefault>> = Object.fromEntries(
  DEFAULTS.map(({ sampler, ...d }) => [sampler, d]),
) as Record<SamplerName, FrameworkDefault>;
