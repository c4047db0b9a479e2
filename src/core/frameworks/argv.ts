// A launch script's words as the framework's command line reads them: the shell's words (quotes,
// backslash continuations, # comments) and `--key value` / bare `--flag` pairs. Pure, so the CLI's
// `--config FILE` (src/cli/config-file.ts) and the browser's pasted config read a command line alike.
import { ConfigError } from '../errors.ts';

/** The words of a shell launch script: quotes, backslash line continuations and # comments handled. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === '\n') {
      i++;
      continue;
    }
    if (c === '#' && !inWord) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new ConfigError(`--config: an unclosed ${c} quote at character ${i}`);
      cur += text.slice(i + 1, end);
      inWord = true;
      i = end;
      continue;
    }
    if (/\s/.test(c) || c === '(' || c === ')' || c === ';') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
      continue;
    }
    cur += c;
    inWord = true;
  }
  if (inWord) words.push(cur);
  return words;
}

const BOOLEAN_WORD = /^(true|false|1|0|yes|no|on|off)$/i;

/**
 * A launch command line as `{key: value}`: `--key value`, `--key=value`, and a bare `--flag` as true.
 * A switch (one of `switches`, the framework's boolean keys) takes the next word only when it reads as a
 * boolean (`--rollout-shuffle python train.py` is a bare switch). A value that is a shell variable
 * (`$NUM_GPUS`) is kept as written, so the key reads as not a number.
 */
export function argvObject(words: readonly string[], switches: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!w.startsWith('--') || w.length < 3) continue;
    const eq = w.indexOf('=');
    if (eq > 0) {
      out[w.slice(2, eq)] = w.slice(eq + 1);
      continue;
    }
    const next = words[i + 1];
    const takesNext =
      next !== undefined && !(next.startsWith('--') && next.length > 2) && (!switches.has(w.slice(2)) || BOOLEAN_WORD.test(next));
    if (takesNext) {
      out[w.slice(2)] = next;
      i++;
    } else out[w.slice(2)] = true;
  }
  return out;
}
