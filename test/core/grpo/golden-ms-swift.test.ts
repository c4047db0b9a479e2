// advantages --scheme ms-swift against test/fixtures/golden-ms-swift-advantages.json: ms-swift 3602360's
// compute_advantages (swift/rl_core/advantage.py) exec'd from the repository with real torch in float64,
// made by scripts/golden/ms_swift_advantages.py. Its scale_rewards 'batch' and 'none' are TRL's trl-batch
// and trl-none, on the same cases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareAdvantages } from '../../../src/core/grpo/compare.ts';
import { schemeGroups, advantagesOfGroups } from '../../../src/core/grpo/scheme-groups.ts';
import { groupsByPosition, schemeAdvantages } from '../../../src/core/grpo/schemes.ts';
import { slotAdvantages } from '../../../src/core/grpo/slot-advantages.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  rewards: number[];
  promptIds: number[];
  k: number;
  group: (number | null)[];
  batch: (number | null)[];
  none: (number | null)[];
}
const golden = fixture<{ source: string; cases: Case[] }>('golden-ms-swift-advantages.json');

function close(actual: readonly number[], expected: readonly (number | null)[], what: string) {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((a, i) => {
    const e = expected[i] ?? Number.NaN;
    assert.ok(Math.abs(a - e) <= 1e-10 * Math.max(1, Math.abs(e)) || (Number.isNaN(a) && Number.isNaN(e)), `${what}[${i}]: ${a} vs ${e}`);
  });
}

test('the fixture names the commit it ran (ms-swift 3602360)', () => {
  assert.match(golden.source, /^modelscope\/ms-swift 3602360a562313afbf2ef6065fdf61f271a2c5b9 .*\(run\)$/);
  assert.ok(golden.cases.length >= 40);
});

test(`advantages --scheme ms-swift = ms-swift's compute_advantages on ${golden.cases.length} cases, and so are its slots and its kernel rule`, () => {
  for (const [i, c] of golden.cases.entries()) {
    const input = { rewards: c.rewards, promptIds: c.promptIds, k: c.k, ranks: 1 };
    close(schemeAdvantages('ms-swift', input), c.group, `case ${i}`);
    close(Array.from(slotAdvantages('ms-swift', input, 0, new Float64Array(c.rewards.length))), c.group, `slots of case ${i}`);
    close(advantagesOfGroups(c.rewards, schemeGroups('ms-swift', input)), c.group, `rule of case ${i}`);
  }
});

test("ms-swift's scale_rewards batch and none are TRL's trl-batch and trl-none", () => {
  for (const [i, c] of golden.cases.entries()) {
    const input = { rewards: c.rewards, promptIds: c.promptIds, k: c.k, ranks: 1 };
    close(schemeAdvantages('trl-batch', input), c.batch, `batch, case ${i}`);
    close(schemeAdvantages('trl-none', input), c.none, `none, case ${i}`);
  }
});

test('ms-swift groups by position (a mixed group is flagged), refuses k = 1 and a count view(-1, k) cannot shape, in its words', () => {
  assert.equal(groupsByPosition('ms-swift'), true);
  const one = { rewards: [1, 0], promptIds: [0, 1], k: 1, ranks: 1 };
  assert.throws(() => schemeAdvantages('ms-swift', one), /num_generations must be greater than 1 for GRPO/);
  assert.throws(() => schemeAdvantages('ms-swift', { ...one, rewards: [1, 0, 1], promptIds: [0, 0, 1], k: 2 }), /rows of k=2/);
  const cmp = compareAdvantages({ rewards: [0.9, 0.1, 0.5, 0.3], promptIds: [3, 7, 3, 7], k: 2 }, ['ms-swift']);
  const [col] = cmp.columns;
  assert.equal(col!.framework, 'ms-swift');
  assert.equal(col!.version, '3602360');
  assert.equal(col!.warnings[0]?.kind, 'mixed');
});
