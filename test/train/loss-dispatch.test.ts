// The one loss dispatch (src/ops/loss.ts) as the training loop (src/train/step.ts) calls it: the
// scheme advantages come as a function, computed only when the chosen loss reads them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LossKind } from '../../src/core/grpo/loss.ts';
import { cpuBackend } from '../../src/ops/backend.ts';
import { computeLoss, type LazyLossInput } from '../../src/ops/loss.ts';

const rows = 4;
const tokens = 2;
const logp = Float32Array.from({ length: rows * tokens }, (_, i) => -0.5 - 0.1 * i);
const advantages = Float32Array.of(1, -1, 0.5, -0.5);

function input(lossType: LossKind, adv: LazyLossInput<Float32Array>['advantages']): LazyLossInput<Float32Array> {
  return {
    shape: { rows, tokens },
    logp,
    oldLogp: logp,
    refLogp: null,
    mask: new Float32Array(rows * tokens).fill(1),
    advantages: adv,
    rewards: Float32Array.of(0.1, 0.9, 0.4, 0.2),
    settings: { lossType, epsilonLow: 0.2, epsilonHigh: 0.2, beta: 0, maxCompletionLength: tokens, groupSize: 2 },
  };
}

test('a GRPO loss calls the advantages function once and equals the loss over the array', async () => {
  for (const lossType of ['grpo', 'bnpo', 'dr_grpo', 'dapo'] as const) {
    let calls = 0;
    const lazy = await computeLoss(
      cpuBackend,
      input(lossType, () => {
        calls++;
        return advantages;
      }),
    );
    assert.equal(calls, 1, lossType);
    assert.deepEqual(lazy, await computeLoss(cpuBackend, input(lossType, advantages)), lossType);
  }
});

test('the pairwise loss never calls the advantages function', async () => {
  const lazy = await computeLoss(
    cpuBackend,
    input('pairwise', () => {
      throw new Error('the pairwise loss read the advantages');
    }),
  );
  assert.deepEqual(lazy, await computeLoss(cpuBackend, input('pairwise', null)));
});
