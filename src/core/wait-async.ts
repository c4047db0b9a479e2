// ES2024's Atomics.waitAsync (Node ≥ 16, Deno, Chromium), typed here because the project's lib is
// ES2023: a wait on a shared Int32Array word that leaves the thread in its event loop.

/** Atomics.waitAsync's result: not async when the word already differs ('not-equal') or the timeout is 0. */
export interface AsyncWait {
  async: boolean;
  value: Promise<string> | string;
}

/** Atomics.waitAsync(c, index, value, timeoutMs): resolves when the word is notified or the time is up. */
export function waitAsync(c: Int32Array, index: number, value: number, timeoutMs = Number.POSITIVE_INFINITY): AsyncWait {
  return (Atomics as unknown as { waitAsync(c: Int32Array, index: number, value: number, timeoutMs: number): AsyncWait }).waitAsync(
    c,
    index,
    value,
    timeoutMs,
  );
}
