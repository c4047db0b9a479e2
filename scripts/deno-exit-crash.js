// How the test runner (scripts/test.js) tells Deno's abort at exit after WebGPU from any other
// unclean end of its test process.
/**
 * Deno 2.9.6 sometimes aborts in its exit path, after `deno test` has run every test and printed its
 * summary, in a process that used WebGPU: glibc finds its heap corrupted ("double free or corruption",
 * "corrupted size vs. prev_size"). Five lines reproduce it, with no code of ours: a `Deno.test` that
 * requests an adapter and a device and destroys it aborted in 5 of 25 runs here (lavapipe and
 * SwiftShader alike), the same as a `deno run` script in 0 of 75 (test/README.md). Only that abort
 * (SIGABRT with one of glibc's heap messages, after a summary with no failure) is reported as such
 * and not counted as a failure; any other end of a process without a clean exit fails the run.
 */
export const EXIT_CRASH_NOTE = "Deno's known WebGPU teardown abort (test/README.md), not counted as a failure";
/**
 * The glibc message when `signal` and `stderr` are that abort, else null.
 * @param {string | null} signal
 * @param {string} stderr
 * @returns {string | null}
 */
export const denoExitCrash = (signal, stderr) =>
  signal === 'SIGABRT'
    ? (/double free or corruption[^\n]*|corrupted size vs\. prev_size[^\n]*|free\(\): invalid [^\n]*/.exec(stderr)?.[0] ?? null)
    : null;
