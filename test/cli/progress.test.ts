// Progress on stderr for long work (`steps`): nothing for quick work, plain lines in a log, one line
// redrawn on a terminal. The clock is the test's own: no timing here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAIN_EVERY_MS, PROGRESS_AFTER_MS, workProgress } from '../../src/cli/progress.ts';

/** A progress whose clock reads each of `times` in turn (milliseconds since the work began). */
function withClock(tty: boolean, times: number[]) {
  const written: string[] = [];
  let i = 0;
  const progress = workProgress(
    'steps',
    (text) => written.push(text),
    tty,
    () => times[Math.min(i++, times.length - 1)]!,
  );
  return { progress, written };
}

test('work quicker than PROGRESS_AFTER_MS writes nothing, on a terminal or not', () => {
  for (const tty of [false, true]) {
    const { progress, written } = withClock(tty, [10, 500, PROGRESS_AFTER_MS - 1, PROGRESS_AFTER_MS - 1]);
    progress.update('optimizer steps built', 1, 3);
    progress.update('optimizer steps built', 2, 3);
    progress.update('optimizer steps built', 3, 3);
    progress.end();
    assert.deepEqual(written, []);
  }
});

test('in a log: a plain line once the work is long, then at most one every PLAIN_EVERY_MS, and the time it took', () => {
  const t = PROGRESS_AFTER_MS;
  const { progress, written } = withClock(false, [t + 100, t + 200, t + 100 + PLAIN_EVERY_MS, t + 200 + PLAIN_EVERY_MS]);
  progress.update('optimizer steps built', 1, 4);
  progress.update('optimizer steps built', 2, 4);
  progress.update('optimizer steps written as JSON', 3, 4);
  progress.end();
  assert.deepEqual(written, [
    'steps: optimizer steps built 1/4 (25%) in 2.1 s\n',
    'steps: optimizer steps written as JSON 3/4 (75%) in 7.1 s\n',
    'steps: done in 7.2 s\n',
  ]);
});

test('on a terminal: one line redrawn in place (a shorter one blanks the rest), ended by a newline', () => {
  const { progress, written } = withClock(true, [2500, 2550, 3000, 3100]);
  progress.update('optimizer steps written as JSON', 1, 10);
  progress.update('optimizer steps written as JSON', 2, 10);
  progress.update('optimizer steps built', 10, 10);
  progress.end();
  const first = 'steps: optimizer steps written as JSON 1/10 (10%) in 2.5 s';
  const second = 'steps: optimizer steps built 10/10 (100%) in 3.0 s';
  assert.deepEqual(written, [`\r${first}`, `\r${second.padEnd(first.length)}`, `\r${'steps: done in 3.1 s'.padEnd(second.length)}\n`]);
});
