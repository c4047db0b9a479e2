// slotAdvantages (a range of gathered positions, as a training rank takes its slots) against
// schemeAdvantages over the whole batch: every scheme, every rank's slice and ranges that cut groups,
// bit for bit, on float32 rewards with ties, prompts drawn twice and lone samples.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Mt19937 } from '../../../src/core/rng/index.ts';
import { slotAdvantages } from '../../../src/core/grpo/slot-advantages.ts';
import { ADVANTAGE_SCHEMES, schemeAdvantages, type AdvantageInput } from '../../../src/core/grpo/schemes.ts';

/** A gathered batch of `ranks` × `perRank` samples, groups of k by prompt, some prompts twice, some ties, one lone sample. */
function batch(seed: number, ranks: number, perRank: number, k: number): AdvantageInput {
  const rng = new Mt19937(seed);
  const uniform = () => rng.random() / 2 ** 32;
  const n = ranks * perRank;
  const promptIds = Array.from({ length: n }, (_, i) => Math.floor(i / k) % Math.max(1, Math.floor(n / k) - 2));
  promptIds[n - 1] = 1000; // a prompt with one sample (verl's lone rule)
  const rewards = Array.from(
    Float32Array.from({ length: n }, (_, i) => (promptIds[i]! % 5 === 0 ? 0.25 : Math.round(uniform() * 8) / 8 - 0.3 * uniform())),
  );
  return { rewards, promptIds, k, ranks };
}

// The last: prompt ids far apart, negative and fractional (keys the hash table must still tell apart).
const spread = batch(6, 4, 16, 4);
const inputs = [
  batch(1, 4, 8, 4),
  batch(2, 8, 32, 8),
  batch(3, 1, 24, 4),
  batch(4, 2, 6, 2),
  { ...spread, promptIds: Array.from(spread.promptIds).map((id) => (id % 3 === 0 ? -id * 65536 : id % 3 === 1 ? id * 2 ** 32 : id + 0.5)) },
];

for (const scheme of ADVANTAGE_SCHEMES) {
  test(`slotAdvantages(${scheme}) of every rank's slots and of cut ranges is schemeAdvantages' slice, bit for bit`, () => {
    for (const input of inputs) {
      const want = schemeAdvantages(scheme, input);
      const n = want.length;
      const per = n / input.ranks;
      const ranges: [number, number][] = [
        [0, n],
        [1, n - 2],
        [Math.floor(n / 3), Math.ceil(n / 3)],
      ];
      for (let r = 0; r < input.ranks; r++) ranges.push([r * per, per]);
      for (const [from, count] of ranges) {
        const got = slotAdvantages(scheme, input, from, new Float64Array(count));
        for (let i = 0; i < count; i++)
          assert.ok(
            Object.is(got[i], want[from + i]),
            `${scheme} [${from}, +${count}) position ${from + i}: ${got[i]} vs ${want[from + i]}`,
          );
        const f32 = slotAdvantages(scheme, input, from, new Float32Array(count));
        assert.deepEqual(Array.from(f32), Array.from(Float32Array.from(want.slice(from, from + count))));
      }
    }
  });
}

test('slotAdvantages refuses a range outside the batch and what schemeAdvantages refuses', () => {
  const input = batch(5, 2, 8, 4);
  assert.throws(() => slotAdvantages('flow-grpo', input, 10, new Float64Array(8)), /outside the 16 gathered samples/);
  assert.throws(() => slotAdvantages('trl-group', { ...input, k: 3 }, 0, new Float64Array(4)), /multiple of k/);
});
