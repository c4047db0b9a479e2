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

// TRL's two loops as its code has them (a scan of every row per sample, min over a candidate list), kept here to hold
// the fast paths (a heap on (load, row); one pass over the fitting rows) to them on many seeded sets, ties included.
function balanceAsTrl(lengths: readonly number[], p: number): number[][] {
  const rows: number[][] = Array.from({ length: p }, () => []);
  const load = new Array<number>(p).fill(0);
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b);
  for (const s of order) {
    let best = 0;
    for (let j = 0; j < p; j++) if (load[j]! < load[best]!) best = j;
    rows[best]!.push(s);
    load[best]! += lengths[s]! ** 2;
  }
  return rows;
}

function packAsTrl(lengths: readonly number[], p: number, budget: number) {
  const microBatches: number[][][] = [];
  const dropped: number[] = [];
  let rows: number[][] = Array.from({ length: p }, () => []);
  let sq = new Array<number>(p).fill(0);
  let tok = new Array<number>(p).fill(0);
  let placed = false;
  lengths.forEach((n, s) => {
    if (n > budget) return void dropped.push(s);
    let fits = tok.flatMap((t, i) => (t + n <= budget ? [i] : []));
    if (fits.length === 0) {
      microBatches.push(rows);
      [rows, sq, tok] = [Array.from({ length: p }, () => []), new Array<number>(p).fill(0), new Array<number>(p).fill(0)];
      fits = rows.map((_, i) => i);
    }
    let best = fits[0]!;
    for (const j of fits) if (sq[j]! < sq[best]!) best = j;
    rows[best]!.push(s);
    sq[best]! += n * n;
    tok[best]! += n;
    placed = true;
  });
  if (placed) microBatches.push(rows);
  return { microBatches, dropped };
}

test('the fast paths give TRL’s loops’ rows on 400 seeded sets (few distinct lengths, so many ties)', () => {
  let seed = 12345;
  const next = (m: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % m;
  };
  for (let c = 0; c < 400; c++) {
    const p = 1 + next(40);
    const distinct = 1 + next(6);
    const lengths = Array.from({ length: next(200) }, () => 16 * (1 + next(distinct)));
    assert.deepEqual(balanceBySquaredLength(lengths, p), balanceAsTrl(lengths, p), `balance case ${c}`);
    const budget = 16 * (1 + next(12));
    assert.deepEqual(packByTokenBudget(lengths, p, budget), packAsTrl(lengths, p, budget), `pack case ${c}`);
  }
});

test('TokenBudgetBatcher’s fast path (a tree over the rows) gives TRL’s loop’s rows on wide meshes: 16 seeded sets up to 1,100 ranks', () => {
  let seed = 777;
  const next = (m: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * m);
  };
  let microBatches = 0;
  for (let c = 0; c < 16; c++) {
    const p = 64 + next(1037);
    // Few distinct lengths (ties) or a wide spread; budgets from a few samples a row to dozens.
    const lengths = Array.from({ length: next(2000) }, () => (c % 2 === 0 ? 64 * (1 + next(4)) : 1 + next(4096)));
    const budget = 256 * (1 + next(32));
    const got = packByTokenBudget(lengths, p, budget);
    assert.deepEqual(got, packAsTrl(lengths, p, budget), `case ${c}: ${p} ranks, budget ${budget}`);
    microBatches += got.microBatches.length;
  }
  assert.ok(microBatches > 30, `${microBatches} micro-batches`);
});
