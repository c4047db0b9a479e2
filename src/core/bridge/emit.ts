// The configuration of a real framework equivalent to the sandbox's settings (`layout --emit`):
// each value with where it comes from, the version it targets, and what the framework cannot
// express (reported, never dropped). Each target is declared in its framework's home
// (src/core/frameworks/<name>/emit.ts) with the syntax it prints in; this registry reads them from the
// sampler homes' list (a home without one says why).
// Pure data; src/cli/emit-text.ts prints it.
import { SAMPLER_HOMES, type SamplerHome } from '../frameworks/sampler-homes.ts';
import type { LayoutConfig } from '../layout/types.ts';
import { samplers, validateConfig } from '../samplers/index.ts';
import type { Emitted, Emitter, RuleBroken } from './emit-types.ts';

export type { Emitted, EmittedValue, Emitter } from './emit-types.ts';

/** The homes' emitters, in the homes' order. */
const EMITTERS = SAMPLER_HOMES.flatMap<Extract<SamplerHome['emitter'], Emitter>>((home) =>
  'absent' in home.emitter ? [] : [home.emitter],
);

export type EmitTarget = (typeof EMITTERS)[number]['target'];
export const EMIT_TARGETS: readonly EmitTarget[] = EMITTERS.map((e) => e.target);

/** The emitter of `target`, if there is one. */
export function emitterOf(target: string): Emitter | undefined {
  return EMITTERS.find((e) => e.target === target);
}

/** The framework's own rule on these numbers, when they break it (e.g. k must divide TRL's generation batch). */
const ruleBroken: RuleBroken = (config, sampler) => {
  const err = validateConfig({ ...config, sampler });
  return err ? [`these settings break ${sampler}'s rule: ${err.message}`] : [];
};

/** The framework configuration equivalent to a valid sandbox configuration. */
export function emitConfig(config: LayoutConfig, target: EmitTarget): Emitted {
  const c = samplers[config.sampler].effective(config);
  return emitterOf(target)!.emit(c, ruleBroken);
}
