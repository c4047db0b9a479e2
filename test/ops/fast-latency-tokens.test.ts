import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initControllerParams } from '../../src/core/env/controller.ts';
import { cacheLatencyTokens, latencyToken, makeTask, referenceLatencyTokens, type Task } from '../../src/core/env/task.ts';
import { latencyModule, simdLatencyTokens } from '../../src/ops/fast/latencyTokens.ts';
import { cpuBackend, fastBackend } from '../../src/ops/backend.ts';
import { fastKernelKind, useSimd } from '../../src/ops/fast/simd.ts';
import { rollout } from '../../src/train/policy.ts';

const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);

function assertReferenceBits(task: Task, ids: readonly number[], got: Float32Array[], what: string): void {
  assert.equal(got.length, ids.length);
  ids.forEach((id, k) => assert.deepEqual(bits(got[k]!), bits(referenceLatencyTokens(task, id)), `${what}, prompt ${id}`));
}

// The fast backend's latency tokens (src/ops/fast/latencyTokens.ts: the products x·B in WebAssembly
// SIMD f64x2, tanh in JS) against the readable definition, bit for bit. dModel 1, 37, 38, 39 (B's
// columns 3, 1, 2 and 3 short of a whole panel of 4), 128, 256 and the seed's 2048; counts with
// remainders of the kernel's tiles (4 prompts) and calls (32 prompts), and repeated ids.
test('fast latency tokens: the WebAssembly SIMD kernel gives the reference bits at every dModel and prompt count', (t) => {
  const simd = fastKernelKind() !== 'js' && WebAssembly.validate(latencyModule());
  t.diagnostic(simd ? `kernel: WebAssembly SIMD (${latencyModule().length} bytes)` : 'no WebAssembly SIMD here: the JS kernel runs');
  // compiled synchronously, as simd.ts's module: within the 4 KiB a page's main thread may compile so
  assert.ok(latencyModule().length <= 4096, `${latencyModule().length} bytes`);
  for (const [dModel, count] of [
    [1, 5],
    [37, 101],
    [38, 33],
    [39, 7],
    [128, 70],
    [256, 40],
    [2048, 3], // the seed's size
  ] as const) {
    const task = makeTask({ dModel, hidden: 8 }, 7, count);
    const ids = Array.from({ length: count }, (_, i) => (i * 7) % count);
    assertReferenceBits(task, ids, simdLatencyTokens(task, ids), `dModel ${dModel}`);
  }
  // The same prompt twice in one call, and a call of one prompt.
  const task = makeTask({ dModel: 40, hidden: 8 }, 9, 12);
  assertReferenceBits(task, [3, 3, 11], simdLatencyTokens(task, [3, 3, 11]), 'repeated ids');
  assertReferenceBits(task, [5], simdLatencyTokens(task, [5]), 'one prompt');
});

// The kernel keeps one task's B in its memory: tasks of the same and of different sizes in turn
// must each get their own block's products.
test('fast latency tokens: tasks in turn each get their own block', () => {
  const a = makeTask({ dModel: 64, hidden: 8 }, 1, 9),
    b = makeTask({ dModel: 64, hidden: 8 }, 2, 9),
    c = makeTask({ dModel: 130, hidden: 8 }, 3, 9);
  const ids = [0, 4, 8, 2, 6];
  for (const task of [a, b, a, c, b, c]) assertReferenceBits(task, ids, simdLatencyTokens(task, ids), `seed ${task.seed}`);
});

test('fast latency tokens: with the WebAssembly kernels turned off, the JS kernel gives the same bits', () => {
  useSimd(false);
  try {
    const task = makeTask({ dModel: 131, hidden: 8 }, 5, 20);
    const ids = Array.from({ length: 20 }, (_, i) => 19 - i);
    assertReferenceBits(task, ids, simdLatencyTokens(task, ids), 'useSimd(false)');
  } finally {
    useSimd(true);
  }
});

// What rollout does on the fast backend: cacheLatencyTokens with this kernel, then latencyToken.
test('fast latency tokens: kept by cacheLatencyTokens, latencyToken reads the reference bits', () => {
  const dModel = 160;
  const task = makeTask({ dModel, hidden: 8 }, 3, 48);
  cacheLatencyTokens(task, [5, 9, 9, 40, 5, 17, 33, 1, 2], simdLatencyTokens);
  const out = new Float32Array(dModel);
  for (const id of [5, 9, 40, 17, 33, 1, 2]) {
    const ref = referenceLatencyTokens(task, id);
    for (let p = 1; p <= 5; p++) {
      latencyToken(task, id, p, out, 0);
      assert.deepEqual(bits(out), bits(ref.subarray((p - 1) * dModel, p * dModel)), `prompt ${id}, p ${p}`);
    }
  }
});

// rollout on the fast backend passes this kernel to cacheLatencyTokens: stage 2's input (each row's
// latency token of its insertion, then the one-hot) has the bits of rollout on the reference backend.
test('fast latency tokens: rollout on the fast backend builds stage 2’s input with the reference bits', async () => {
  const dims = { dModel: 136, hidden: 8 };
  const params = initControllerParams(dims, 4);
  const ids = Array.from({ length: 24 }, (_, r) => (r * 5) % 19);
  const insertion = Uint32Array.from(ids, (_, r) => r % 5);
  const key = { seed: 2, step: 0, rowOffset: 0 };
  const fast = await rollout(fastBackend, makeTask(dims, 6, 19), params, ids, key, insertion);
  const reference = await rollout(cpuBackend, makeTask(dims, 6, 19), params, ids, key, insertion);
  assert.deepEqual(bits(fast.x2), bits(reference.x2));
});
