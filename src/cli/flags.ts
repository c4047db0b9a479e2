import { parseArgs } from 'node:util';
import { ConfigError } from '../core/errors.ts';

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/**
 * Parses `args` strictly against `spec` (node:util parseArgs, which Deno provides too).
 * Unknown flags, missing values and stray positionals become a ConfigError (exit status 2).
 */
export function parseFlags<S extends FlagSpec>(args: string[], spec: S) {
  args = joinNegativeValues(args);
  try {
    return parseArgs({ args, options: { ...spec, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }).values;
  } catch (err) {
    const known = Object.keys(spec)
      .map((f) => `--${f}`)
      .join(', ');
    throw new ConfigError(`${(err as Error).message.replace(/\. To specify.*$/s, '')} (known flags: ${known})`);
  }
}

/** `--seed -5` → `--seed=-5`: parseArgs would otherwise take -5 for a flag (and say so on several lines). */
function joinNegativeValues(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg.startsWith('--') && !arg.includes('=') && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Reads an integer flag; `undefined` when absent. Rejects fractions, words and values outside [min, max]. */
export function intFlag(value: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (!/^-?\d+$/.test(text)) throw new ConfigError(`--${name} must be a whole number, got '${text}'`);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ConfigError(`--${name} must be between ${min} and ${max}, got ${text}`);
  }
  return n;
}
