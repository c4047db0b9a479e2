// Completion token counts: read from a user's list, or drawn from a seeded generator.
import { configError, fact } from '../messages/index.ts';
import { Mt19937, randint } from '../rng/index.ts';

/** A seeded default: `count` lengths uniform in [max(1, ⌊maxLength/8⌋), maxLength], PyTorch's randint on MT19937(seed). */
export function seededLengths(seed: number, count: number, maxLength: number): number[] {
  const low = Math.max(1, Math.floor(maxLength / 8));
  return Array.from(randint(new Mt19937(seed), low, maxLength + 1, count));
}

/**
 * Lengths from a file's text: a JSON array of whole numbers, or whole numbers separated by
 * whitespace or commas. Each must be in [0, maxLength] (a framework truncates at max_completion_length).
 */
export function parseLengths(text: string, source: string, maxLength: number): number[] {
  const trimmed = text.trim();
  let values: unknown[];
  if (trimmed.startsWith('[')) {
    try {
      values = JSON.parse(trimmed) as unknown[];
    } catch {
      throw configError([fact('lengths.not-json', { source })]);
    }
    if (!Array.isArray(values)) throw configError([fact('lengths.not-array', { source })]);
  } else {
    values = trimmed === '' ? [] : trimmed.split(/[\s,]+/).map((w) => (/^\d+$/.test(w) ? Number(w) : w));
  }
  if (values.length === 0) throw configError([fact('lengths.none', { source })]);
  values.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > maxLength) {
      throw configError([fact('lengths.entry', { source, index: i, got: String(JSON.stringify(v)?.slice(0, 40)), max: maxLength })]);
    }
  });
  return values as number[];
}
