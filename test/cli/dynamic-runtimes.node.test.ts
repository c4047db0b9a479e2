// Node only: it compares Node's output with Deno's by running both CLIs, once (under Deno it
// would only repeat the same comparison). Moved out of dynamic.test.ts so that Deno's run has no
// declared skip: with CI=true scripts/test.js fails on any skipped test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliDeno, runCliNode } from '../helpers/cli.ts';

test('dynamic --json: Node and Deno give the same data', () => {
  const args = ['dynamic', '--p', '0.3', '--policy', 'rebalance', '--ranks', '3', '--json'];
  const node = runCliNode(args);
  const deno = runCliDeno(args);
  assert.equal(node.status, 0, node.stderr);
  assert.equal(deno.status, 0, deno.stderr);
  assert.deepEqual(JSON.parse(deno.stdout), JSON.parse(node.stdout));
  const data = JSON.parse(node.stdout);
  assert.equal(data.runs.length, 1);
  assert.equal(data.runs[0].identical, true);
});

test('dynamic --json, the presets: Node and Deno give the same data (seed-002 naive; seed-004 without and with the device fix)', () => {
  for (const [preset, status, fixes] of [
    ['seed-002', 1, [true]],
    ['seed-004', 0, [false, true]],
  ] as const) {
    const args = ['dynamic', '--preset', preset, '--json'];
    const node = runCliNode(args);
    const deno = runCliDeno(args);
    assert.equal(node.status, status, `${preset} node: ${node.stderr}`);
    assert.equal(deno.status, status, `${preset} deno: ${deno.stderr}`);
    assert.deepEqual(JSON.parse(deno.stdout), JSON.parse(node.stdout), preset);
    const data = JSON.parse(node.stdout);
    assert.deepEqual(
      data.runs.map((r: { deviceFix: boolean }) => r.deviceFix),
      fixes,
      preset,
    );
    if (preset === 'seed-002') {
      assert.equal(data.config.policy, 'naive');
      assert.match(
        data.runs[0].failure,
        /WatchdogTimeoutError: as NCCL would behave[\s\S]*sandbox diagnosis: allGather #\d+: shape mismatch: ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/,
      );
    } else {
      assert.match(data.runs[0].failure, /DeviceMismatchError/);
      assert.equal(data.runs[1].ok, true);
    }
  }
});
