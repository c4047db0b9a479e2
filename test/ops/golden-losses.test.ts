// The CPU reference loss (src/ops/cpu/grpoLoss.ts) against TRL 1.13.0's four loss types and their
// gradients (test/fixtures/golden-losses.json: torch autograd on a transcription of
// GRPOTrainer._compute_loss, scripts/golden/make_fixtures.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LossType } from '../../src/core/grpo/loss.ts';
import { grpoLoss } from '../../src/ops/cpu/grpoLoss.ts';
import { fixture } from '../helpers/fixtures.ts';

interface Case {
  lossType: LossType;
  rows: number;
  tokens: number;
  beta: number;
  epsilonLow: number;
  epsilonHigh: number;
  maxCompletionLength: number;
  logp: number[];
  oldLogp: number[];
  refLogp: number[];
  mask: number[];
  advantages: number[];
  loss: number;
  gradLogp: number[];
}
const golden = fixture<{ cases: Case[] }>('golden-losses.json');

test('the fixture has all four TRL loss types', () => {
  assert.deepEqual([...new Set(golden.cases.map((c) => c.lossType))].sort(), ['bnpo', 'dapo', 'dr_grpo', 'grpo']);
});

for (const [n, c] of golden.cases.entries()) {
  test(`${c.lossType} #${n} (β=${c.beta}, ε=${c.epsilonLow}/${c.epsilonHigh}): loss and d/dlogp match torch autograd`, () => {
    const f = (a: number[]) => Float32Array.from(a);
    const { loss, gradLogp } = grpoLoss(
      f(c.logp),
      f(c.oldLogp),
      c.beta ? f(c.refLogp) : null,
      f(c.mask),
      f(c.advantages),
      { rows: c.rows, tokens: c.tokens },
      {
        lossType: c.lossType,
        beta: c.beta,
        epsilonLow: c.epsilonLow,
        epsilonHigh: c.epsilonHigh,
        maxCompletionLength: c.maxCompletionLength,
      },
    );
    // Inputs are float32-exact; the reference keeps gradients in float32, so 1e-6 relative.
    assert.ok(Math.abs(loss - c.loss) <= 1e-9 * Math.max(1, Math.abs(c.loss)), `loss ${loss} vs ${c.loss}`);
    c.gradLogp.forEach((g, i) =>
      assert.ok(Math.abs(gradLogp[i]! - g) <= 1e-6 * Math.max(1e-3, Math.abs(g)), `grad[${i}] ${gradLogp[i]} vs ${g}`),
    );
  });
}
