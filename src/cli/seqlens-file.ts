// `--seqlens FILE`: measured token counts for the verl sampler's balancing, one per sample in
// generation order (after repeat, before balancing), step after step. The file is a JSON array of
// numbers (or of per-step arrays, flattened), or plain numbers separated by spaces, commas or lines.
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../core/errors.ts';
import { MAX_SEQLEN } from '../core/samplers/index.ts';
import { quote } from './flags.ts';
import { parseJsonText } from './json-input.ts';

/** Largest seqlens file read (about a million counts). */
const MAX_BYTES = 16 * 1024 * 1024;

/** The token counts in `path`, each checked to be a whole number in 1 … MAX_SEQLEN. */
export function readSeqlensFile(path: string): number[] {
  let text: string;
  try {
    if (statSync(path).size > MAX_BYTES)
      throw new ConfigError(`--seqlens ${quote(path)} is above the ${MAX_BYTES / 1024 / 1024} MiB limit`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`--seqlens ${quote(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const trimmed = text.trim();
  const values: unknown[] = trimmed.startsWith('[')
    ? (parseJsonText(trimmed, `--seqlens ${quote(path)}`) as unknown[]).flat()
    : trimmed
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  const bad = values.findIndex((v) => typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1 || v > MAX_SEQLEN);
  if (bad >= 0) {
    throw new ConfigError(
      `--seqlens ${quote(path)}: value #${bad} (${JSON.stringify(values[bad])}) is not a token count; give whole numbers in 1 … ${MAX_SEQLEN}`,
    );
  }
  if (values.length === 0) throw new ConfigError(`--seqlens ${quote(path)} holds no token counts`);
  return values as number[];
}
