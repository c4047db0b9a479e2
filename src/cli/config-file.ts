// A framework's own config file, read in its own format into a plain object the framework's home
// reads key by key (src/core/frameworks/settings.ts readConfig). The parsers are well-kept
// libraries: `yaml` (YAML 1.2, with line numbers in its errors) and `smol-toml` (TOML 1.0).
// The command-line format is a launch script's words: `--key value` and bare `--flag`s.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { ConfigError } from '../core/errors.ts';
import { argvObject, shellWords } from '../core/frameworks/argv.ts';
import type { ConfigFormat, FrameworkHome, FrameworkSettings } from '../core/frameworks/types.ts';

// The command line's reader is pure, shared with the browser (src/core/frameworks/argv.ts).
export { argvObject, shellWords };

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new ConfigError(`cannot read --config ${path}: ${code === 'ENOENT' ? 'no such file' : String((e as Error).message)}`);
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

function yamlObject(text: string, path: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new ConfigError(`--config ${path} is not valid YAML: ${firstLine((e as Error).message)}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new ConfigError(`--config ${path} must hold a mapping of keys, got ${Array.isArray(doc) ? 'a list' : typeof doc}`);
  return doc as Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `child` over `parent`, mapping by mapping, as NeMo RL's load_config merges a file over its `defaults:`. */
export function deepMerge(parent: Record<string, unknown>, child: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...parent };
  for (const [k, v] of Object.entries(child))
    out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Record<string, unknown>, v) : v;
  return out;
}

/** A YAML file whose `defaults:` names the parent file(s) it overrides, resolved beside it. */
function yamlWithDefaults(path: string, seen: string[] = []): Record<string, unknown> {
  const full = resolve(path);
  if (seen.includes(full))
    throw new ConfigError(`--config ${path}: its defaults: chain loops back to itself (${[...seen, full].join(' → ')})`);
  const doc = yamlObject(readText(path), path);
  const defaults = doc.defaults;
  delete doc.defaults;
  if (defaults === undefined || defaults === null) return doc;
  const parents = Array.isArray(defaults) ? defaults : [defaults];
  let base: Record<string, unknown> = {};
  for (const p of parents) {
    if (typeof p !== 'string')
      throw new ConfigError(`--config ${path}: defaults: must name a file (or a list of files), got ${JSON.stringify(p)}`);
    base = deepMerge(base, yamlWithDefaults(resolve(dirname(full), p), [...seen, full]));
  }
  return deepMerge(base, doc);
}

/** The user's config file as a plain object, read in `format`; `switches`: the boolean keys of a command line. */
export function readFrameworkConfig(
  path: string,
  format: ConfigFormat,
  switches: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  switch (format) {
    case 'yaml':
      return yamlObject(readText(path), path);
    case 'yaml-defaults':
      return yamlWithDefaults(path);
    case 'kwargs': {
      const text = readText(path);
      if (/^\s*[{[]/.test(text)) {
        try {
          const doc = JSON.parse(text) as unknown;
          if (!isObject(doc)) throw new ConfigError(`--config ${path} must hold an object of keyword arguments`);
          return doc;
        } catch (e) {
          if (e instanceof ConfigError) throw e;
          throw new ConfigError(`--config ${path} is not valid JSON: ${firstLine((e as Error).message)}`);
        }
      }
      return yamlObject(text, path);
    }
    case 'toml':
      try {
        return parseToml(readText(path)) as Record<string, unknown>;
      } catch (e) {
        if (e instanceof ConfigError) throw e;
        throw new ConfigError(`--config ${path} is not valid TOML: ${firstLine((e as Error).message)}`);
      }
    case 'argv':
      return argvObject(shellWords(readText(path)), switches);
  }
}

/** The nested object a dotted key path makes ('a.b.c' = v → {a: {b: {c: v}}}), merged into `into`. */
function setPath(into: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = into;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(cur[part])) cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts.at(-1)!] = value;
}

/**
 * `settings` as the framework's own config file: every key of the framework's (not the sandbox's own) whose
 * value differs from what a file without it gets, in the framework's format. Reading it back with --config
 * gives the same settings (test/cli/framework-layout.test.ts).
 */
export function writeFrameworkConfig(home: FrameworkHome, settings: FrameworkSettings, header: string): string {
  const keys = home.keys.filter((k) => !k.sandbox && settings[k.flag] !== (k.fileDefault !== undefined ? k.fileDefault : k.default));
  const comment = (prefix: string) =>
    `${header
      .split('\n')
      .map((l) => `${prefix} ${l}`.trimEnd())
      .join('\n')}\n`;
  switch (home.configFormat) {
    case 'yaml':
    case 'yaml-defaults':
    case 'kwargs': {
      const doc: Record<string, unknown> = {};
      for (const k of keys) setPath(doc, k.key, settings[k.flag]);
      return comment('#') + (keys.length ? stringifyYaml(doc) : '{}\n');
    }
    case 'toml': {
      const doc: Record<string, unknown> = {};
      const unset = keys.filter((k) => settings[k.flag] === null);
      for (const k of keys) if (settings[k.flag] !== null) setPath(doc, k.key, settings[k.flag]);
      if (unset.length)
        throw new ConfigError(
          `TOML has no null: ${unset.map((k) => k.key).join(', ')} cannot be written unset over a default; ` +
            `leave ${unset.length === 1 ? 'it' : 'them'} at the default`,
        );
      return `${comment('#')}${stringifyToml(doc)}\n`;
    }
    case 'argv': {
      const words = keys.flatMap((k) => {
        const v = settings[k.flag];
        if (v === true && k.kind === 'bool') return [`--${k.key}`];
        return [`--${k.key}`, v === null ? 'None' : String(v)];
      });
      const lines = [];
      for (let i = 0; i < words.length; i++)
        lines.push(words[i + 1] !== undefined && !words[i + 1]!.startsWith('--') ? `${words[i]} ${words[++i]}` : words[i]);
      return `${comment('#')}${lines.map((l) => `  ${l}`).join(' \\\n')}\n`;
    }
  }
}
