// What one `--emit` target is (src/core/frameworks/<name>/emit.ts declares it): the framework's
// configuration equivalent to the sandbox's settings, and the syntax its users write it in.
// The registry (emit.ts) lists the homes' emitters; a home imports this file, never the registry.
import type { LayoutConfig, SamplerName } from '../layout/types.ts';

export interface EmittedValue {
  /** The framework's own name: a GRPOConfig kwarg, `config.sample.x`, a dotted YAML key, an argparse flag. */
  key: string;
  value: number | boolean | string;
  /** Where the value comes from, in the sandbox's terms. */
  origin: string;
}

export interface Emitted {
  /** The emitter's target (`--emit NAME`). */
  target: string;
  /** The framework and version whose names these are. */
  version: string;
  values: EmittedValue[];
  /** How to start W processes. */
  launch: string;
  /** Settings (or behaviour) of the sandbox this framework cannot express, one sentence each. */
  cannotExpress: string[];
  /** Things to check in the framework's script so the run matches the layout. */
  notes: string[];
}

/**
 * The rule of `sampler` that these settings break, in words (empty when they pass): the sampler registry's
 * validateConfig, given to each emitter as an argument so that a home's emitter need not import that registry.
 */
export type RuleBroken = (config: LayoutConfig, sampler: SamplerName) => string[];

/** One framework's `--emit` target. */
export interface Emitter<T extends string = string> {
  /** `layout --emit NAME`. */
  target: T;
  /**
   * The framework's configuration for a valid sandbox configuration (its sampler's effective settings); `ruleBroken`
   * is the sampler registry's check, handed in by bridge/emit.ts.
   */
  emit(c: LayoutConfig, ruleBroken: RuleBroken): Emitted;
  /** The values in the framework's own syntax: the lines between the version header and the launch line. */
  body(values: readonly EmittedValue[]): string[];
}
