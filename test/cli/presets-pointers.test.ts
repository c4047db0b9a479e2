import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presets } from '../../src/core/presets.ts';
import { runCli } from '../helpers/cli.ts';

// Preset descriptions send people to commands (`grpo-sandbox ranks --fault device`, `grpo-sandbox
// loss` with lossType "pairwise"); those pointers must name what exists, or the description lies.
test('every command, fault and loss type a preset description points to exists', async () => {
  const text = Object.values(presets)
    .map((p) => p.description)
    .join('\n');
  const commands = new Set([...text.matchAll(/`grpo-sandbox (\w+)/g)].map((m) => m[1]!));
  assert.deepEqual([...commands].sort(), ['dynamic', 'layout', 'loss', 'ranks', 'schedule', 'train']);
  const help = new Map<string, string>();
  for (const c of commands) {
    const res = await runCli([c, '--help']);
    assert.equal(res.status, 0, `grpo-sandbox ${c} --help`);
    help.set(c, res.stdout);
  }
  const faults = [...text.matchAll(/--fault (\w+)/g)].map((m) => m[1]!);
  assert.ok(faults.length >= 3);
  for (const fault of faults) assert.match(help.get('ranks')!, new RegExp(`^\\s+${fault}\\s`, 'm'), `ranks --fault ${fault}`);
  for (const [, preset] of text.matchAll(/`grpo-sandbox schedule --preset ([\w-]+)`/g)) {
    assert.match(help.get('schedule')!, new RegExp(`\\b${preset}\\b`), `schedule --preset ${preset}`);
  }
  for (const [, lossType] of text.matchAll(/lossType "(\w+)"/g)) assert.match(help.get('loss')!, new RegExp(`\\b${lossType}\\b`));
  for (const [, preset] of text.matchAll(/`grpo-sandbox dynamic --preset ([\w-]+)`/g)) {
    assert.match(help.get('dynamic')!, new RegExp(`\\b${preset}\\b`), `dynamic --preset ${preset}`);
  }
  for (const [, preset] of text.matchAll(/train --preset ([\w-]+)/g))
    assert.match(help.get('train')!, new RegExp(`^\\s+${preset}\\s`, 'm'));
});
