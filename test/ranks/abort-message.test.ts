// A rank that finds the world aborting while the failing rank still writes its message waits for
// the message, also where it may not block its thread (waitMode 'async'). It once gave up after a
// fixed number of loads and threw a RankFailedError with an empty message on a loaded machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { ABORT, ABORT_LOCKED, ABORT_MSG_BYTES, AbortReason, Arena, createArenaBuffer } from '../../src/ranks/arena.ts';
import { Communicator } from '../../src/ranks/collectives.ts';
import { RankFailedError } from '../../src/ranks/faults.ts';

test('a rank released while the abort message is being written reads the whole message (async wait)', async () => {
  const buffer = createArenaBuffer(2, 1024, 1024);
  const arena = new Arena(buffer, 2);
  // The failing rank has claimed the abort and has not yet written its message.
  Atomics.store(arena.ctrl, ABORT, ABORT_LOCKED);
  const rank0 = new Communicator(buffer, { rank: 0, size: 2, timeoutMs: 5_000, waitMode: 'async', device: 'sim:0' });
  // Another thread writes the message 50 ms later, then the reason (as the failing rank's abort() does).
  const writer = new Worker(
    `const { workerData: w, parentPort } = require('node:worker_threads');
     parentPort.postMessage('started');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
     const text = new TextEncoder().encode(w.message);
     new Uint8Array(w.buffer, w.msgOffset, text.length).set(text);
     const ctrl = new Int32Array(w.buffer, 0, 8);
     Atomics.store(ctrl, w.bytesWord, text.length);
     Atomics.store(ctrl, w.abortWord, w.reason);`,
    {
      eval: true,
      workerData: {
        buffer,
        msgOffset: arena.msgOffset,
        bytesWord: ABORT_MSG_BYTES,
        abortWord: ABORT,
        reason: AbortReason.RankFailed,
        message: 'rank 1 failed: Error: boom',
      },
    },
  );
  await new Promise((resolve) => writer.once('message', resolve));
  await assert.rejects(rank0.barrier(), (err: unknown) => {
    assert.ok(err instanceof RankFailedError, String(err));
    assert.match(err.message, /^rank 1 failed: Error: boom\n/);
    return true;
  });
  await writer.terminate();
});
