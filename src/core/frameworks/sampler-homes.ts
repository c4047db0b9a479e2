// The homes whose layout is a sampler of the explorer, one line each: every area's registry (samplers,
// steps, advantage schemes, sampler defaults, `--emit` targets, version rules) derives its list and its
// order from this one. The generic contiguous sampler has an entry too, so it keeps its place among them.
import { home as contiguous } from '../samplers/contiguous-home.ts';
import { home as danceGrpo } from './dance-grpo/index.ts';
import { home as flowFactory } from './flow-factory/index.ts';
import { home as flowGrpo } from './flow-grpo/index.ts';
import { home as msSwift } from './ms-swift/index.ts';
import type { SamplerFrameworkHome } from './sampler-home.ts';
import { home as trl } from './trl/index.ts';
import { home as unsloth } from './unsloth/index.ts';
import { home as verl } from './verl/index.ts';

/** In the samplers' display order (`--sampler`'s list); TRL's wrappers after TRL. */
export const SAMPLER_HOMES = [
  flowGrpo,
  trl,
  unsloth,
  msSwift,
  contiguous,
  danceGrpo,
  flowFactory,
  verl,
] as const satisfies readonly SamplerFrameworkHome[];

export type SamplerHome = (typeof SAMPLER_HOMES)[number];

export type { SamplerFrameworkHome } from './sampler-home.ts';
