// A framework home's settings from the command line: its keys as flags, over the user's own config
// file (`--config FILE`, in the framework's format), over the framework's shipped defaults. Flags win
// over the file, the file over the defaults; every value says where it came from.
import { ConfigError } from '../core/errors.ts';
import { checkValue, readConfig, type ConfigReading } from '../core/frameworks/settings.ts';
import type { FrameworkHome, FrameworkSettings } from '../core/frameworks/types.ts';
import { readFrameworkConfig } from './config-file.ts';
import type { FlagSpec } from './flags.ts';

export type Origin = 'default' | 'config' | 'flag';

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

export interface FrameworkSettingsReading {
  settings: FrameworkSettings;
  origins: Record<string, Origin>;
  /** What --config (or --preset: its source) read and ignored; absent without either. */
  config?: ConfigReading & { path: string };
}

/** Settings from parsed flag values (`parseFlags(args, frameworkFlagSpec(home))`). */
export function frameworkSettingsFrom(home: FrameworkHome, values: Record<string, unknown>): FrameworkSettingsReading {
  const origins: Record<string, Origin> = {};
  for (const k of home.keys) origins[k.flag] = 'default';
  let settings: FrameworkSettings;
  let config: FrameworkSettingsReading['config'];
  if (typeof values.preset === 'string') {
    const preset = home.presets.find((p) => p.name === values.preset);
    if (!preset)
      throw new ConfigError(
        `--preset ${values.preset} is not one of ${home.title}'s: ${home.presets.map((p) => p.name).join(', ') || 'it ships none the sandbox restates'}`,
      );
    if (typeof values.config === 'string') throw new ConfigError('--preset and --config both name a config: give one of them');
    const reading = readConfig(home.keys, preset.config);
    settings = reading.settings;
    for (const { key } of reading.read) {
      const k = home.keys.find((x) => x.key === key);
      if (k) origins[k.flag] = 'config';
    }
    config = { ...reading, path: `--preset ${preset.name} (${preset.source})` };
  } else if (typeof values.config === 'string') {
    const switches = new Set(home.keys.filter((k) => k.kind === 'bool').map((k) => k.key));
    const reading = readConfig(home.keys, readFrameworkConfig(values.config, home.configFormat, switches));
    settings = reading.settings;
    for (const { key } of reading.read) {
      const k = home.keys.find((x) => x.key === key);
      if (k) origins[k.flag] = 'config';
    }
    config = { ...reading, path: values.config };
  } else settings = Object.fromEntries(home.keys.map((k) => [k.flag, k.default]));
  for (const k of home.keys) {
    const given = values[k.flag];
    if (given === undefined) continue;
    if (typeof given !== 'string') throw new ConfigError(`--${k.flag} takes a value`);
    settings[k.flag] = checkValue(k, given === 'null' || given === 'None' ? null : given, `--${k.flag}`);
    origins[k.flag] = 'flag';
  }
  return { settings, origins, ...(config ? { config } : {}) };
}
