// JSON input for commands that read a file or stdin (`loss`, and any later command): one size
// cap, one parse, and a parse error in one line with its line and column. The runtimes' own
// JSON.parse messages differ between Node and Deno and quote the whole input across lines, so
// the position is found by a small linear scanner of our own.
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../core/errors.ts';
import { quote } from './flags.ts';
import { bytesText, type CliIo, MAX_INPUT_BYTES } from './io.ts';

/**
 * Returns a function fed successive chunks of text that answers true once the text so far holds
 * one complete JSON object or array (strings and escapes respected). Scalars are complete only
 * at end-of-file. Linear in the input.
 */
export function jsonCompletion(): (chunk: string) => boolean {
  let started = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let done = false;
  let scalar = false;
  return (chunk) => {
    if (done) return true;
    if (scalar) return false;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (!started) {
        if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\uFEFF') continue;
        started = true;
        if (c !== '{' && c !== '[') {
          scalar = true;
          return false;
        }
        depth = 1;
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          done = true;
          return true;
        }
      }
    }
    return false;
  };
}

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

const WS = new Set([' ', '\t', '\n', '\r']);

/**
 * Finds the first syntax error of `text` as JSON: its offset and what was expected there.
 * Iterative (no recursion), so deeply nested input cannot overflow the stack. Null when valid.
 */
export function jsonSyntaxError(text: string): { offset: number; expected: string } | null {
  let i = 0;
  const n = text.length;
  const stack: ('{' | '[')[] = [];
  const skip = () => {
    while (i < n && WS.has(text[i]!)) i++;
  };
  const fail = (expected: string) => ({ offset: Math.min(i, n), expected });
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  // state: 'value' expects a value; 'after' expects , or a closer (or end at depth 0)
  let state: 'value' | 'after' | 'key' | 'firstKey' | 'firstValue' = 'value';
  for (;;) {
    skip();
    if (state === 'after') {
      if (stack.length === 0) return i < n ? fail('end of input') : null;
      const top = stack[stack.length - 1]!;
      const c = text[i];
      if (c === ',') {
        i++;
        state = top === '{' ? 'key' : 'value';
      } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
        i++;
        stack.pop();
      } else return fail(top === '{' ? "',' or '}'" : "',' or ']'");
      continue;
    }
    if (state === 'key' || state === 'firstKey') {
      if (state === 'firstKey' && text[i] === '}') {
        i++;
        stack.pop();
        state = 'after';
        continue;
      }
      if (text[i] !== '"')
        return fail(state === 'firstKey' ? "a property name in double quotes or '}'" : 'a property name in double quotes');
      const end = scanString(text, i);
      if (end < 0) return { offset: -end - 1, expected: 'a valid string (closing quote, legal escapes, no raw control characters)' };
      i = end;
      skip();
      if (text[i] !== ':') return fail("':'");
      i++;
      state = 'value';
      continue;
    }
    // a value
    if (state === 'firstValue' && text[i] === ']') {
      i++;
      stack.pop();
      state = 'after';
      continue;
    }
    const c = text[i];
    if (c === '{') {
      i++;
      stack.push('{');
      state = 'firstKey';
    } else if (c === '[') {
      i++;
      stack.push('[');
      state = 'firstValue';
    } else if (c === '"') {
      const end = scanString(text, i);
      if (end < 0) return { offset: -end - 1, expected: 'a valid string (closing quote, legal escapes, no raw control characters)' };
      i = end;
      state = 'after';
    } else if (c !== undefined && (c === '-' || (c >= '0' && c <= '9'))) {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
      m.lastIndex = 0;
      const match = m.exec(text.slice(i, i + 400));
      if (!match || match[0] === '-') return fail('a number');
      i += match[0].length;
      state = 'after';
    } else if (text.startsWith('true', i) || text.startsWith('null', i)) {
      i += 4;
      state = 'after';
    } else if (text.startsWith('false', i)) {
      i += 5;
      state = 'after';
    } else return fail('a value');
  }
}

/** End offset (after the closing quote) of the string starting at `start`, or −(error offset)−1. */
function scanString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return -i - 1;
    if (code === 0x5c) {
      const e = text[i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -i - 1;
        i += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else return -i - 1;
    }
  }
  return -text.length - 1;
}

/** Parses JSON text from `source` (a file name or "stdin"); a syntax error becomes one ConfigError line. */
export function parseJsonText(raw: string, source: string): unknown {
  // A UTF-8 byte-order mark (Windows editors write one) is not JSON, but the scanners here skip it;
  // JSON.parse would refuse it with a message that points nowhere.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  try {
    return JSON.parse(text);
  } catch (err) {
    if (text.trim() === '') throw new ConfigError(`${source} is empty; expected one JSON object (see --help)`);
    const found = jsonSyntaxError(text);
    if (!found) throw new ConfigError(`${source} is not valid JSON (${quote((err as Error).message, 60)})`);
    const { line, column } = lineColumn(text, found.offset);
    const what = found.offset >= text.length ? 'the input ends' : `found ${quote(text.slice(found.offset, found.offset + 1))}`;
    const near = text.slice(Math.max(0, found.offset - 20), found.offset + 20);
    throw new ConfigError(
      `${source} is not valid JSON at line ${line}, column ${column}: expected ${found.expected}, ${what} (near ${quote(near)})`,
    );
  }
}

/**
 * Reads one JSON value from `--input FILE` or, without it, from stdin: stdin is read until a
 * complete object/array has arrived (or end-of-file), with a notice on stderr after a few
 * seconds of silence. Both are capped at MAX_INPUT_BYTES.
 */
export async function readJsonInput(io: CliIo, path: string | undefined, command: string): Promise<unknown> {
  if (path !== undefined) {
    // The Unix habit `--input -` would otherwise read as a missing file named '-'.
    if (path === '-') throw new ConfigError("--input '-': to read stdin, leave --input out and pipe the JSON in");
    let size: number;
    try {
      const st = statSync(path);
      if (!st.isFile()) throw new ConfigError(`--input ${quote(path)} is not a regular file`);
      size = st.size;
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      throw new ConfigError(`--input ${quote(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (size > MAX_INPUT_BYTES)
      throw new ConfigError(
        `--input ${quote(path)} is ${bytesText(size)}, above the input limit of ${bytesText(MAX_INPUT_BYTES)}; pass a smaller batch`,
      );
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new ConfigError(`--input ${quote(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    return parseJsonText(text, `--input ${quote(path)}`);
  }
  if (io.stdinIsTty) throw new ConfigError('no input: pass --input FILE or pipe a JSON object on stdin (see --help)');
  const text = await io.readStdin({
    maxBytes: MAX_INPUT_BYTES,
    notice: `grpo-sandbox ${command}: waiting for JSON on stdin (pipe a JSON object, or pass --input FILE; Ctrl-C to stop)`,
    complete: jsonCompletion(),
  });
  return parseJsonText(text, 'stdin');
}
