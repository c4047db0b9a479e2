// Flag parsing shared by every command. Its own small parser instead of node:util parseArgs,
// because parseArgs' messages span several lines, quote the input, differ between Node and Deno,
// and silently keep the last of a repeated flag. Every mistake here is one ConfigError line.
import { ConfigError } from '../core/errors.ts';
import { escapeControls, quote, readInt } from '../core/setting.ts';

export { escapeControls, quote };

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** What parseFlags returns: each flag's value (string, boolean, or string[] for `multiple`), absent when not given. */
export type FlagValues<S extends FlagSpec> = {
  [K in keyof S]?: S[K]['type'] extends 'boolean' ? boolean : S[K]['multiple'] extends true ? string[] : string;
} & { help?: boolean };

/**
 * A parsed JSON value as a message shows it: numbers, booleans and null as JSON writes them, a
 * string in JSON quotes (at most 40 characters), an array or object by its kind and size. Never the whole
 * value: JSON.stringify of a 10^5-deep array overflows the stack, and of a long one floods the line.
 */
export function jsonValueText(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'string') return escapeControls(JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value));
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** A value that reads as a number, so `--seed -5` is a value and not a flag. */
const NUMBER_LIKE = /^-(\d|\.\d|Infinity|NaN)/;

/**
 * Parses `args` strictly against `spec` (plus `--help`/`-h`). Accepts `--name value` and
 * `--name=value`. Unknown flags, missing values (`--sampler --json`), values for boolean flags,
 * repeated flags (unless `multiple`) and stray positionals each become one ConfigError line.
 */
export function parseFlags<S extends FlagSpec>(args: readonly string[], spec: S): FlagValues<S> {
  const full: FlagSpec = { ...spec, help: { type: 'boolean', short: 'h' } };
  const byShort = new Map<string, string>();
  for (const [name, s] of Object.entries(full)) if (s.short) byShort.set(s.short, name);
  const values: Record<string, string | boolean | string[]> = Object.create(null);
  const known = () =>
    Object.keys(spec)
      .map((f) => `--${f}`)
      .join(', ');

  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
    } else if (/^-[A-Za-z]$/.test(arg) && byShort.has(arg[1]!)) {
      name = byShort.get(arg[1]!)!;
    } else if (arg.startsWith('-') && arg.length > 1 && !NUMBER_LIKE.test(arg)) {
      throw new ConfigError(`unknown flag ${quote(arg)} (known flags: ${known()})`);
    } else {
      throw new ConfigError(`unexpected argument ${quote(arg)}: every value belongs to a flag (known flags: ${known()})`);
    }
    const s = Object.hasOwn(full, name) ? full[name] : undefined;
    if (!s) throw new ConfigError(`unknown flag ${quote(`--${name}`)} (known flags: ${known()})`);

    let value: string | boolean;
    if (s.type === 'boolean') {
      if (inline !== undefined) throw new ConfigError(`--${name} takes no value, got --${name}=${quote(inline)}`);
      value = true;
    } else if (inline !== undefined) {
      value = inline;
    } else {
      const next = args[i + 1];
      if (next === undefined) throw new ConfigError(`--${name} needs a value (--${name} VALUE)`);
      if (next.startsWith('-') && next.length > 1 && !NUMBER_LIKE.test(next)) {
        throw new ConfigError(
          `--${name} needs a value, but is followed by the flag ${quote(next)} (write --${name}=${quote(next).slice(1, -1)} if that is the value)`,
        );
      }
      value = next;
      i++;
    }

    if (s.multiple) {
      const list = (values[name] as string[] | undefined) ?? [];
      list.push(String(value));
      values[name] = list;
    } else if (name in values) {
      const was = values[name];
      throw new ConfigError(
        s.type === 'boolean'
          ? `--${name} is given twice; give it once`
          : `--${name} is given twice (${quote(String(was))} and ${quote(String(value))}); give it once`,
      );
    } else values[name] = value;
  }
  return values as FlagValues<S>;
}

/** Reads an integer flag; `undefined` when absent. Rejects fractions, words and values outside [min, max]. */
export const intFlag = readInt;

/** Reads a flag that names one of `choices` (an own-property lookup: `__proto__` is just unknown). */
export function choiceFlag<T extends string>(value: string | undefined, name: string, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`unknown --${name} ${quote(value)}; choose one of ${choices.join(', ')}`);
}

/** `map[key]` only when `key` is the map's own property (`__proto__`, `constructor`, `toString` are not). */
export function ownEntry<V>(map: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}
