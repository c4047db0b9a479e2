// Each framework's advantages against test/fixtures/golden-advantages.json (torch float64
// transcriptions of TRL, DanceGRPO, flow_grpo and verl, scripts/golden/make_fixtures.py). flow_grpo's
// and verl's own code is run in golden-advantages-frameworks.test.ts; TRL's stays a transcription.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { danceGrpoAdvantages, flowGrpoAdvantages, trlAdvantages, verlAdvantages } from '../../../src/core/grpo/advantages.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  k: number;
  rewards: number[];
  promptIds: number[];
  uids: number[];
  trl: { group: number[]; batch: number[]; none: number[] };
  danceGrpo: number[];
  flowGrpo: { global: number[]; perPrompt: number[] };
  verl: number[];
}
const golden = fixture<{ cases: Case[] }>('golden-advantages.json');

/**
 * Same arithmetic, summed in another order: agree to 1e-10. A zero-std group divides the last-bit
 * rounding of its mean (≈1e-16) by eps = 1e-4, so ≈1e-12 differences are expected there.
 */
function close(actual: number[], expected: number[], what: string, rel = 1e-10) {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((a, i) =>
    assert.ok(Math.abs(a - expected[i]!) <= rel * Math.max(1, Math.abs(expected[i]!)), `${what}[${i}]: ${a} vs ${expected[i]}`),
  );
}

for (const [n, c] of golden.cases.entries()) {
  test(`advantages case ${n} (${c.rewards.length} rewards, k=${c.k}): TRL, DanceGRPO, flow_grpo, verl match torch`, () => {
    close(trlAdvantages(c.rewards, c.k, 'group'), c.trl.group, 'trl group');
    close(trlAdvantages(c.rewards, c.k, 'batch'), c.trl.batch, 'trl batch');
    close(trlAdvantages(c.rewards, c.k, 'none'), c.trl.none, 'trl none');
    close(danceGrpoAdvantages(c.rewards, c.k), c.danceGrpo, 'dance-grpo');
    close(flowGrpoAdvantages(c.rewards, c.promptIds, true), c.flowGrpo.global, 'flow_grpo global std');
    close(flowGrpoAdvantages(c.rewards, c.promptIds, false), c.flowGrpo.perPrompt, 'flow_grpo per-prompt std');
    // The transcription gave a lone uid a float64 std of 1; verl's own code (run in golden-advantages-frameworks.test.ts,
    // exactly) holds it in a float32 tensor, so 1 + 1e-6 rounds to float32: equal here to float32 precision only.
    close(verlAdvantages(c.rewards, c.uids), c.verl, 'verl', 1e-7);
  });
}
