// TRL async_grpo's planners against test/fixtures/golden-trl-async-packing.json: _balance_by_squared_length and
// TokenBudgetBatcher.__iter__ exec'd from a huggingface/trl checkout (and checked there against the 1.13.0 wheel's
// copy), made by scripts/golden/trl_async_packing.py.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { balanceBySquaredLength, packByTokenBudget } from '../../../src/core/async/rules/trl-async-packing.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  lengths: number[];
  numProcesses: number;
  tokenBudget: number | null;
  balanced: number[][];
  packed: { microBatches: number[][][]; dropped: number[] } | null;
}
const golden = fixture<{ source: string; commit: string; wheelAgrees: string | null; cases: Case[] }>('golden-trl-async-packing.json');

test('the fixture ran TRL’s own planners from the checkout, and the 1.13.0 wheel agreed', () => {
  assert.match(golden.commit, /^[0-9a-f]{40}$/);
  assert.match(golden.source, /exec'd from the checkout/);
  assert.equal(golden.wheelAgrees, 'trl 1.13.0');
  assert.ok(golden.cases.length >= 30);
  assert.ok(golden.cases.some((c) => (c.packed?.dropped.length ?? 0) > 0));
  assert.ok(golden.cases.some((c) => (c.packed?.microBatches.length ?? 0) > 2));
});

test(`_balance_by_squared_length on ${golden.cases.length} length sets (ties, fewer samples than ranks, none)`, () => {
  for (const [i, c] of golden.cases.entries()) {
    assert.deepEqual(balanceBySquaredLength(c.lengths, c.numProcesses), c.balanced, `case ${i}`);
  }
});

test('TokenBudgetBatcher: the same micro-batches, rows and drops', () => {
  for (const [i, c] of golden.cases.entries()) {
    if (c.tokenBudget === null) continue;
    assert.deepEqual(packByTokenBudget(c.lengths, c.numProcesses, c.tokenBudget), c.packed, `case ${i}`);
  }
});
