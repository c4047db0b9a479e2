// Node only: it runs scripts/test.js, which itself starts Node's and Deno's test runners.
// The runner's summary is honest: skips are counted (Node and Deno), never as passes, and under
// CI=true a skip fails the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function runner(env: Record<string, string>) {
  // NODE_TEST_CONTEXT would make the inner `node --test` report to this runner instead of printing.
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  const res = spawnSync(process.execPath, ['scripts/test.js', 'skip.test'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...outer, CI: '', GRPO_SKIP_DENO: '', GRPO_TEST_DIR: 'test/fixtures/runner', ...env },
  });
  return { status: res.status, out: res.stdout, total: /^total: .*$/m.exec(res.stdout)?.[0] };
}

test('skips are counted under Node and Deno, not as passes', () => {
  const r = runner({});
  assert.equal(r.total, 'total: 2 passed, 0 failed, 4 skipped', r.out);
  assert.equal(r.status, 0);
});

test('under CI=true a skipped test fails the run; a failing test is counted as failed', () => {
  const ci = runner({ CI: 'true' });
  assert.equal(ci.total, 'total: 2 passed, 0 failed, 4 skipped', ci.out);
  assert.equal(ci.status, 1);
  assert.match(ci.out, /CI=true: 4 test\(s\) skipped/);
  const failing = runner({ GRPO_FIXTURE_FAIL: '1', GRPO_SKIP_DENO: '1' });
  assert.equal(failing.total, 'total: 1 passed, 1 failed, 1 skipped', failing.out);
  assert.equal(failing.status, 1);
});

test("a failure is reported again at the end of the run, in its runner's words (Node and Deno), so a log's tail names it", () => {
  const failing = runner({ GRPO_FIXTURE_FAIL: '1' });
  assert.equal(failing.total, 'total: 2 passed, 2 failed, 2 skipped', failing.out);
  const tail = failing.out.slice(failing.out.lastIndexOf('=== the failures again'));
  assert.ok(tail.length < failing.out.length, failing.out);
  for (const label of ['node', 'deno']) assert.match(tail, new RegExp(`^--- ${label}$[\\s\\S]*asked to fail`, 'm'), tail);
  assert.match(tail, /all steps: .*\n\ntotal: 2 passed, 2 failed/);
});
