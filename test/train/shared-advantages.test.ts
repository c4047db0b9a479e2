// The gathered batch's advantages once per thread (src/train/shared-advantages.ts): the ranks of a thread that
// gathered the same bits take their slots from one evaluation, with the bits each computes alone; a rank whose
// gathered batch differs by one reward or one prompt id, or whose scheme or k differs, never reads
// the others' (a shared value must not hide a rank's divergence). Runs under Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slotAdvantages } from '../../src/core/grpo/slot-advantages.ts';
import type { TrainScheme } from '../../src/core/grpo/schemes.ts';
import { LocalGroup } from '../../src/ranks/local-group.ts';
import { type GatheredInput, rankAdvantages, threadAdvantages } from '../../src/train/shared-advantages.ts';
import { Workspace } from '../../src/train/workspace.ts';

const W = 4;
const rows = 8;
const k = 4;

/** A gathered batch as flow_grpo's sampler spreads it: each prompt's k copies over the ranks, rewards from a seed. */
function gathered(seed: number): GatheredInput {
  const n = W * rows;
  let s = seed >>> 0;
  const rewards = Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.round((s / 2 ** 32) * 8) / 8;
  });
  const promptIds = Int32Array.from({ length: n }, (_, i) => (i * 5) % (n / k));
  return { rewards, promptIds, k, ranks: W };
}

/** Rank r's slots alone: slotAdvantages over its range (float32), and every slot's (float64) where it reports. */
function alone(scheme: TrainScheme, input: GatheredInput, r: number) {
  return {
    advantages: slotAdvantages(scheme, input, r * rows, new Float32Array(rows)),
    all: slotAdvantages(scheme, input, 0, new Float64Array(input.rewards.length)),
  };
}

for (const scheme of ['flow-grpo', 'trl-group', 'dance', 'verl'] as const)
  test(`${scheme}: a thread's ranks take one evaluation's advantages, each with its own slots' bits`, () => {
    const block = new LocalGroup([0, 1, 2, 3]);
    const input = gathered(7);
    const first = threadAdvantages(block, scheme, input, new Workspace());
    assert.ok(first);
    for (let r = 0; r < W; r++) {
      // Each rank its own copy of the gathered batch, as each gathers its own.
      const mine = { ...input, rewards: input.rewards.slice(), promptIds: input.promptIds.slice() };
      assert.equal(threadAdvantages(block, scheme, mine, new Workspace()), first, `rank ${r} reuses the thread's evaluation`);
      const got = rankAdvantages(block, scheme, mine, r * rows, rows, new Workspace(), r === 0);
      const want = alone(scheme, input, r);
      assert.deepEqual(got.advantages, want.advantages, `rank ${r}'s slots`);
      assert.deepEqual(got.all, r === 0 ? want.all : null, `rank ${r}'s batch advantages`);
    }
    // A thread of one rank evaluates its own slots, as it always did.
    assert.equal(threadAdvantages(new LocalGroup([0]), scheme, input, new Workspace()), null);
  });

test("a rank whose gathered batch or settings differ computes its own advantages, not the thread's", () => {
  const block = new LocalGroup([0, 1, 2, 3]);
  const input = gathered(11);
  const oneReward = { ...input, rewards: input.rewards.slice() };
  oneReward.rewards[5]! += 0.5;
  const onePrompt = { ...input, promptIds: input.promptIds.slice() };
  [onePrompt.promptIds[1], onePrompt.promptIds[2]] = [onePrompt.promptIds[2]!, onePrompt.promptIds[1]!];
  // [what, the batch's scheme, the variant's scheme and batch]
  const variants: [string, TrainScheme, TrainScheme, GatheredInput][] = [
    ['one reward', 'flow-grpo', 'flow-grpo', oneReward],
    ['two prompt ids swapped', 'flow-grpo', 'flow-grpo', onePrompt],
    ['another scheme', 'trl-group', 'verl', input],
    ['another k', 'trl-group', 'trl-group', { ...input, k: 2 }],
  ];
  for (const [what, base, scheme, other] of variants) {
    // Ranks 0 and 2 hold the batch, rank 1 the variant between them, rank 3 the batch again.
    const order: [number, TrainScheme, GatheredInput][] = [
      [0, base, input],
      [1, scheme, other],
      [2, base, input],
      [3, base, input],
    ];
    for (const [r, s, x] of order) {
      const got = rankAdvantages(block, s, x, r * rows, rows, new Workspace(), true);
      const want = alone(s, x, r);
      assert.deepEqual(got.advantages, want.advantages, `${what}: rank ${r}'s slots`);
      assert.deepEqual(got.all, want.all, `${what}: rank ${r}'s batch advantages`);
    }
    // The variant's advantages are not the batch's (else the case would prove nothing).
    assert.notDeepEqual(alone(scheme, other, 1).all, alone(base, input, 1).all, what);
  }
});
