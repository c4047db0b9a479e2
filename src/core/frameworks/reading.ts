// A framework home's settings as the user gives them: its keys' values (flags on the CLI, the form's
// fields in the browser) over the user's own config file or a shipped preset, over the framework's
// shipped defaults. Flags win over the file, the file over the defaults; every value says where it
// came from. One reader for `grpo-sandbox layout|steps --sampler NAME` and `<grpo-framework>`: the
// caller only says how a config is turned into an object (the CLI reads a file, the page parses
// pasted text), since reading a file is not pure.
import { ConfigError } from '../errors.ts';
import { checkValue, type ConfigReading, readConfig } from './settings.ts';
import type { ConfigFormat, FrameworkHome, FrameworkSettings } from './types.ts';

export type Origin = 'default' | 'config' | 'flag';

export interface FrameworkSettingsReading {
  settings: FrameworkSettings;
  origins: Record<string, Origin>;
  /** What --config (or --preset: its source) read and ignored; absent without either. */
  config?: ConfigReading & { path: string };
}

/**
 * The user's config as a plain object, read in `format`: `config` is what the user gave (the CLI: a path; the
 * page: its name for the pasted text), `switches` the framework's boolean keys (a command line's bare flags).
 */
export type ConfigObjectReader = (config: string, format: ConfigFormat, switches: ReadonlySet<string>) => Record<string, unknown>;

/** The keys a reading took from the file, marked as the config's. */
function markRead(home: FrameworkHome, reading: ConfigReading, origins: Record<string, Origin>): void {
  for (const { key } of reading.read) {
    const k = home.keys.find((x) => x.key === key);
    if (k) origins[k.flag] = 'config';
  }
}

/**
 * Settings from given values: `preset` (a shipped example's name), `config` (read by `readObject`), and each
 * key's flag (`values[flag]`, a string; 'null' and 'None' unset it).
 */
export function frameworkSettingsFrom(
  home: FrameworkHome,
  values: Record<string, unknown>,
  readObject: ConfigObjectReader,
): FrameworkSettingsReading {
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
    markRead(home, reading, origins);
    config = { ...reading, path: `--preset ${preset.name} (${preset.source})` };
  } else if (typeof values.config === 'string') {
    const switches = new Set(home.keys.filter((k) => k.kind === 'bool').map((k) => k.key));
    const reading = readConfig(home.keys, readObject(values.config, home.configFormat, switches));
    settings = reading.settings;
    markRead(home, reading, origins);
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
