// What a setting is, once for every feature: one row of a feature's table (its field, its one
// key — the CLI flag, the URL key and the element's attribute —, how its text is read, its range
// and its hint), and how a row's text becomes a value with a one-line ConfigError naming the flag.
// Each feature owns one table and one parse function over a `get(key)` callback (the CLI's parsed
// flags, an element's attributes, a URL's keys): src/train/settings.ts, src/core/schedule/settings.ts,
// src/core/dynamic/settings.ts; the layout's table is src/core/settings.ts. The CLI prints `--help`
// from the tables (src/cli/setting-help.ts).
import { configError, fact } from './messages/index.ts';

/**
 * How a setting's text is read: a whole number or a real number in [min, max]; one of `choices`;
 * on or off; a probability; MIN,MAX; a comma-separated subset of `choices`; or text the feature reads.
 */
export type SettingKind = 'int' | 'number' | 'choice' | 'switch' | 'probability' | 'interval' | 'list' | 'text';

export interface Setting<V = Record<string, unknown>> {
  /** Where the value goes in the feature's settings. */
  field: keyof V & string;
  /** The CLI flag without `--`, the URL key and the element's attribute. */
  key: string;
  /** Placeholder for the value in `--help` (W, B, K …). */
  metavar: string;
  /** What the setting is (`--help`, the form's hint). */
  hint: string;
  kind: SettingKind;
  /** Smallest and largest value (int, number). */
  min?: number;
  max?: number;
  /** Allowed words (choice, list). */
  choices?: readonly string[];
  /** An int that also takes this word for "no value" (read as null): `--max-batch none`. */
  none?: string;
  /** What one item of a list is called in a message ('scheme'). */
  item?: string;
}

/** A feature's settings as text, by key (null or undefined: not given). */
export type SettingGetter = (key: string) => string | null | undefined;

/**
 * Escapes what a terminal would act on (C0 and C1 control characters, DEL, line and paragraph
 * separators) as \n, \t or \uXXXX, so a message stays one visible line. JSON.stringify alone
 * leaves DEL and the C1 range (e.g. U+009B, a CSI) raw.
 */
export function escapeControls(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 ? JSON.stringify(c).slice(1, -1) : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Quotes user text for a one-line message: at most 40 characters, control characters escaped. */
export function quote(text: string, max = 40): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return `'${escapeControls(cut)}'`;
}

/** A whole number in [min, max] from text; undefined when absent. Rejects fractions, words and values outside the range. */
export function readInt(value: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  if (!/^-?\d+$/.test(text)) throw configError([fact('setting.not-whole', { key: name, got: quote(text) })]);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw configError([fact('setting.between', { key: name, min, max, got: text.length > 40 ? quote(text) : text })]);
  }
  return n;
}

/** A real number in [min, max] from text; undefined when absent. */
export function readNumber(
  value: unknown,
  name: string,
  min = Number.NEGATIVE_INFINITY,
  max = Number.POSITIVE_INFINITY,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) throw configError([fact('setting.not-number', { key: name, got: quote(text) })]);
  if (n < min || n > max) {
    // Words for open bounds: "between 5e-324 and Infinity" is what the check means, not what a person reads.
    const got = text.length > 40 ? quote(text) : text;
    throw configError([
      max === Number.POSITIVE_INFINITY
        ? min === Number.MIN_VALUE
          ? fact('setting.positive', { key: name, got })
          : fact('setting.at-least', { key: name, min, got })
        : min === Number.NEGATIVE_INFINITY
          ? fact('setting.at-most', { key: name, max, got })
          : fact('setting.between', { key: name, min, max, got }),
    ]);
  }
  return n;
}

/** One setting's value from its text, checked against its own range; undefined when absent. */
export function readSetting(s: Setting<never>, value: string | null | undefined): unknown {
  if (value === undefined || value === null) return undefined;
  const text = value.trim();
  switch (s.kind) {
    case 'int':
      if (s.none !== undefined && text === s.none) return null;
      return readInt(value, s.key, s.min ?? Number.MIN_SAFE_INTEGER, s.max);
    case 'number':
      return readNumber(value, s.key, s.min, s.max);
    case 'choice':
      if (!s.choices!.includes(value))
        throw configError([fact('setting.not-choice', { key: s.key, choices: [...s.choices!], got: quote(value) })]);
      return value;
    case 'switch':
      if (text !== 'on' && text !== 'off') throw configError([fact('setting.not-switch', { key: s.key, got: quote(value) })]);
      return text === 'on';
    case 'probability': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n) || n < 0 || n > 1)
        throw configError([fact('setting.not-probability', { key: s.key, got: quote(text) })]);
      return n;
    }
    case 'interval': {
      const parts = value.split(',').map(Number);
      if (parts.length !== 2 || parts.some((x) => !Number.isFinite(x)) || !(parts[0]! < parts[1]!))
        throw configError([fact('setting.not-interval', { key: s.key, got: quote(value) })]);
      return [parts[0]!, parts[1]!];
    }
    case 'list': {
      const names = value.split(',').map((x) => x.trim());
      const unknown = names.filter((x) => !s.choices!.includes(x));
      if (unknown.length > 0)
        throw configError([
          fact('setting.unknown-item', { key: s.key, item: s.item ?? 'value', got: quote(unknown[0]!), choices: [...s.choices!] }),
        ]);
      return s.choices!.filter((x) => names.includes(x));
    }
    case 'text':
      return value;
  }
}

/**
 * Every given setting of a table as its field's value, in the table's order (so the first bad
 * setting is the one refused, as the CLI always did). Fields not given are absent.
 */
export function readSettings<V>(table: readonly Setting<V>[], get: SettingGetter): Partial<V> {
  const out: Record<string, unknown> = {};
  for (const s of table) {
    const v = readSetting(s as Setting<never>, get(s.key));
    if (v !== undefined) out[s.field] = v;
  }
  return out as Partial<V>;
}

/** The keys of a table (what the CLI, the URL and the element accept). */
export const settingKeys = (table: readonly Setting<never>[] | readonly { key: string }[]): string[] => table.map((s) => s.key);
