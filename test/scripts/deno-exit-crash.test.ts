// The runner forgives exactly one unclean end of Deno's test process (scripts/deno-exit-crash.js):
// SIGABRT with one of glibc's heap messages, the stderr of real runs (test/README.md). Any other
// signal, or SIGABRT without such a message, is not that abort and fails the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { denoExitCrash } from '../../scripts/deno-exit-crash.js';

const summary = 'ok | 15 passed | 0 failed (21s)\n\n';

test("Deno's WebGPU teardown abort is recognised by glibc's heap messages, and only with SIGABRT", () => {
  assert.equal(denoExitCrash('SIGABRT', `${summary}double free or corruption (fasttop)\n`), 'double free or corruption (fasttop)');
  assert.equal(
    denoExitCrash('SIGABRT', `${summary}corrupted size vs. prev_size in fastbins\n`),
    'corrupted size vs. prev_size in fastbins',
  );
  assert.equal(denoExitCrash('SIGABRT', `${summary}free(): invalid pointer\n`), 'free(): invalid pointer');
  for (const signal of ['SIGSEGV', 'SIGKILL', null])
    assert.equal(denoExitCrash(signal, `${summary}double free or corruption (fasttop)\n`), null, String(signal));
  assert.equal(denoExitCrash('SIGABRT', `${summary}thread 'main' panicked at ext/webgpu/lib.rs\n`), null, 'a panic is not that abort');
  assert.equal(denoExitCrash('SIGABRT', ''), null);
});
