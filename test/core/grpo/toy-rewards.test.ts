import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashUnit, promptPassRate, toyRewards } from '../../../src/core/grpo/toy-rewards.ts';

test('toy rewards are deterministic in (seed, gather, sample) and change with the seed', () => {
  const ids = [0, 0, 1, 1, 2, 2];
  assert.deepEqual(toyRewards('random', 42, 0, ids), toyRewards('random', 42, 0, ids));
  assert.notDeepEqual(toyRewards('random', 42, 0, ids), toyRewards('random', 43, 0, ids));
  assert.notDeepEqual(toyRewards('random', 42, 0, ids), toyRewards('random', 42, 1, ids));
});

test('random rewards are spread over [0, 1): mean near 1/2 over many samples', () => {
  const r = toyRewards(
    'random',
    7,
    0,
    Array.from({ length: 20000 }, (_, i) => i),
  );
  assert.ok(r.every((x) => x >= 0 && x < 1));
  const mean = r.reduce((a, b) => a + b, 0) / r.length;
  assert.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`);
});

test("the toy reward model gives 0/1 rewards whose pass frequency follows each prompt's pass rate", () => {
  const ids = Array.from({ length: 20000 }, () => 3);
  const r = toyRewards('model', 11, 0, ids);
  assert.equal(r.filter((x) => x !== 0 && x !== 1).length, 0);
  const freq = r.reduce((a, b) => a + b, 0) / r.length;
  assert.ok(Math.abs(freq - promptPassRate(11, 3)) < 0.015, `${freq} vs ${promptPassRate(11, 3)}`);
});

test('hashUnit stays in [0, 1)', () => {
  for (let i = 0; i < 1000; i++) {
    const u = hashUnit(i, -i, 2 ** 31 - 1);
    assert.ok(u >= 0 && u < 1);
  }
});
