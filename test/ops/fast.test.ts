import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fastBackend } from '../../src/ops/backend.ts';
import * as cpu from '../../src/ops/cpu/index.ts';
import * as fast from '../../src/ops/fast/index.ts';
import { philox4x32 } from '../../src/core/rng/philox.ts';
import { philoxWord0 } from '../../src/ops/fast/philox.ts';
import { simdKernel, useSimd } from '../../src/ops/fast/simd.ts';
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

// The SIMD kernel's stated tolerance: |got − ref| ≤ 2⁻²² · Σ_k |a_k·b_k| per output (float32 sums
// of K terms in 4 lanes and blocks of 512: a few ulps of the terms' magnitude), over the tile's
// remainders and sums of 1 to 3000 terms. Where this runtime has no WebAssembly SIMD it says so.
test('fast: the WebAssembly SIMD kernel is within float32 rounding of the exact sums', (t) => {
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
    [64, 32, 513],
  ] as const) {
    const a = uniform(m * K, 31),
      b = uniform(n * K, 32),
      init = uniform(n, 33);
    const got = k.dotRows(a, b, m, n, K, new Float32Array(m * n), init);
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let exact = init[j]!,
          mag = Math.abs(init[j]!);
        for (let q = 0; q < K; q++) {
          exact += a[i * K + q]! * b[j * K + q]!;
          mag += Math.abs(a[i * K + q]! * b[j * K + q]!);
        }
        assert.ok(Math.abs(got[i * n + j]! - exact) <= 2 ** -22 * mag, `${m}×${n}×${K} [${i}, ${j}]: ${got[i * n + j]} vs ${exact}`);
      }
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
