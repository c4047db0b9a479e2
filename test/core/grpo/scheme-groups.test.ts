// The schemes as one group rule (what shaders/schemeAdvantage.wgsl runs) against schemeAdvantages,
// the frameworks' definitions: every scheme, ties, prompts drawn twice, lone samples, several ranks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { advantagesOfGroups, packedGroups, schemeGroups } from '../../../src/core/grpo/scheme-groups.ts';
import { ADVANTAGE_SCHEMES, schemeAdvantages } from '../../../src/core/grpo/schemes.ts';

const inputs = [
  // Prompts drawn twice, one lone sample (verl's rule), ties in a group.
  { rewards: [0.9, 0.1, 0.5, 0.3, 0.7, 0.7, 0.8, 0.4], promptIds: [3, 7, 3, 7, 5, 5, 3, 9], k: 2, ranks: 2 },
  // Every group ties (advantages exactly 0 where the scheme divides by a group's std).
  { rewards: [0.25, 0.25, 0.25, 0.25, -1, -1, -1, -1], promptIds: [1, 1, 1, 1, 2, 2, 2, 2], k: 4, ranks: 1 },
  // Float32 rewards as training gathers them, four ranks.
  {
    rewards: Array.from(Float32Array.from({ length: 32 }, (_, i) => Math.sin(i * 1.7) * 0.8)),
    promptIds: Array.from({ length: 32 }, (_, i) => Math.floor(i / 4) % 5),
    k: 4,
    ranks: 4,
  },
];

for (const scheme of ADVANTAGE_SCHEMES) {
  test(`schemeGroups(${scheme}) gives schemeAdvantages' advantages`, () => {
    for (const input of inputs) {
      const want = schemeAdvantages(scheme, input);
      const got = advantagesOfGroups(input.rewards, schemeGroups(scheme, input));
      got.forEach((a, i) =>
        assert.ok(Math.abs(a - want[i]!) <= 1e-12 * (1 + Math.abs(want[i]!)), `${scheme} row ${i}: ${a} vs ${want[i]}`),
      );
    }
  });
}

test('packedGroups lays the groups out as members and start offsets', () => {
  const { members, starts } = packedGroups([[0, 2], [1], [3, 4, 5]]);
  assert.deepEqual([...members], [0, 2, 1, 3, 4, 5]);
  assert.deepEqual([...starts], [0, 2, 3, 6]);
});

test('schemeGroups refuses what schemeAdvantages refuses', () => {
  assert.throws(() => schemeGroups('trl-group', { rewards: [1, 2, 3], promptIds: [0, 0, 0], k: 2, ranks: 1 }), /multiple of k/);
});
