// A framework home's settings from the command line: its keys as flags, over the user's own config
// file (`--config FILE`, in the framework's format), over the framework's shipped defaults, read by
// the one reader src/core/frameworks/reading.ts (flags win over the file, the file over the defaults).
import { frameworkSettingsFrom as readSettings, type FrameworkSettingsReading } from '../core/frameworks/reading.ts';
import type { FrameworkHome } from '../core/frameworks/types.ts';
import { readFrameworkConfig } from './config-file.ts';
import type { FlagSpec } from './flags.ts';

// The reader itself is pure and shared with the browser's <grpo-framework> (src/core/frameworks/reading.ts).
export type { FrameworkSettingsReading, Origin } from '../core/frameworks/reading.ts';

/** The flags of the sandbox's own, beside the framework's keys. */
export const FRAMEWORK_COMMON_FLAGS = {
  sampler: { type: 'string' },
  framework: { type: 'string' },
  config: { type: 'string' },
  preset: { type: 'string' },
  seqlens: { type: 'string' },
  emit: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies FlagSpec;

/** The home's keys as string flags, beside the common ones. */
export function frameworkFlagSpec(home: FrameworkHome): FlagSpec {
  const spec: FlagSpec = { ...FRAMEWORK_COMMON_FLAGS };
  for (const k of home.keys) spec[k.flag] = { type: 'string' };
  return spec;
}

/** Settings from parsed flag values (`parseFlags(args, frameworkFlagSpec(home))`), `--config` read from its file. */
export function frameworkSettingsFrom(home: FrameworkHome, values: Record<string, unknown>): FrameworkSettingsReading {
  return readSettings(home, values, readFrameworkConfig);
}
