// Every framework version the steps model, from the sampler homes (src/core/frameworks/sampler-homes.ts,
// each home's steps.ts): each declares its loss normalisers, its micro-step schedule and the samplers it
// trains. A normaliser gives the factor multiplying d(per-token loss) of each token of one rank's micro-batch
// in that micro-step's backward; DDP / FSDP / accelerate then average the gradient over the W ranks
// (÷ W, applied by the caller), and micro-steps add up until the optimizer steps.
import { SAMPLER_HOMES } from '../frameworks/sampler-homes.ts';
import type { SamplerName } from '../layout/types.ts';
import type { FrameworkName, FrameworkSpec } from './types.ts';

export type { FrameworkSpec, Normaliser, NormaliserContext, StepSchedule } from './types.ts';

/** Every framework version, in display order: the homes' order. */
const STEP_FRAMEWORKS: readonly FrameworkSpec[] = SAMPLER_HOMES.flatMap((home) => home.steps);

/** Every framework version, CLI name (`spec.name`) → spec, in display order. */
export const FRAMEWORKS: Record<string, FrameworkSpec> = Object.fromEntries(STEP_FRAMEWORKS.map((spec) => [spec.name, spec]));

export const FRAMEWORK_NAMES: FrameworkName[] = STEP_FRAMEWORKS.map((spec) => spec.name);

/** The framework each sampler's layout is trained by when `--framework` is not given (a spec's `defaultFor`). */
const DEFAULTS = new Map<SamplerName, FrameworkSpec>();
for (const spec of STEP_FRAMEWORKS) {
  for (const sampler of spec.defaultFor) {
    const other = DEFAULTS.get(sampler);
    if (other) throw new Error(`steps: both ${other.name} and ${spec.name} are the default framework of sampler ${sampler}`);
    if (!spec.accepts(sampler)) throw new Error(`steps: ${spec.name} is the default of sampler ${sampler}, which it does not train`);
    DEFAULTS.set(sampler, spec);
  }
}

/** The samplers some framework version trains by default, in the registry's order. */
export const DEFAULT_SAMPLERS: readonly SamplerName[] = [...DEFAULTS.keys()];

/** The framework a sampler's layout is trained by when `--framework` is not given; null when none is modelled. */
export function defaultFramework(sampler: SamplerName): FrameworkSpec | null {
  return DEFAULTS.get(sampler) ?? null;
}
