import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CPU_OPS } from '../../src/ops/backend.ts';
import { adam } from '../../src/ops/cpu/adam.ts';
import { uniform } from './data.ts';

// The ops a training step calls with `out` (src/train/workspace.ts reuses a rank's arrays from step
// to step): given arrays full of another step's values, each op writes every entry it owns and
// returns the given arrays, with the same values as a call that allocates.
const garbage = <A extends Float32Array | Uint32Array>(a: A): A => a.fill(7) as A;
const same = (got: ArrayLike<number>, want: ArrayLike<number>, what: string) => assert.deepEqual(Array.from(got), Array.from(want), what);

for (const [name, ops] of Object.entries(CPU_OPS)) {
  test(`${name}: ops given out arrays write into them and match a fresh call`, () => {
    const rows = 5;
    const dense = { rows, inDim: 6, outDim: 21 };
    const x = uniform(rows * 6, 1),
      w = uniform(6 * 21, 2, -0.5, 0.5),
      b = uniform(21, 3),
      dz = uniform(rows * 21, 4);
    const fresh = ops.dense(x, w, b, { ...dense, activation: 'tanh' });
    const out = { z: garbage(new Float32Array(rows * 21)), y: garbage(new Float32Array(rows * 21)) };
    assert.equal(ops.dense(x, w, b, { ...dense, activation: 'tanh' }, out), out);
    same(out.z, fresh.z, 'dense z');
    same(out.y, fresh.y, 'dense y');

    const dx = garbage(new Float32Array(rows * 6));
    assert.equal(ops.denseBackwardInput(dz, w, dense, dx), dx);
    same(dx, ops.denseBackwardInput(dz, w, dense), 'denseBackwardInput');
    const grads = { dw: garbage(new Float32Array(6 * 21)), db: garbage(new Float32Array(21)) };
    const freshGrads = ops.denseBackwardWeight(x, dz, dense);
    assert.equal(ops.denseBackwardWeight(x, dz, dense, grads), grads);
    same(grads.dw, freshGrads.dw, 'denseBackwardWeight dw');
    same(grads.db, freshGrads.db, 'denseBackwardWeight db');
    const dPre = garbage(new Float32Array(rows * 21));
    assert.equal(ops.activationBackward(fresh.z, dz, 'tanh', dPre), dPre);
    same(dPre, ops.activationBackward(fresh.z, dz, 'tanh'), 'activationBackward');

    // knob3: a masked head, with a row whose options are all masked (its outputs stay 0 / NO_OPTION).
    const head = { rows, stride: 21, offset: 5, width: 16 };
    const insertion = Uint32Array.of(0, 1, 2, 3, 4);
    const mask = garbage(new Float32Array(rows * 16));
    assert.equal(ops.knob3Mask(insertion, mask), mask);
    same(mask, ops.knob3Mask(insertion), 'knob3Mask');
    mask.fill(0, 16, 32);
    const soft = { logp: garbage(new Float32Array(rows * 16)), probs: garbage(new Float32Array(rows * 16)) };
    const freshSoft = ops.maskedSoftmax(fresh.z, mask, head);
    assert.equal(ops.maskedSoftmax(fresh.z, mask, head, soft), soft);
    same(soft.logp, freshSoft.logp, 'maskedSoftmax logp');
    same(soft.probs, freshSoft.probs, 'maskedSoftmax probs');
    const key = { seed: 3, rank: 0, step: 2, rowOffset: 8, stream: 3 };
    const sampled = {
      actions: garbage(new Uint32Array(rows)),
      logp: garbage(new Float32Array(rows)),
      probs: garbage(new Float32Array(rows * 16)),
      softLogp: garbage(new Float32Array(rows * 16)),
    };
    const freshSample = ops.categoricalSample(fresh.z, mask, head, key);
    const got = ops.categoricalSample(fresh.z, mask, head, key, sampled);
    assert.equal(got.actions, sampled.actions);
    same(got.actions, freshSample.actions, 'categoricalSample actions');
    same(got.logp, freshSample.logp, 'categoricalSample logp');
    same(got.probs, freshSample.probs, 'categoricalSample probs');

    const T = 4;
    const logp = uniform(rows * T, 5, -3, 0),
      adv = uniform(rows, 6),
      lossMask = new Float32Array(rows * T).fill(1).fill(0, 3, 6);
    const settings = { lossType: 'dapo', epsilonLow: 0.2, epsilonHigh: 0.2, beta: 0, maxCompletionLength: T } as const;
    const gradLogp = garbage(new Float32Array(rows * T));
    const loss = ops.grpoLoss(logp, logp, null, lossMask, adv, { rows, tokens: T }, settings, gradLogp);
    assert.equal(loss.gradLogp, gradLogp);
    same(gradLogp, ops.grpoLoss(logp, logp, null, lossMask, adv, { rows, tokens: T }, settings).gradLogp, 'grpoLoss gradLogp');
  });
}

test("fast: adam gives the reference's bits (with and without weight decay, clipped and not)", () => {
  const n = 1000;
  for (const weightDecay of [0, 0.01])
    for (const scale of [1, 0.37]) {
      const settings = { lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay };
      const ref = [uniform(n, 11), new Float32Array(n), new Float32Array(n)] as const;
      const got = [ref[0].slice(), ref[1].slice(), ref[2].slice()] as const;
      for (let step = 1; step <= 5; step++) {
        const g = uniform(n, 20 + step, -2, 2);
        adam(ref[0], g, ref[1], ref[2], scale, step, settings);
        CPU_OPS.fast.adam(got[0], g, got[1], got[2], scale, step, settings);
      }
      for (let k = 0; k < 3; k++) same(got[k]!, ref[k]!, `weightDecay ${weightDecay}, scale ${scale}: ${['params', 'm', 'v'][k]}`);
    }
});
