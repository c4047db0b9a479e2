// advantages --scheme trl-async against test/fixtures/golden-trl-async-advantages.json: TRL 1.13.0's
// AsyncRolloutWorker._score_group exec'd from the installed wheel's source (one RolloutGroup per
// prompt id, numpy), made by scripts/golden/trl_async_advantages.py.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareAdvantages } from '../../../src/core/grpo/compare.ts';
import { groupsByPosition, schemeAdvantages } from '../../../src/core/grpo/schemes.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  rewards: number[];
  promptIds: number[];
  k: number;
  advantages: number[];
}
const golden = fixture<{ source: string; trl: string; cases: Case[] }>('golden-trl-async-advantages.json');

test('the fixture ran TRL 1.13.0’s own _score_group', () => {
  assert.equal(golden.trl, '1.13.0');
  assert.match(golden.source, /AsyncRolloutWorker\._score_group .*exec'd from the installed source/);
  assert.ok(golden.cases.length >= 40);
});

test(`trl-async = TRL's async trainer on ${golden.cases.length} batches (uneven prompt counts, flat groups, one completion)`, () => {
  for (const [i, c] of golden.cases.entries()) {
    const got = schemeAdvantages('trl-async', { rewards: c.rewards, promptIds: c.promptIds, k: c.k, ranks: 1 });
    assert.equal(got.length, c.advantages.length);
    got.forEach((a, j) =>
      assert.ok(
        Math.abs(a - c.advantages[j]!) <= 1e-10 * Math.max(1, Math.abs(c.advantages[j]!)),
        `case ${i}[${j}]: ${a} vs ${c.advantages[j]}`,
      ),
    );
    // The comparison shows the same column.
    assert.deepEqual(compareAdvantages(c, ['trl-async']).columns[0]!.advantages, got);
  }
});

test('trl-async groups by its group objects, not by position: never mixed, any count', () => {
  assert.equal(groupsByPosition('trl-async'), false);
  assert.equal(schemeAdvantages('trl-async', { rewards: [1, 0, 1], promptIds: [0, 1, 0], k: 2, ranks: 1 }).length, 3);
});
