// The one op suite both backends run (test/ops/cpu.test.ts, test/ops/webgpu.test.ts): every op
// against the CPU reference, on shapes that are not multiples of the workgroup size, a single
// row and 2048-wide inputs; gradients against finite differences of the backend's own forward;
// sampling by chi-square and exact agreement with the CPU twin; losses on hand-computed cases.
//
// Tolerances (float32 on the GPU vs float64 accumulation on the CPU):
//   dense/backward: |Δ| ≤ 1e-5·√K + 1e-4·|ref| for sums over K terms;
//   softmax, sampling log-probs, losses, advantages, Adam: |Δ| ≤ 1e-5 + 1e-4·|ref|;
//   losses over one 10^6-token row (rows split across the workgroup, two-level sums): |Δ| ≤ 1e-6·|ref| (pairwise:
//   plus 2^-23·|row sums|, the float32 rounding of each sequence log-probability);
//   finite differences (central, h = 1e-2 on float32): |Δ| ≤ 2e-3·max|grad| + 1e-4;
//   samples, one-hots, masks: exact.
import assert from 'node:assert/strict';
import type { OpsBackend } from '../../src/ops/backend.ts';
import * as cpu from '../../src/ops/cpu/index.ts';
import type { Activation } from '../../src/ops/codes.ts';
import { LOSS_TYPES, TRL_DEFAULTS, type GrpoLossSettings } from '../../src/core/grpo/loss.ts';
import { ADAM_DEFAULTS } from '../../src/ops/cpu/adam.ts';
import { KNOB3_WIDTH, configReward } from '../../src/core/env/controller.ts';
import { assertClose, maxAbs, randomMask, uniform } from './data.ts';

export interface OpCase {
  name: string;
  run(b: OpsBackend): Promise<void>;
}

const ACTS: Activation[] = ['identity', 'tanh', 'relu', 'gelu'];
const TIGHT = { atol: 1e-5, rtol: 1e-4 };
const sumTol = (k: number) => ({ atol: 1e-5 * Math.sqrt(k), rtol: 1e-4 });

/** Central finite differences of f at x for the listed indices. */
async function numericGrad(f: (x: Float32Array) => Promise<number>, x: Float32Array, indices: number[], h = 1e-2): Promise<number[]> {
  const out: number[] = [];
  for (const i of indices) {
    const plus = x.slice();
    plus[i]! += h;
    const minus = x.slice();
    minus[i]! -= h;
    out.push(((await f(plus)) - (await f(minus))) / (2 * h));
  }
  return out;
}

function assertGradMatches(analytic: ArrayLike<number>, numeric: number[], indices: number[], what: string): void {
  const picked = indices.map((i) => analytic[i]!);
  const scale = Math.max(maxAbs(picked), maxAbs(numeric));
  assertClose(picked, numeric, 2e-3 * scale + 1e-4, 0, `${what} vs finite differences`);
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

export const opsCases: OpCase[] = [];
const add = (name: string, run: (b: OpsBackend) => Promise<void>) => opsCases.push({ name, run });

// ---- dense layers
for (const [rows, inDim, outDim] of [
  [1, 3, 2],
  [7, 5, 3],
  [67, 33, 9],
  [3, 2048, 5],
] as const) {
  add(`dense ${rows}×${inDim}→${outDim}, every activation, matches the CPU reference`, async (b) => {
    const x = uniform(rows * inDim, 1),
      w = uniform(inDim * outDim, 2, -1 / Math.sqrt(inDim), 1 / Math.sqrt(inDim)),
      bias = uniform(outDim, 3);
    for (const activation of ACTS) {
      const s = { rows, inDim, outDim, activation };
      const got = await b.dense(x, w, bias, s),
        ref = cpu.dense(x, w, bias, s);
      const t = sumTol(inDim);
      assertClose(got.z, ref.z, t.atol, t.rtol, `${activation} z`);
      assertClose(got.y, ref.y, t.atol, t.rtol, `${activation} y`);
    }
  });
}

add('activationBackward on 130 values (not a multiple of the workgroup) matches the CPU and finite differences', async (b) => {
  const z = uniform(130, 4, -3, 3),
    dy = uniform(130, 5);
  for (const activation of ACTS) {
    const got = await b.activationBackward(z, dy, activation);
    assertClose(got, cpu.activationBackward(z, dy, activation), TIGHT.atol, TIGHT.rtol, activation);
    // d/dz of Σ dy·act(z), through the backend's own dense forward (identity weights).
    const f = async (zz: Float32Array) =>
      dot(dy, (await b.dense(zz, new Float32Array([1]), new Float32Array([0]), { rows: 130, inDim: 1, outDim: 1, activation })).y);
    const idx = [0, 17, 64, 129].filter((i) => activation !== 'relu' || Math.abs(z[i]!) > 0.05);
    assertGradMatches(got, await numericGrad(f, z, idx), idx, `${activation}'`);
  }
});

for (const [rows, inDim, outDim] of [
  [1, 4, 3],
  [9, 7, 5],
  [4, 2048, 3],
] as const) {
  add(`dense backward ${rows}×${inDim}→${outDim}: dx, dW, db match the CPU and finite differences`, async (b) => {
    const x = uniform(rows * inDim, 6),
      w = uniform(inDim * outDim, 7, -0.5, 0.5),
      bias = uniform(outDim, 8),
      dy = uniform(rows * outDim, 9);
    const s = { rows, inDim, outDim };
    const dx = await b.denseBackwardInput(dy, w, s);
    const { dw, db } = await b.denseBackwardWeight(x, dy, s);
    const t = sumTol(Math.max(inDim, outDim, rows));
    assertClose(dx, cpu.denseBackwardInput(dy, w, s), t.atol, t.rtol, 'dx');
    const ref = cpu.denseBackwardWeight(x, dy, s);
    assertClose(dw, ref.dw, t.atol, t.rtol, 'dw');
    assertClose(db, ref.db, t.atol, t.rtol, 'db');
    // L = Σ dy ⊙ (xW + b): its gradients are exactly dx, dW, db.
    const loss = async (xx: Float32Array, ww: Float32Array, bb: Float32Array) =>
      dot(dy, (await b.dense(xx, ww, bb, { ...s, activation: 'identity' })).z);
    const ix = [0, rows * inDim - 1];
    assertGradMatches(dx, await numericGrad((v) => loss(v, w, bias), x, ix), ix, 'dx');
    const iw = [0, inDim * outDim - 1, Math.floor(inDim / 2) * outDim];
    assertGradMatches(dw, await numericGrad((v) => loss(x, v, bias), w, iw), iw, 'dW');
    const ib = [0, outDim - 1];
    assertGradMatches(db, await numericGrad((v) => loss(x, w, v), bias, ib), ib, 'db');
  });
}

// ---- masked softmax, sampling, log-prob gradient
for (const [rows, stride, offset, width] of [
  [1, 3, 0, 3],
  [70, 21, 5, 16],
  [2, 2048, 0, 2048],
] as const) {
  add(`maskedSoftmax ${rows} rows, head ${offset}…${offset + width} of ${stride} matches the CPU; masked options get 0`, async (b) => {
    const logits = uniform(rows * stride, 10, -4, 4),
      mask = randomMask(rows, width, 11);
    const h = { rows, stride, offset, width };
    const got = await b.maskedSoftmax(logits, mask, h),
      ref = cpu.maskedSoftmax(logits, mask, h);
    assertClose(got.logp, ref.logp, TIGHT.atol, TIGHT.rtol, 'logp');
    assertClose(got.probs, ref.probs, TIGHT.atol, TIGHT.rtol, 'probs');
    for (let r = 0; r < rows; r++) {
      let s = 0;
      for (let j = 0; j < width; j++) {
        s += got.probs[r * width + j]!;
        if (mask[r * width + j] === 0) assert.equal(got.probs[r * width + j], 0);
      }
      assert.ok(Math.abs(s - 1) < 1e-4, `row ${r} sums to ${s}`);
    }
  });
}

add('maskedSoftmax without a mask equals the hand-computed softmax of [0, ln 2, ln 3]', async (b) => {
  const got = await b.maskedSoftmax(new Float32Array([0, Math.log(2), Math.log(3)]), null, { rows: 1, stride: 3, offset: 0, width: 3 });
  assertClose(got.probs, [1 / 6, 2 / 6, 3 / 6], 1e-6, 0, 'probs');
  assertClose(got.logp, [Math.log(1 / 6), Math.log(2 / 6), Math.log(3 / 6)], 1e-6, 0, 'logp');
});

add('categoricalSample agrees exactly with the CPU twin (same Philox key → same actions) on 300 rows', async (b) => {
  const rows = 300,
    width = 16;
  const logits = uniform(rows * 21, 12, -2, 2),
    mask = randomMask(rows, width, 13, 0.4);
  const h = { rows, stride: 21, offset: 5, width };
  for (const key of [
    { seed: 1, rank: 0, step: 0, rowOffset: 0, stream: 0 },
    { seed: 2 ** 40 + 3, rank: 3, step: 17, rowOffset: 1000, stream: 2 },
  ]) {
    const got = await b.categoricalSample(logits, mask, h, key),
      ref = cpu.categoricalSample(logits, mask, h, key);
    assert.deepEqual(Array.from(got.actions), Array.from(ref.actions));
    assertClose(got.logp, ref.logp, TIGHT.atol, TIGHT.rtol, 'logp of the action');
    for (let r = 0; r < rows; r++) assert.equal(mask[r * width + got.actions[r]!], 1, `row ${r} sampled a masked option`);
  }
});

add('categoricalSample passes a chi-square goodness-of-fit test (4000 draws, 4 valid options, p > 0.001)', async (b) => {
  const rows = 4000,
    width = 5,
    base = [0.5, -1, 0, 1.5, 0.2],
    mask1 = [1, 1, 0, 1, 1];
  const logits = new Float32Array(rows * width),
    mask = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++)
    for (let j = 0; j < width; j++) {
      logits[r * width + j] = base[j]!;
      mask[r * width + j] = mask1[j]!;
    }
  const h = { rows, stride: width, offset: 0, width };
  const got = await b.categoricalSample(logits, mask, h, { seed: 99, rank: 0, step: 5, rowOffset: 0, stream: 1 });
  const counts = new Array(width).fill(0);
  for (const a of got.actions) counts[a]++;
  assert.equal(counts[2], 0, 'the masked option was drawn');
  const z = [0, 1, 3, 4].reduce((s, j) => s + Math.exp(base[j]!), 0);
  let chi2 = 0;
  for (const j of [0, 1, 3, 4]) {
    const expected = (rows * Math.exp(base[j]!)) / z;
    chi2 += (counts[j] - expected) ** 2 / expected;
  }
  assert.ok(chi2 < 16.27, `chi-square ${chi2.toFixed(2)} ≥ 16.27 (df 3, p = 0.001); counts ${counts}`);
});

add('logProbBackward matches the CPU and finite differences of log π(action)', async (b) => {
  const rows = 9,
    stride = 21,
    offset = 5,
    width = 16;
  const logits = uniform(rows * stride, 14, -2, 2),
    mask = randomMask(rows, width, 15, 0.5);
  const h = { rows, stride, offset, width };
  const s = cpu.categoricalSample(logits, mask, h, { seed: 5, rank: 0, step: 0, rowOffset: 0, stream: 0 });
  const up = uniform(rows * 4, 16);
  const g = { stride: 4, column: 3 };
  const got = await b.logProbBackward(s.probs, s.actions, mask, up, h, g);
  assertClose(got, cpu.logProbBackward(s.probs, s.actions, mask, up, h, g), TIGHT.atol, TIGHT.rtol, 'dlogits');
  // f(logits) = Σ_r up[r] · log π(action_r) through the backend's softmax.
  const f = async (l: Float32Array) => {
    const sm = await b.maskedSoftmax(l, mask, h);
    let v = 0;
    for (let r = 0; r < rows; r++) v += up[r * 4 + 3]! * sm.logp[r * width + s.actions[r]!]!;
    return v;
  };
  const idx = [offset + s.actions[0]!, stride + offset + 2, 4 * stride + offset + s.actions[4]!].filter(
    (i) => mask[Math.floor(i / stride) * width + (i % stride) - offset] === 1,
  );
  assertGradMatches(got, await numericGrad(f, logits, idx, 1e-2), idx, 'dlogits');
});

// ---- GRPO losses
const lossSettings = (over: Partial<GrpoLossSettings>): GrpoLossSettings => ({ ...TRL_DEFAULTS, ...over });

add('grpoLoss on hand-computed cases: ratio 1 gives −mean advantage; clipping cuts the gradient; KL is 0 at ref = logp', async (b) => {
  const shape = { rows: 2, tokens: 2 };
  const logp = new Float32Array([-1, -2, -0.5, -1]),
    mask = new Float32Array([1, 1, 1, 0]);
  // On-policy (old = logp): per-token loss −A; dapo averages over the 3 active tokens.
  let r = await b.grpoLoss(logp, logp, null, mask, new Float32Array([1, -2]), shape, lossSettings({}));
  assert.ok(Math.abs(r.loss - -(1 + 1 - 2) / 3) < 1e-6, `dapo loss ${r.loss}`);
  assertClose(r.gradLogp, [-1 / 3, -1 / 3, 2 / 3, 0], 1e-6, 0, 'dapo grad');
  // grpo: mean over each row's tokens, then over rows: (−1 + 2)/2 = 0.5.
  r = await b.grpoLoss(logp, logp, null, mask, new Float32Array([1, -2]), shape, lossSettings({ lossType: 'grpo' }));
  assert.ok(Math.abs(r.loss - 0.5) < 1e-6, `grpo loss ${r.loss}`);
  // dr_grpo: sum / (B · maxCompletionLength) = 0 / (2·4)... with A = [1, 1]: −3/8.
  r = await b.grpoLoss(
    logp,
    logp,
    null,
    mask,
    new Float32Array([1, 1]),
    shape,
    lossSettings({ lossType: 'dr_grpo', maxCompletionLength: 4 }),
  );
  assert.ok(Math.abs(r.loss + 3 / 8) < 1e-6, `dr_grpo loss ${r.loss}`);
  // ratio e^0.5 ≈ 1.65 > 1.2 with A > 0: clipped branch, loss −1.2·A, gradient 0.
  const old = new Float32Array([-1.5, -2, -0.5, -1]);
  r = await b.grpoLoss(
    logp,
    old,
    null,
    new Float32Array([1, 0, 0, 0]),
    new Float32Array([2, 0]),
    shape,
    lossSettings({ lossType: 'bnpo' }),
  );
  assert.ok(Math.abs(r.loss + 2.4) < 1e-5, `clipped loss ${r.loss}`);
  assert.equal(r.gradLogp[0], 0);
  // Same ratio with A < 0: the unclipped term is the min, gradient −ρ·A.
  r = await b.grpoLoss(
    logp,
    old,
    null,
    new Float32Array([1, 0, 0, 0]),
    new Float32Array([-2, 0]),
    shape,
    lossSettings({ lossType: 'bnpo' }),
  );
  assert.ok(Math.abs(r.gradLogp[0]! - 2 * Math.exp(0.5)) < 1e-5, `unclipped grad ${r.gradLogp[0]}`);
  // KL estimator e^(ref−logp) − (ref−logp) − 1 with ref − logp = 1: e − 2, gradient β(1 − e).
  r = await b.grpoLoss(
    logp,
    logp,
    new Float32Array([0, -2, -0.5, -1]),
    new Float32Array([1, 0, 0, 0]),
    new Float32Array([0, 0]),
    shape,
    lossSettings({ beta: 0.5, lossType: 'bnpo' }),
  );
  assert.ok(Math.abs(r.loss - 0.5 * (Math.E - 2)) < 1e-5, `kl loss ${r.loss}`);
  assert.ok(Math.abs(r.gradLogp[0]! - 0.5 * (1 - Math.E)) < 1e-5, `kl grad ${r.gradLogp[0]}`);
});

for (const lossType of LOSS_TYPES) {
  add(`grpoLoss ${lossType} (ε 0.2/0.28, β 0.04) on 37×6 tokens matches the CPU and finite differences`, async (b) => {
    const rows = 37,
      tokens = 6,
      shape = { rows, tokens };
    const logp = uniform(rows * tokens, 20, -3, -0.1),
      old = logp.map((v, i) => v + 0.4 * uniform(rows * tokens, 21)[i]!);
    const ref = logp.map((v, i) => v + 0.3 * uniform(rows * tokens, 22)[i]!),
      mask = randomMask(rows, tokens, 23, 0.8);
    const adv = uniform(rows, 24, -2, 2);
    const s = lossSettings({ lossType, epsilonLow: 0.2, epsilonHigh: 0.28, beta: 0.04, maxCompletionLength: 8 });
    const got = await b.grpoLoss(logp, old, ref, mask, adv, shape, s),
      want = cpu.grpoLoss(logp, old, ref, mask, adv, shape, s);
    assertClose([got.loss], [want.loss], TIGHT.atol, TIGHT.rtol, 'loss');
    assertClose(got.gradLogp, want.gradLogp, TIGHT.atol, TIGHT.rtol, 'gradLogp');
    // Tokens whose ratio sits away from the clip edges (the loss has kinks there).
    const idx = [0, 7, 50, 101, 200].filter(
      (i) => mask[i] === 1 && [0.8, 1.28].every((edge) => Math.abs(Math.exp(logp[i]! - old[i]!) - edge) > 0.03),
    );
    const f = async (l: Float32Array) => (await b.grpoLoss(l, old, ref, mask, adv, shape, s)).loss;
    assertGradMatches(got.gradLogp, await numericGrad(f, logp, idx, 1e-2), idx, 'gradLogp');
  });
}

add('pairwiseLoss on the seed-003 example: equal log-probs give ln 2 over the 10 ordered pairs', async (b) => {
  const rewards = new Float32Array([0.5, 0.8, 0.3, 0.9, 0.6]);
  const logp = new Float32Array(5 * 4).fill(-1),
    mask = new Float32Array(20).fill(1);
  const r = await b.pairwiseLoss(logp, mask, rewards, { rows: 5, tokens: 4, groupSize: 5 });
  assert.equal(r.pairs, 10);
  assert.ok(Math.abs(r.loss - Math.LN2) < 1e-6, `loss ${r.loss}`);
  // Configuration 3 (reward 0.9) wins all 4 pairs: its gradient is −4·½/10 per token; the worst (0.3) +0.2.
  assert.ok(Math.abs(r.gradLogp[3 * 4]! + 0.2) < 1e-6 && Math.abs(r.gradLogp[2 * 4]! - 0.2) < 1e-6, `grads ${r.gradLogp}`);
});

add('pairwiseLoss on 4 groups of 5 with ties matches the CPU and finite differences', async (b) => {
  const rows = 20,
    tokens = 4,
    shape = { rows, tokens, groupSize: 5 };
  const logp = uniform(rows * tokens, 30, -2, -0.1),
    mask = randomMask(rows, tokens, 31, 0.8);
  const rewards = uniform(rows, 32, 0, 1).map((v) => Math.round(v * 4) / 4);
  const got = await b.pairwiseLoss(logp, mask, rewards, shape),
    want = cpu.pairwiseLoss(logp, mask, rewards, shape);
  assert.equal(got.pairs, want.pairs);
  assertClose([got.loss], [want.loss], TIGHT.atol, TIGHT.rtol, 'loss');
  assertClose(got.gradLogp, want.gradLogp, TIGHT.atol, TIGHT.rtol, 'gradLogp');
  const idx = [0, 13, 41, 78].filter((i) => mask[i] === 1);
  assertGradMatches(
    got.gradLogp,
    await numericGrad(async (l) => (await b.pairwiseLoss(l, mask, rewards, shape)).loss, logp, idx),
    idx,
    'gradLogp',
  );
});

add('groupAdvantage: hand case and 67 groups of 8 (group, batch, none) match the CPU', async (b) => {
  const hand = await b.groupAdvantage(new Float32Array([1, 2, 3, 5, 5, 5]), 3, 'group');
  // Group 1: mean 2, unbiased std 1 → (−1, 0, 1)/(1 + 1e-4); group 2 is tied → 0.
  assertClose(hand.advantages, [-1 / 1.0001, 0, 1 / 1.0001, 0, 0, 0], 1e-6, 0, 'advantages');
  assert.ok(Math.abs(hand.meanReward - 3.5) < 1e-6);
  const rewards = uniform(67 * 8, 40, 0, 1);
  for (const scale of ['group', 'batch', 'none'] as const) {
    const got = await b.groupAdvantage(rewards, 8, scale),
      want = cpu.groupAdvantage(rewards, 8, scale);
    assertClose(got.advantages, want.advantages, 1e-4, 1e-4, scale);
    assertClose([got.meanReward], [want.meanReward], 1e-6, 1e-5, 'mean reward');
  }
});

// ---- optimizer
add('gradNorm: [3, 4] has norm 5 and clip factor 1/5 at maxNorm 1; 1000 values match the CPU', async (b) => {
  const hand = await b.gradNorm(new Float32Array([3, 4]), 1);
  assert.ok(Math.abs(hand.norm - 5) < 1e-6 && Math.abs(hand.scale - 1 / (5 + 1e-6)) < 1e-6, JSON.stringify(hand));
  assert.equal((await b.gradNorm(new Float32Array([3, 4]), 0)).scale, 1);
  const g = uniform(1000, 41);
  const got = await b.gradNorm(g, 2),
    want = cpu.gradNorm(g, 2);
  assertClose([got.norm, got.scale], [want.norm, want.scale], 1e-5, 1e-5, 'norm, scale');
});

add('adam: the first step moves each parameter by lr against its gradient sign; 3 AdamW steps on 300 values match the CPU', async (b) => {
  const p = new Float32Array([1, -1, 0.5]),
    m = new Float32Array(3),
    v = new Float32Array(3);
  await b.adam(p, new Float32Array([0.3, -2, 0]), m, v, 1, 1, { ...ADAM_DEFAULTS, lr: 0.1 });
  assertClose(p, [0.9, -0.9, 0.5], 1e-5, 0, 'params after step 1');
  const n = 300,
    s = { ...ADAM_DEFAULTS, lr: 0.01, weightDecay: 0.1 };
  const pg = uniform(n, 42),
    mg = new Float32Array(n),
    vg = new Float32Array(n);
  const pc = pg.slice(),
    mc = mg.slice(),
    vc = vg.slice();
  for (let step = 1; step <= 3; step++) {
    const grads = uniform(n, 43 + step);
    await b.adam(pg, grads, mg, vg, 0.5, step, s);
    cpu.adam(pc, grads, mc, vc, 0.5, step, s);
  }
  assertClose(pg, pc, 1e-5, 1e-4, 'params');
  assertClose(mg, mc, 1e-6, 1e-4, 'm');
  assertClose(vg, vc, 1e-7, 1e-4, 'v');
});

// ---- reductions
for (const [rows, cols] of [
  [1, 1],
  [5, 130],
  [3, 2048],
] as const) {
  add(`reduceRows sum, mean, max over ${rows}×${cols} match the CPU`, async (b) => {
    const x = uniform(rows * cols, 50, -5, 5);
    for (const op of ['sum', 'mean', 'max'] as const) {
      const t = op === 'max' ? { atol: 0, rtol: 0 } : sumTol(cols);
      assertClose(await b.reduceRows(x, rows, cols, op), cpu.reduceRows(x, rows, cols, op), t.atol, t.rtol, op);
    }
  });
}

// ---- controller helpers
add('oneHot, knob3Mask (p = 1 → 11…15, p = 3 → 9…13) and controllerReward match the CPU exactly or within 1e-5', async (b) => {
  const actions = new Uint32Array([0, 4, 2, 1, 3, 0, 2]);
  const into = uniform(7 * 10, 60);
  const h = { rows: 7, stride: 10, offset: 3, width: 5 };
  assert.deepEqual(Array.from(await b.oneHot(actions, h, into.slice())), Array.from(cpu.oneHot(actions, h, into.slice())));
  const mask = await b.knob3Mask(actions);
  assert.deepEqual(Array.from(mask), Array.from(cpu.knob3Mask(actions)));
  const valid = (row: number) => Array.from(mask.slice(row * KNOB3_WIDTH, (row + 1) * KNOB3_WIDTH)).flatMap((v, n) => (v ? [n] : []));
  assert.deepEqual(valid(0), [11, 12, 13, 14, 15]);
  assert.deepEqual(valid(2), [9, 10, 11, 12, 13]);
  const rows = 10;
  const tier = new Uint32Array([0, 1, 2, 1, 0, 2, 1, 0, 1, 2]),
    ins = new Uint32Array([0, 1, 0, 2, 1, 4, 3, 2, 1, 0]);
  const topK = new Uint32Array([0, 2, 4, 1, 3, 0, 1, 2, 3, 4]),
    knob3 = new Uint32Array([11, 12, 15, 12, 11, 7, 10, 9, 12, 14]);
  const difficulty = new Float32Array([0.3, 0.8]),
    budget = new Float32Array([30, 45]);
  const got = await b.controllerReward(tier, ins, topK, knob3, difficulty, budget, 5);
  assertClose(got, cpu.controllerReward(tier, ins, topK, knob3, difficulty, budget, 5), 1e-5, 1e-5, 'rewards');
  assert.equal(got.length, rows);
  const c0 = configReward({ tier: 0, insertion: 0, topK: 0, knob3: 11 }, 0.3, 30);
  assert.ok(Math.abs(got[0]! - c0.reward) < 1e-5, `reward of (low, 1, 4, 12 blocks) ${got[0]} vs ${c0.reward}`);
});

add("selectCandidates copies each row's chosen candidate into its columns, leaving the others alone", async (b) => {
  const s = { rows: 3, choices: 5, width: 4, stride: 9, offset: 2 };
  const candidates = Float32Array.from({ length: s.rows * s.choices * s.width }, (_, i) => i);
  const index = new Uint32Array([4, 0, 2]);
  const into = uniform(s.rows * s.stride, 61);
  const got = await b.selectCandidates(candidates, index, s, into.slice());
  assert.deepEqual(Array.from(got), Array.from(cpu.selectCandidates(candidates, index, s, into.slice())));
  // Row 0 took candidate 4 (values 16…19); the columns outside offset…offset+width kept their values.
  assert.deepEqual(Array.from(got.subarray(2, 6)), [16, 17, 18, 19]);
  assert.equal(got[0], into[0]);
});

add('entropySum: a uniform head over w options sums to rows·log w; masked (zero) options add nothing', async (b) => {
  const rows = 300,
    w = 5;
  const uniformProbs = new Float32Array(rows * w).fill(1 / w);
  const want = rows * Math.log(w);
  const got = await b.entropySum(uniformProbs);
  assert.ok(Math.abs(got - want) <= 1e-5 * want, `uniform: ${got} vs ${want}`);
  // Rows of 8 probabilities with every third zeroed (a masked option), then renormalised.
  const probs = uniform(rows * 8, 62, 0.01, 1);
  for (let i = 0; i < probs.length; i += 3) probs[i] = 0;
  for (let r = 0; r < rows; r++) {
    const row = probs.subarray(r * 8, (r + 1) * 8);
    const sum = row.reduce((a, v) => a + v, 0);
    for (let j = 0; j < 8; j++) row[j]! /= sum;
  }
  assertClose([await b.entropySum(probs)], [cpu.entropySum(probs)], 1e-4, 1e-5, 'masked');
});

// Row shapes that stress how the kernels split rows across a workgroup (teams of up to WG lanes,
// several short rows per step with a partial last step, several blocks per lane, partial last group).
const SPLIT_SHAPES = [
  { rows: 300, tokens: 3, groupSize: 7 },
  { rows: 5, tokens: 129, groupSize: 3 },
  { rows: 3, tokens: 16_389, groupSize: 2 },
];
add('grpoLoss and pairwiseLoss match the CPU on short-row, odd-width and multi-block shapes', async (b) => {
  for (const [n, shape] of SPLIT_SHAPES.entries()) {
    const size = shape.rows * shape.tokens;
    const logp = uniform(size, 60 + n, -3, -0.1),
      shift = uniform(size, 70 + n),
      old = logp.map((v, i) => v + 0.4 * shift[i]!),
      mask = randomMask(shape.rows, shape.tokens, 80 + n, 0.8);
    const adv = uniform(shape.rows, 90 + n, -2, 2);
    for (const lossType of ['grpo', 'bnpo'] as const) {
      const s = lossSettings({ lossType, epsilonLow: 0.2, epsilonHigh: 0.28, beta: 0, maxCompletionLength: shape.tokens });
      const got = await b.grpoLoss(logp, old, null, mask, adv, shape, s),
        want = cpu.grpoLoss(logp, old, null, mask, adv, shape, s);
      const what = `${lossType} ${shape.rows}×${shape.tokens}`;
      assertClose([got.loss], [want.loss], TIGHT.atol, TIGHT.rtol, `${what} loss`);
      assertClose(got.gradLogp, want.gradLogp, TIGHT.atol, TIGHT.rtol, `${what} gradLogp`);
    }
    const rewards = uniform(shape.rows, 100 + n, 0, 1).map((v) => Math.round(v * 4) / 4);
    // Short rows keep the pairwise sigmoids unsaturated; long rows are scaled down to stay so.
    const scaled = logp.map((v) => v / Math.sqrt(shape.tokens));
    const got = await b.pairwiseLoss(scaled, mask, rewards, shape),
      want = cpu.pairwiseLoss(scaled, mask, rewards, shape);
    const what = `pairwise ${shape.rows}×${shape.tokens} k=${shape.groupSize}`;
    assert.equal(got.pairs, want.pairs, `${what} pairs`);
    assertClose([got.loss], [want.loss], TIGHT.atol, TIGHT.rtol, `${what} loss`);
    assertClose(got.gradLogp, want.gradLogp, TIGHT.atol, TIGHT.rtol, `${what} gradLogp`);
  }
});

// ---- long rows: one 10^6-token row, where a plain float32 sum drifts in the 4th digit; the
// kernels split a row across the workgroup and sum each lane's share in two levels (blocks, then
// block sums), which keeps the loss within 1e-6 relative of the CPU reference. Under Deno
// (lavapipe) this case also guards against one invocation walking the whole row: llvmpipe stops a
// shader's loops after 65535 iterations in all, which cut the sum short (shaders/workgroupReduce.wgsl).
add('grpo and pairwise losses over a 10^6-token row agree with the CPU reference to 1e-6 relative', async (b) => {
  const { cpuBackend } = await import('../../src/ops/backend.ts');
  const T = 1_000_000;
  const logp = new Float32Array(T);
  const old = new Float32Array(T);
  const mask = new Float32Array(T).fill(1);
  let seed = 1;
  const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < T; i++) {
    logp[i] = -next() * 3;
    old[i] = logp[i]! + (next() - 0.5) * 0.4;
  }
  const settings = { lossType: 'grpo' as const, epsilonLow: 0.2, epsilonHigh: 0.2, beta: 0, maxCompletionLength: T };
  const shape = { rows: 1, tokens: T };
  const want = await cpuBackend.grpoLoss(logp, old, null, mask, new Float32Array([0.731]), shape, settings);
  const got = await b.grpoLoss(logp, old, null, mask, new Float32Array([0.731]), shape, settings);
  assert.ok(Math.abs(got.loss - want.loss) <= 1e-6 * Math.abs(want.loss), `grpo loss ${got.loss} vs ${want.loss}`);
  // Pairwise: two rows of 5·10^5 tokens, their sequence log-probabilities are the long sums.
  const pShape = { rows: 2, tokens: T / 2, groupSize: 2 };
  // Reward the row with the lower sum, so the loss is the (large) difference itself and not a saturated 0.
  const [r0, r1] = [0, 1].map((row) => logp.subarray(row * pShape.tokens, (row + 1) * pShape.tokens).reduce((a, x) => a + x, 0));
  const rewards = new Float32Array(r0! < r1! ? [1, 0] : [0, 1]);
  const pw = await cpuBackend.pairwiseLoss(logp, mask, rewards, pShape);
  const pg = await b.pairwiseLoss(logp, mask, rewards, pShape);
  // The loss is a difference of two float32 row sums of ~7.5e5 (ulp 0.06): beyond 1e-6 relative,
  // each sum may be off by its own float32 rounding, 2^-23·|sum|, but no more (a plain sum was off by ~11).
  const rounding = 2 ** -23 * (Math.abs(r0!) + Math.abs(r1!));
  assert.ok(Math.abs(pg.loss - pw.loss) <= 1e-6 * Math.abs(pw.loss) + rounding, `pairwise loss ${pg.loss} vs ${pw.loss} (± ${rounding})`);
});
