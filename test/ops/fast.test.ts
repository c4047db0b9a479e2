import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fastBackend } from '../../src/ops/backend.ts';
import { ADAM_DEFAULTS } from '../../src/ops/cpu/adam.ts';
import * as cpu from '../../src/ops/cpu/index.ts';
import * as fast from '../../src/ops/fast/index.ts';
import { philox4x32 } from '../../src/core/rng/philox.ts';
import { expNonPositive } from '../../src/ops/fast/exp.ts';
import { philoxWord0 } from '../../src/ops/fast/philox.ts';
import { kernelModule, simdKernel, tanhF32, useSimd } from '../../src/ops/fast/simd.ts';
import { opsCases } from './cases.ts';
import { uniform } from './data.ts';

// The shared op suite of test/ops/cases.ts (the same cases, tolerances and finite differences
// the reference and WebGPU run) on the fast CPU backend, src/ops/fast.
for (const c of opsCases) test(`fast: ${c.name}`, () => c.run(fastBackend));

test('fast: exports exactly the reference ops', () => {
  assert.deepEqual(Object.keys(fast).sort(), Object.keys(cpu).sort());
});

// Stronger than the suite's tolerances: the JS kernel (tiles.ts, where WebAssembly SIMD is
// missing or turned off) sums in the reference's order in float64, so it gives the reference's
// bits. Shapes cover every remainder of the 2 × 4 tile (rows odd and even, columns 0…3 past a
// multiple of 4) and a 2048-long sum. The SIMD kernel (the default where it runs) sums in float32:
// the op suite above holds it to the same tolerances as WebGPU, and the test below to a tighter bound.
test('fast: with the JS kernel, dense, its backward and activationBackward give the reference bits exactly', () => {
  useSimd(false);
  for (const [rows, inDim, outDim] of [
    [1, 1, 1],
    [2, 3, 4],
    [5, 7, 6],
    [8, 33, 21],
    [9, 64, 32],
    [3, 2048, 7],
  ] as const) {
    const x = uniform(rows * inDim, 21),
      w = uniform(inDim * outDim, 22, -0.3, 0.3),
      b = uniform(outDim, 23),
      dz = uniform(rows * outDim, 24);
    const s = { rows, inDim, outDim };
    const at = `${rows}×${inDim}→${outDim}`;
    for (const activation of ['identity', 'tanh', 'relu', 'gelu'] as const) {
      const got = fast.dense(x, w, b, { ...s, activation }),
        ref = cpu.dense(x, w, b, { ...s, activation });
      assert.deepEqual(got.z, ref.z, `dense z ${at} ${activation}`);
      assert.deepEqual(got.y, ref.y, `dense y ${at} ${activation}`);
      assert.deepEqual(fast.activationBackward(ref.z, dz, activation), cpu.activationBackward(ref.z, dz, activation), `act' ${activation}`);
    }
    assert.deepEqual(fast.denseBackwardInput(dz, w, s), cpu.denseBackwardInput(dz, w, s), `dx ${at}`);
    assert.deepEqual(fast.denseBackwardWeight(x, dz, s), cpu.denseBackwardWeight(x, dz, s), `dw, db ${at}`);
  }
  useSimd(true);
});

// The SIMD kernel's stated tolerance: each output is summed over k in order in float32, so
// |got − exact| ≤ (K + 1)·2⁻²⁴ · (|bias| + Σ_k |a_k·b_k|) (the textbook bound for K float32
// additions), over the tile's remainders (m to 4, n to 8), strided reads of a (xᵀ) and sums of 1
// to 3000 terms. Where this runtime has no WebAssembly SIMD it says so.
test('fast: the WebAssembly SIMD matmul is within float32 rounding of the exact sums', (t) => {
  const k = simdKernel();
  if (!k) {
    t.diagnostic('no WebAssembly SIMD in this runtime: the fast ops run the exact JS kernel');
    return;
  }
  t.diagnostic(`kernel: ${k.kind}`);
  for (const [m, n, K] of [
    [1, 1, 1],
    [2, 3, 4],
    [5, 7, 6],
    [9, 33, 37],
    [3, 9, 3000],
    [64, 21, 513],
  ] as const)
    for (const transposed of [false, true]) {
      const a = uniform(m * K, 31),
        b = uniform(K * n, 32),
        bias = uniform(n, 33);
      // a(i, k) = a[i·K + k], or a[k·m + i] (a stored transposed, as x is for dw = xᵀ·dz)
      const at = (i: number, q: number) => (transposed ? a[q * m + i]! : a[i * K + q]!);
      const view = transposed ? { data: a, rowStride: 1, kStride: m } : { data: a, rowStride: K, kStride: 1 };
      const got: { c: Float32Array; y: Float32Array | null } = k.matmul(view, b, m, n, K, bias, true);
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let exact = bias[j]!,
            mag = Math.abs(bias[j]!);
          for (let q = 0; q < K; q++) {
            exact += at(i, q) * b[q * n + j]!;
            mag += Math.abs(at(i, q) * b[q * n + j]!);
          }
          const c: number = got.c[i * n + j]!;
          assert.ok(Math.abs(c - exact) <= (K + 1) * 2 ** -24 * mag, `${m}×${n}×${K} [${i}, ${j}]: ${c} vs ${exact}`);
          assert.equal(got.y![i * n + j], tanhF32(c), `fused tanh ${m}×${n}×${K} [${i}, ${j}]`);
        }
    }
});

// The kernel's order, bit for bit: each output starts from its bias and adds a(i, k)·b(k, j) for k
// in order, the product and the sum each rounded to float32 (Math.fround here). Shapes whose b
// spans several of the kernel's k blocks (about 256 KiB of b each: 2056 floats a row → 31 rows),
// whose rows are not a multiple of the tile's or the packing's (16 rows at a time where a is xᵀ),
// and whose columns are not a multiple of 8.
test('fast: the WebAssembly SIMD matmul sums in order in float32, bit for bit, across its k blocks', (t) => {
  const k = simdKernel();
  if (!k) {
    t.diagnostic('no WebAssembly SIMD in this runtime: the fast ops run the exact JS kernel');
    return;
  }
  const f = Math.fround;
  for (const [m, n, K] of [
    [13, 2053, 70],
    [21, 300, 700],
    [6, 8, 9000],
    [33, 5, 40],
  ] as const)
    for (const transposed of [false, true]) {
      const a = uniform(m * K, 41),
        b = uniform(K * n, 42),
        bias = uniform(n, 43);
      const at = (i: number, q: number) => (transposed ? a[q * m + i]! : a[i * K + q]!);
      const view = transposed ? { data: a, rowStride: 1, kStride: m } : { data: a, rowStride: K, kStride: 1 };
      const { c, y } = k.matmul(view, b, m, n, K, bias, true);
      const want = new Float32Array(m * n);
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let sum = bias[j]!;
          for (let q = 0; q < K; q++) sum = f(sum + f(at(i, q) * b[q * n + j]!));
          want[i * n + j] = sum;
        }
      const shape = `${m}×${n}×${K}${transposed ? ' (a = xᵀ)' : ''}`;
      assert.deepEqual(c, want, shape);
      assert.deepEqual(y, want.map(tanhF32), `tanh ${shape}`);
    }
});

// Adam's WebAssembly f64x2 loop and its JS loop give the reference's bits: an odd count (the last
// lane pair half padding), with and without weight decay, over several steps with a clip scale.
test('fast: adam gives the reference bits, in WebAssembly SIMD and in JS', () => {
  for (const simd of [true, false]) {
    useSimd(simd);
    for (const weightDecay of [0, 0.01]) {
      const n = 1001;
      const s = { ...ADAM_DEFAULTS, lr: 3e-3, weightDecay };
      const mine = [uniform(n, 61), new Float32Array(n), new Float32Array(n)] as const,
        ref = [uniform(n, 61), new Float32Array(n), new Float32Array(n)] as const;
      for (let step = 1; step <= 4; step++) {
        const grads = uniform(n, 61 + step, -2, 2);
        fast.adam(mine[0], grads, mine[1], mine[2], 0.7, step, s);
        cpu.adam(ref[0], grads, ref[1], ref[2], 0.7, step, s);
        const at = `${simd ? 'simd' : 'js'}, weight decay ${weightDecay}, step ${step}`;
        assert.deepEqual(mine[0], ref[0], `params ${at}`);
        assert.deepEqual(mine[1], ref[1], `m ${at}`);
        assert.deepEqual(mine[2], ref[2], `v ${at}`);
      }
    }
  }
  useSimd(true);
});

// The stated tolerance of the kernels' tanh (tanhF32, Eigen's rational approximation in float32):
// |tanhF32(x) − tanh(x)| ≤ 2⁻²¹·|tanh(x)| (4 float32 ulps; measured at most 3.1), odd, the clamp's
// value (1 − 1.8e-7) for ±∞, NaN for NaN; and the WebAssembly f32x4 tanhBackward gives tanhF32's bits.
test('fast: the kernels’ tanh is within 2⁻²¹·|tanh x| of Math.tanh, and the SIMD backward computes it bit for bit', () => {
  for (let i = 0; i <= 200000; i++) {
    const x = Math.fround((i / 200000 - 0.5) * 24 * ((i % 7) / 7) ** 2);
    const exact = Math.tanh(x);
    assert.ok(Math.abs(tanhF32(x) - exact) <= 2 ** -21 * Math.abs(exact), `tanh(${x}): ${tanhF32(x)} vs ${exact}`);
    assert.equal(tanhF32(-x), -tanhF32(x));
  }
  assert.ok(Math.abs(tanhF32(Infinity) - 1) <= 2 ** -21 && tanhF32(-Infinity) === -tanhF32(Infinity));
  assert.ok(Number.isNaN(tanhF32(Number.NaN)));
  const k = simdKernel();
  if (!k) return;
  const z = uniform(4099, 41, -9, 9),
    dy = uniform(4099, 42);
  z[0] = 0;
  z[1] = 1e-30;
  const dz = k.tanhBackward(z, dy);
  for (let i = 0; i < z.length; i++) {
    const t = tanhF32(z[i]!);
    assert.equal(dz[i], Math.fround(dy[i]! * Math.fround(1 - Math.fround(t * t))), `dz[${i}]`);
  }
});

// Chromium refuses synchronous WebAssembly.Module compilation of more than 4 KiB on a page's main
// thread (workers have no limit); simd.ts compiles synchronously, wherever the fast ops run.
test('fast: the kernel module stays within the 4 KiB a page’s main thread may compile synchronously', () => {
  for (const relaxed of [false, true]) assert.ok(kernelModule(relaxed).length <= 4096, `${kernelModule(relaxed).length} bytes`);
});

test('fast: logProbBackward gives the reference bits (masked and unmasked heads, into a wider row)', () => {
  const rows = 37,
    width = 16,
    stride = 21,
    offset = 5;
  const h = { rows, stride, offset, width };
  const logits = uniform(rows * stride, 51, -3, 3),
    mask = uniform(rows * width, 52).map((v) => (v > -0.3 ? 1 : 0)),
    gradLogp = uniform(rows * 4, 53);
  for (const m of [null, mask]) {
    const s = cpu.categoricalSample(logits, m, h, { seed: 7, rank: 0, step: 1, rowOffset: 0, stream: 3 });
    const g = { stride: 4, column: 3 };
    const into = uniform(rows * stride, 54);
    assert.deepEqual(
      fast.logProbBackward(s.probs, s.actions, m, gradLogp, h, g, into.slice()),
      cpu.logProbBackward(s.probs, s.actions, m, gradLogp, h, g, into.slice()),
    );
  }
});

test('fast: the allocation-free Philox gives the reference’s first word (known answers and 2000 keyed counters)', () => {
  const cases: [number[], number[]][] = [
    [
      [0, 0, 0, 0],
      [0, 0],
    ],
    [
      [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff],
      [0xffffffff, 0xffffffff],
    ],
    [
      [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
      [0xa4093822, 0x299f31d0],
    ],
  ];
  for (let i = 0; i < 2000; i++)
    cases.push([
      [i * 7919, i % 13, i % 3, i % 4],
      [0xdeadbeef ^ i, i >>> 1],
    ]);
  for (const [c, k] of cases)
    assert.equal(philoxWord0(c[0]!, c[1]!, c[2]!, c[3]!, k[0]!, k[1]!), philox4x32(c, k)[0], `counter ${c} key ${k}`);
});

// The fast softmax's exp (src/ops/fast/exp.ts): within 2⁻³⁸·eˣ of Math.exp on [−104, 0] (on a grid and at
// random points), exactly 1 at 0 and 0 below −104; so the fast softmax's float32 probabilities and
// log-probabilities are the reference's but for an occasional last-bit rounding (at most one float32 ulp
// here), and its sampler draws the reference's actions, on every head shape the controller samples.
test('fast: expNonPositive is within 2⁻³⁸·eˣ of Math.exp; the softmax within a float32 ulp of the reference, the same samples', () => {
  let worst = 0;
  for (let i = 0; i <= 400000; i++) {
    const x = i < 200000 ? (-104 * i) / 200000 : -104 * ((i * 0.6180339887) % 1);
    const exact = Math.exp(x);
    const d = Math.abs(expNonPositive(x) - exact) / exact;
    worst = Math.max(worst, d);
  }
  assert.ok(worst <= 2 ** -38, `worst relative error 2^${Math.log2(worst).toFixed(1)}`);
  assert.equal(expNonPositive(0), 1);
  assert.equal(expNonPositive(-0), 1);
  assert.equal(expNonPositive(-104.5), 0);
  assert.equal(expNonPositive(-Infinity), 0);
  assert.ok(Number.isNaN(expNonPositive(Number.NaN)));
  const ulp = (v: number) => {
    const f = Math.fround(Math.abs(v));
    return f === 0 ? 2 ** -149 : Math.fround(f * (1 + 2 ** -23)) - f;
  };
  const rows = 3000;
  for (const [stride, offset, width, masked] of [
    [8, 0, 3, false],
    [8, 3, 5, false],
    [21, 0, 5, false],
    [21, 5, 16, true],
  ] as const) {
    const logits = uniform(rows * stride, 61 + width, -6, 6);
    const mask = masked ? uniform(rows * width, 62).map((v) => (v > 0.2 ? 1 : 0)) : null;
    const h = { rows, stride, offset, width };
    const key = { seed: 11, rank: 0, step: 3, rowOffset: 500, stream: width };
    const got = fast.categoricalSample(logits, mask, h, key),
      ref = cpu.categoricalSample(logits, mask, h, key);
    assert.deepEqual(got.actions, ref.actions, `actions, head ${offset}…${offset + width}`);
    const soft = fast.maskedSoftmax(logits, mask, h),
      refSoft = cpu.maskedSoftmax(logits, mask, h);
    for (let i = 0; i < rows * width; i++) {
      assert.ok(Math.abs(got.probs[i]! - ref.probs[i]!) <= ulp(ref.probs[i]!), `probs[${i}]: ${got.probs[i]} vs ${ref.probs[i]}`);
      assert.equal(soft.probs[i], got.probs[i], `maskedSoftmax and categoricalSample probs[${i}]`);
      assert.ok(Math.abs(soft.logp[i]! - refSoft.logp[i]!) <= ulp(refSoft.logp[i]!), `logp[${i}]: ${soft.logp[i]} vs ${refSoft.logp[i]}`);
    }
    for (let r = 0; r < rows; r++) assert.ok(Math.abs(got.logp[r]! - ref.logp[r]!) <= ulp(ref.logp[r]!), `logp of row ${r}'s action`);
  }
});

// With the SIMD kernel, db is dz's column sums in float64 in row order inside the module: the
// reference's bits (dw is the kernel's float32 sums, held to the suite's tolerance).
test('fast: denseBackwardWeight’s db is the reference’s bits with the SIMD kernel too; knob3Mask is the reference’s', () => {
  for (const [rows, inDim, outDim] of [
    [1, 1, 1],
    [7, 5, 3],
    [2048, 32, 21],
    [513, 37, 32],
  ] as const) {
    const x = uniform(rows * inDim, 71),
      dz = uniform(rows * outDim, 72, -3, 3);
    const s = { rows, inDim, outDim };
    assert.deepEqual(fast.denseBackwardWeight(x, dz, s).db, cpu.denseBackwardWeight(x, dz, s).db, `db ${rows}×${inDim}→${outDim}`);
  }
  const insertion = Uint32Array.of(0, 1, 2, 3, 4, 4, 0, 0xffffffff, 7);
  assert.deepEqual(fast.knob3Mask(insertion), cpu.knob3Mask(insertion));
});
