// Which regrouping and advantage each sampler's framework uses (docs/frameworks.md), so a
// front end can start from what the real framework does and mark any other choice as a
// "what if" on that layout. Each entry is declared in its sampler's home (`samplerDefaults`:
// src/core/frameworks/<name>/advantages.ts, the generic contiguous sampler's in src/core/samplers/contiguous-home.ts);
// this registry reads them from the sampler homes' list.
import { SAMPLER_HOMES, type SamplerHome } from '../frameworks/sampler-homes.ts';
import type { SamplerName } from '../layout/types.ts';
import type { FrameworkDefault } from './scheme-types.ts';

export type { FrameworkDefault } from './scheme-types.ts';

const DEFAULTS = SAMPLER_HOMES.flatMap<SamplerHome['samplerDefaults'][number]>((home) => home.samplerDefaults);
/** The samplers no home declares a default for: the compiler names them here ("'true' is not assignable to 'group-distributed'"). */
type Missing = Exclude<SamplerName, (typeof DEFAULTS)[number]['sampler']>;
const everySamplerCovered: [Missing] extends [never] ? true : Missing = true;
void everySamplerCovered;

export const frameworkDefaults: Readonly<Record<SamplerName, FrameworkDefault>> = Object.fromEntries(
  DEFAULTS.map(({ sampler, ...d }) => [sampler, d]),
) as Record<SamplerName, FrameworkDefault>;
