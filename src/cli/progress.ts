// Progress of one command's long work on stderr, never on stdout (which may be JSON). Quick work
// says nothing: the first word comes once the work has run PROGRESS_AFTER_MS. Then, on a terminal,
// one line rewritten in place; otherwise (a log, a pipe, CI) a plain line at most every
// PLAIN_EVERY_MS, and a last line with the time it took.

/** Work shorter than this shows no progress at all. */
export const PROGRESS_AFTER_MS = 2000;
/** Milliseconds between two plain progress lines (stderr not a terminal). */
export const PLAIN_EVERY_MS = 5000;
/** Milliseconds between two redraws of the terminal's line (redrawing on every item would cost more than the work). */
const REDRAW_MS = 100;

export interface WorkProgress {
  /** `done` of `total` items of the phase `what` ("optimizer steps built") are done. */
  update(what: string, done: number, total: number): void;
  /** The work is over: the terminal's line ends, or a plain line says how long it took (only when progress was shown). */
  end(): void;
}

/**
 * Progress for `command` written through `write` (the io's stderr); `tty` when stderr is a
 * terminal; `elapsed` in milliseconds since the work began.
 */
export function workProgress(command: string, write: (text: string) => void, tty: boolean, elapsed: () => number): WorkProgress {
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  let shown = false;
  let lastWrite = -Infinity;
  let width = 0;
  const line = (what: string, done: number, total: number, now: number) =>
    `${command}: ${what} ${done}/${total} (${Math.floor((100 * done) / Math.max(1, total))}%) in ${secs(now)}`;
  return {
    update(what, done, total) {
      const now = elapsed();
      if (now < PROGRESS_AFTER_MS) return;
      if (tty) {
        if (now - lastWrite < REDRAW_MS) return;
        const text = line(what, done, total, now);
        write(`\r${text.padEnd(width)}`);
        width = text.length;
      } else {
        if (now - lastWrite < PLAIN_EVERY_MS) return;
        write(`${line(what, done, total, now)}\n`);
      }
      lastWrite = now;
      shown = true;
    },
    end() {
      if (!shown) return;
      const text = `${command}: done in ${secs(elapsed())}`;
      write(tty ? `\r${text.padEnd(width)}\n` : `${text}\n`);
    },
  };
}
