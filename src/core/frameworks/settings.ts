// A framework's settings from its keys table: the shipped defaults, a value checked against its
// key, and a config object (the user's parsed file) read key by key, saying what was read and what
// was ignored. One reader for every framework; the home only declares its keys.
import { ConfigError } from '../errors.ts';
import type { FrameworkKey, FrameworkSettings, KeyValue } from './types.ts';

/** Every key at its shipped default. */
export function defaultSettings(keys: readonly FrameworkKey[]): FrameworkSettings {
  const out: FrameworkSettings = {};
  for (const k of keys) out[k.flag] = k.default;
  return out;
}

/** `value` as `key`'s kind, or a ConfigError naming the key and what it takes. */
export function checkValue(key: FrameworkKey, value: unknown, where: string): KeyValue {
  if (value === null || value === undefined) return null;
  switch (key.kind) {
    case 'int': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isSafeInteger(n))
        throw new ConfigError(`${where} must be a whole number, got ${JSON.stringify(value)}`);
      return n;
    }
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw new ConfigError(`${where} must be a number, got ${JSON.stringify(value)}`);
      return n;
    }
    case 'bool': {
      if (typeof value === 'boolean') return value;
      const s = String(value).toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(s)) return true;
      if (['false', '0', 'no', 'off'].includes(s)) return false;
      throw new ConfigError(`${where} must be true or false, got ${JSON.stringify(value)}`);
    }
    case 'string': {
      const s = String(value);
      if (key.choices && !key.choices.includes(s))
        throw new ConfigError(`${where} must be one of ${key.choices.join(', ')}, got ${JSON.stringify(value)}`);
      return s;
    }
  }
}

/** The value at a dotted path of a nested object; undefined when any part is missing. */
export function atPath(obj: unknown, path: string): unknown {
  // A flat reading (a command line's `--rollout.n_samples_per_prompt 8`) keeps the dotted key whole.
  if (obj !== null && typeof obj === 'object' && Object.hasOwn(obj, path)) return (obj as Record<string, unknown>)[path];
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(part in (cur as Record<string, unknown>))) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Every leaf path of a nested object ('a.b.c'), in the object's order. */
export function leafPaths(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return prefix ? [prefix] : [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) out.push(...leafPaths(v, prefix ? `${prefix}.${k}` : k));
  return out;
}

export interface ConfigReading {
  settings: FrameworkSettings;
  /** The keys found in the file, with the value taken. */
  read: { key: string; value: KeyValue }[];
  /** Leaf keys of the file that the sandbox does not model. */
  ignored: string[];
}

/**
 * Reads a parsed config (nested for YAML/TOML/kwargs, flat `{flag: value}` for argv) over the defaults.
 * A key the home declares is read and checked; every other leaf is listed as ignored.
 */
export function readConfig(keys: readonly FrameworkKey[], config: unknown): ConfigReading {
  const settings = defaultSettings(keys);
  for (const k of keys) if (k.fileDefault !== undefined) settings[k.flag] = k.fileDefault;
  const read: ConfigReading['read'] = [];
  const known = new Set<string>();
  for (const k of keys) {
    if (k.sandbox) continue;
    const v = atPath(config, k.key);
    known.add(k.key);
    if (v === undefined) continue;
    const value = checkValue(k, v, k.key);
    settings[k.flag] = value;
    read.push({ key: k.key, value });
  }
  const ignored = leafPaths(config).filter((p) => !known.has(p) && ![...known].some((k) => p.startsWith(`${k}.`)));
  return { settings, read, ignored };
}

/** Integer setting, or a ConfigError naming the key (for layout code that needs a number). */
export function intSetting(settings: FrameworkSettings, flag: string): number {
  const v = settings[flag];
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw new ConfigError(`--${flag} must be a whole number, got ${JSON.stringify(v)}`);
  return v;
}

/** Boolean setting. */
export function boolSetting(settings: FrameworkSettings, flag: string): boolean {
  const v = settings[flag];
  if (typeof v !== 'boolean') throw new ConfigError(`--${flag} must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * The sandbox's `--ranks` for a framework whose data-parallel size follows from its GPU keys (GPUs per node ×
 * nodes / model-parallel sizes): null keeps the framework's own keys; a number is the data-parallel size.
 */
export function ranksKey(derived: string): FrameworkKey {
  return {
    key: 'ranks',
    flag: 'ranks',
    kind: 'int',
    default: null,
    sandbox: true,
    about: `sandbox-only: the data-parallel size; unset, it is ${derived}; set, it becomes one node of ranks × the model-parallel size GPUs`,
  };
}

/**
 * `settings` with `--ranks` (when set) written into the framework's GPU keys: one node (`nodesFlag` 1) of
 * ranks × `modelParallel` GPUs (`gpusFlag`), so the framework's own derivation gives back `ranks`.
 */
export function withRanks(settings: FrameworkSettings, gpusFlag: string, nodesFlag: string, modelParallel: number): FrameworkSettings {
  const ranks = settings.ranks;
  if (ranks === null || ranks === undefined) return settings;
  if (typeof ranks !== 'number' || !Number.isSafeInteger(ranks) || ranks < 1)
    throw new ConfigError(`--ranks must be a whole number ≥ 1 (the data-parallel size), got ${JSON.stringify(ranks)}`);
  return { ...settings, [gpusFlag]: ranks * modelParallel, [nodesFlag]: 1 };
}
