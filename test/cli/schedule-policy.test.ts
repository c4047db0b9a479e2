// A trained controller's parameters as a schedule policy (src/cli/schedule-policy.ts): the
// per-input tables come from the controller's forward pass; checked on hand-set parameters whose
// probabilities are known in closed form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controllerLayout, makePrompts, type ControllerDims } from '../../src/core/env/controller.ts';
import { sampleActions } from '../../src/core/schedule/index.ts';
import { policyFromParams } from '../../src/cli/schedule-policy.ts';

const dims: ControllerDims = { dModel: 2, hidden: 5 };

/** Zero weights except: tier biases log(1), log(2), log(3); stage 2 reads the insertion one-hot into hidden unit p, which votes for top-K option p. */
function handSetParams(vote: number): Float32Array {
  const { tensors: t, length } = controllerLayout(dims);
  const params = new Float32Array(length);
  params.set([0, Math.log(2), Math.log(3)], t.b1h.offset);
  for (let p = 0; p < 5; p++) {
    params[t.w2.offset + (dims.dModel + p) * t.w2.cols + p] = 10; // one-hot column p → hidden p
    params[t.w2h.offset + p * t.w2h.cols + p] = vote; // hidden p → topK logit p
  }
  return params;
}

const close = (a: number[], b: number[], what: string) =>
  a.forEach((x, i) => assert.ok(Math.abs(x - b[i]!) < 1e-6, `${what}[${i}]: ${x} vs ${b[i]}`));

test('policyFromParams: stage-1 heads, stage-2 heads per insertion position, knob 3 masked', () => {
  const prompts = makePrompts(dims, 3, 1);
  const tables = policyFromParams(handSetParams(3), dims, prompts);
  assert.equal(tables.length, 3);
  const hot = Math.exp(3 * Math.tanh(10));
  for (const t of tables) {
    close(t.tier, [1 / 6, 2 / 6, 3 / 6], 'tier');
    close(t.insertion, [0.2, 0.2, 0.2, 0.2, 0.2], 'insertion');
    for (let p = 0; p < 5; p++) {
      close(
        t.topK[p]!,
        [0, 1, 2, 3, 4].map((j) => (j === p ? hot : 1) / (hot + 4)),
        `topK after block ${p + 1}`,
      );
      // Zero knob-3 logits: uniform over the five options that keep 12…16 blocks active.
      const valid = Array.from({ length: 16 }, (_, n) => (n >= 11 - p && n <= 15 - p ? 0.2 : 0));
      close(t.knob3[p]!, valid, `knob3 after block ${p + 1}`);
    }
  }
});

test('configurations drawn from a trained policy follow it (top-K chosen by the insertion position)', () => {
  const tables = policyFromParams(handSetParams(40), dims, makePrompts(dims, 4, 2));
  const drawn = sampleActions({ name: 'trained', tables }, 4, 50, 9);
  for (const a of drawn) assert.equal(a.topK, a.insertion);
  assert.ok(new Set(drawn.map((a) => a.insertion)).size === 5);
});

test('parameters of the wrong size are a one-line ConfigError', () => {
  assert.throws(
    () => policyFromParams(new Float32Array(10), dims, makePrompts(dims, 1, 0)),
    /the parameters have 10 numbers, but a controller with dModel 2, hidden 5 has \d+/,
  );
});
