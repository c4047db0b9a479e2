// Every advantage scheme against test/fixtures/golden-advantages-frameworks.json: flow_grpo's
// PerPromptStatTracker and verl's compute_grpo_outcome_advantage exec'd from their checkouts (commits
// in the fixture's `sources`), DanceGRPO's train_one_step branches transcribed (no checkout here);
// made by scripts/golden/advantages_frameworks.py with real torch and numpy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AdvantageScheme, schemeAdvantages } from '../../../src/core/grpo/schemes.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  ranks: number;
  k: number;
  rewards: number[];
  promptIds: number[];
  uids: number[];
  flowGrpo: { globalStd: number[]; promptStd: number[] };
  verl: { normByStd: number[]; noStd: number[] };
  danceGrpo: { useGroup: number[]; noGroup: number[] };
}
const golden = fixture<{ sources: Record<string, string>; cases: Case[] }>('golden-advantages-frameworks.json');

/** Same float64 arithmetic in another order; a zero-std group divides its mean's last-bit rounding by eps (≈1e-12). */
function close(actual: number[], expected: number[], what: string) {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((a, i) =>
    assert.ok(Math.abs(a - expected[i]!) <= 1e-10 * Math.max(1, Math.abs(expected[i]!)), `${what}[${i}]: ${a} vs ${expected[i]}`),
  );
}

const expected: [AdvantageScheme, (c: Case) => number[], 'promptIds' | 'uids'][] = [
  ['flow-grpo', (c) => c.flowGrpo.globalStd, 'promptIds'],
  ['flow-grpo-prompt-std', (c) => c.flowGrpo.promptStd, 'promptIds'],
  ['verl', (c) => c.verl.normByStd, 'uids'],
  ['verl-no-std', (c) => c.verl.noStd, 'uids'],
  ['dance', (c) => c.danceGrpo.useGroup, 'promptIds'],
  ['dance-nogroup', (c) => c.danceGrpo.noGroup, 'promptIds'],
];

test('the fixture names the commits it ran (flow_grpo ac4c86e, verl b178a3c) and what is only transcribed', () => {
  assert.match(golden.sources.flowGrpo!, /ac4c86e8cae021841f1fde853d340e0db67690dd .*\(run\)/);
  assert.match(golden.sources.verl!, /b178a3cd56f58b2d502255daba591e92833930a7 .*\(run\)/);
  assert.match(golden.sources.danceGrpo!, /22b85ef .*\(transcribed/);
});

for (const [scheme, want, ids] of expected) {
  test(`advantages --scheme ${scheme} = the framework's own code on ${golden.cases.length} cases`, () => {
    for (const [i, c] of golden.cases.entries()) {
      const got = schemeAdvantages(scheme, { rewards: c.rewards, promptIds: c[ids], k: c.k, ranks: c.ranks });
      close(got, want(c), `${scheme} case ${i}`);
    }
  });
}

test('the variants differ from their defaults on these cases (the fixture exercises each setting)', () => {
  const c = golden.cases[2]!;
  assert.notDeepEqual(c.flowGrpo.globalStd, c.flowGrpo.promptStd);
  assert.notDeepEqual(c.verl.normByStd, c.verl.noStd);
  assert.notDeepEqual(c.danceGrpo.useGroup, c.danceGrpo.noGroup);
});
