// Node only: it compares Node's output with Deno's by running both CLIs, once (under Deno it
// would only repeat the same comparison). Moved out of dynamic.test.ts so that Deno's run has no
// declared skip: with CI=true scripts/test.js fails on any skipped test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli, runCliDeno } from '../helpers/cli.ts';

test('dynamic --json: Node and Deno give the same data', () => {
  const args = ['dynamic', '--p', '0.3', '--policy', 'rebalance', '--ranks', '3', '--json'];
  const node = runCli(args);
  const deno = runCliDeno(args);
  assert.equal(node.status, 0, node.stderr);
  assert.equal(deno.status, 0, deno.stderr);
  assert.deepEqual(JSON.parse(deno.stdout), JSON.parse(node.stdout));
  const data = JSON.parse(node.stdout);
  assert.equal(data.runs.length, 1);
  assert.equal(data.runs[0].identical, true);
});
