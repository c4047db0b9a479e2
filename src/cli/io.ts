// Where a command's output goes and where its input comes from. Commands write through a
// `CliIo` instead of `process.stdout` so that `main(argv, io)` can run many invocations in one
// process (the fuzz test) and so that pipe behaviour (EPIPE, stdin) is handled in one place.
import { writeSync } from 'node:fs';
import process from 'node:process';
import { ConfigError } from '../core/errors.ts';

export interface CliIo {
  /** Results. */
  out(text: string): void;
  /** Diagnosis, progress, notices (never results). */
  err(text: string): void;
  /** Reads all of stdin as text (see readStdin for the rules). */
  readStdin(options: StdinOptions): Promise<string>;
  /** Whether stdin is a terminal (nothing piped). */
  stdinIsTty: boolean;
  /** Whether stdout is a terminal (a progress bar may redraw it in place). */
  stdoutIsTty: boolean;
  /** Whether stderr is a terminal (progress may redraw one line in place). */
  stderrIsTty: boolean;
}

export interface StdinOptions {
  /** Input over this many bytes is refused with one line. */
  maxBytes: number;
  /** Printed once on stderr when no data arrived within `noticeMs` (e.g. "waiting for JSON on stdin"). */
  notice: string;
  noticeMs?: number;
  /**
   * Returns true once the text so far holds a complete value: reading stops there instead of at
   * end-of-file, so `(echo '{…}'; sleep 100) | grpo-sandbox loss` answers at once.
   */
  complete?(chunk: string): boolean;
}

/** Input size cap for files and stdin alike (a stated limit; JSON numbers take ~10× more once parsed). */
export const MAX_INPUT_BYTES = 128 * 1024 * 1024;

/** Human size: 134217728 → "128 MiB". */
export function bytesText(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(n % 1024 ** 2 ? 1 : 0)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(0)} KiB`;
  return `${n} bytes`;
}

async function readProcessStdin(options: StdinOptions): Promise<string> {
  const { maxBytes, notice, noticeMs = 3000, complete } = options;
  const stdin = process.stdin;
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    timer = undefined;
    process.stderr.write(`${notice}\n`);
  }, noticeMs);
  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  try {
    for await (const chunk of stdin) {
      stopTimer();
      const buf = chunk as Uint8Array;
      bytes += buf.byteLength;
      if (bytes > maxBytes) {
        throw new ConfigError(`stdin holds more than ${bytesText(maxBytes)}, the input limit; pass a smaller batch`);
      }
      const text = decoder.decode(buf, { stream: true });
      parts.push(text);
      if (complete?.(text)) break;
    }
  } finally {
    stopTimer();
    // Leaving the loop early (a complete value, or too much) must not keep the process waiting
    // on a writer that never closes the pipe.
    stdin.pause();
    if ('unref' in stdin && typeof stdin.unref === 'function') stdin.unref();
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/**
 * The process's own io. A closed stdout (`grpo-sandbox … | head -1`) ends the process quietly
 * with status 0, as the shell's `set -o pipefail` users expect of a reader that stopped early;
 * no "Unhandled 'error' event … EPIPE" trace.
 */
export function processIo(): CliIo {
  installPipeGuards();
  return {
    out: (text) => write('stdout', text),
    err: (text) => write('stderr', text),
    readStdin: readProcessStdin,
    stdinIsTty: !!process.stdin.isTTY,
    stdoutIsTty: !!process.stdout.isTTY,
    stderrIsTty: !!process.stderr.isTTY,
  };
}

/**
 * Writes to the process's stdout or stderr. Deno throws a write error (ENOSPC: `> file` on a full
 * disk, `> /dev/full`) from write() itself, Node emits it: both end in writeFailed.
 */
export function write(name: 'stdout' | 'stderr', text: string): void {
  try {
    process[name].write(text);
  } catch (err) {
    writeFailed(err as NodeJS.ErrnoException, name);
  }
}

let guarded = false;

/** EPIPE on stdout or stderr: the reader is gone, so stop at once, quietly, with status 0. */
export function installPipeGuards(): void {
  if (guarded) return;
  guarded = true;
  for (const [stream, name] of [
    [process.stdout, 'stdout'],
    [process.stderr, 'stderr'],
  ] as const) {
    stream.on('error', (err: NodeJS.ErrnoException) => writeFailed(err, name));
  }
}

/**
 * A failed write to stdout or stderr. EPIPE (the reader stopped early) ends the process quietly
 * with status 0; any other error (ENOSPC, EIO) is one line on stderr, when stderr still works, and
 * status 1: the output is incomplete, which is no user mistake, and no stack trace either.
 */
function writeFailed(err: NodeJS.ErrnoException, name: 'stdout' | 'stderr'): never {
  if (err.code === 'EPIPE' || err.name === 'BrokenPipe' || /broken pipe/i.test(err.message)) process.exit(0);
  if (name === 'stdout') {
    try {
      writeSync(2, `grpo-sandbox: cannot write to stdout (${err.code ?? err.message}); the output is incomplete\n`);
    } catch {
      // stderr is gone too: the status says it.
    }
  }
  process.exit(1);
}

/** An io that collects output in memory (tests, the fuzz driver); stdin is the given text or a TTY; stdout and stderr are no terminal. */
export function memoryIo(stdin?: string): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out(text: string) {
      io.stdout += text;
    },
    err(text: string) {
      io.stderr += text;
    },
    async readStdin(options: StdinOptions) {
      const text = stdin ?? '';
      if (new TextEncoder().encode(text).byteLength > options.maxBytes)
        throw new ConfigError(`stdin holds more than ${bytesText(options.maxBytes)}, the input limit; pass a smaller batch`);
      return text;
    },
    stdinIsTty: stdin === undefined,
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  return io;
}
