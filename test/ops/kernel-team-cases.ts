// Products for kernel-team.test.ts, the same in the test's thread and in the rank thread: shapes on
// both sides of the size a team shares (TEAM_MIN_MADDS), rows that are no multiple of 4, several k
// blocks, a = x (rows K apart) and a = xᵀ (adjacent rows), tanh and b's column sums.
import type { SimdKernel } from '../../src/ops/fast/simd.ts';

interface ProductCase {
  m: number;
  n: number;
  K: number;
  a: Float32Array;
  b: Float32Array;
  bias: Float32Array;
}

/** Deterministic values of mixed sign and magnitude (float32 sums depend on their order). */
function values(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const x = Math.sin((i + 1) * 12.9898 + seed * 78.233) * 43758.5453;
    out[i] = (x - Math.floor(x) - 0.5) * 2 ** ((i % 5) - 2);
  }
  return out;
}

export function productCases(): ProductCase[] {
  const shapes = [
    [256, 256, 4096],
    [2049, 64, 263],
    [301, 37, 1000],
    [130, 300, 70],
    [64, 8, 16],
  ];
  return shapes.map(([m, n, K], i) => ({
    m: m!,
    n: n!,
    K: K!,
    a: values(m! * K!, 3 * i + 1),
    b: values(K! * n!, 3 * i + 2),
    bias: values(n!, 3 * i + 3),
  }));
}

/** Each case as dense's forward (a = x, with tanh) and as the weight gradient (a = xᵀ, with b's column sums). */
export function runProducts(kernel: SimdKernel, cases: ProductCase[]): Float32Array[] {
  return cases.flatMap(({ m, n, K, a, b, bias }) => {
    const forward = kernel.matmul({ data: a, rowStride: K, kStride: 1 }, b, m, n, K, bias, true);
    const sums = new Float32Array(n);
    const transposed = kernel.matmul({ data: a, rowStride: 1, kStride: m }, b, m, n, K, null, false, { bColumnSums: sums });
    return [forward.c, forward.y!, transposed.c, sums];
  });
}
