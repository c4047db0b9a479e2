// The JS inner kernel of the fast backend (simd.ts has its WebAssembly SIMD twin, used where it runs): every output is a dot product of a row of `a` with a
// row of `b`, both contiguous in memory (c = init + a·bᵀ). dense, denseBackwardInput and
// denseBackwardWeight are this kernel after at most a transpose, so all three run with unit-stride
// loads and 2 × 4 outputs held in registers (6 loads per 8 multiply-adds instead of 2 per 1; the
// 2 × 4 tile measured fastest of 2×2, 2×4, 4×4 on the 2-core x86-64 VM with V8).
//
// Each output is summed over k in ascending order in float64, starting from init[j] (or 0):
// exactly the reference's order (src/ops/cpu/dense.ts and its backward twins), so this kernel
// gives the same bits, not merely close ones.

/**
 * c[i·n + j] = init[j] + Σ_k a[i·K + k] · b[j·K + k] for i < m, j < n (init null: 0).
 * a: m × K, b: n × K, c: m × n, all row-major. A Float64Array c keeps the sums unrounded (dense
 * applies its activation to them, as the reference does).
 */
export function dotRows<C extends Float32Array | Float64Array>(
  a: Float32Array,
  b: Float32Array,
  m: number,
  n: number,
  K: number,
  c: C,
  init: Float32Array | null = null,
): C {
  let i = 0;
  for (; i + 1 < m; i += 2) {
    const a0 = i * K,
      a1 = a0 + K,
      c0 = i * n,
      c1 = c0 + n;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      const b0 = j * K,
        b1 = b0 + K,
        b2 = b1 + K,
        b3 = b2 + K;
      let s00 = init ? init[j]! : 0,
        s01 = init ? init[j + 1]! : 0,
        s02 = init ? init[j + 2]! : 0,
        s03 = init ? init[j + 3]! : 0;
      let s10 = s00,
        s11 = s01,
        s12 = s02,
        s13 = s03;
      for (let k = 0; k < K; k++) {
        const x0 = a[a0 + k]!,
          x1 = a[a1 + k]!,
          y0 = b[b0 + k]!,
          y1 = b[b1 + k]!,
          y2 = b[b2 + k]!,
          y3 = b[b3 + k]!;
        s00 += x0 * y0;
        s01 += x0 * y1;
        s02 += x0 * y2;
        s03 += x0 * y3;
        s10 += x1 * y0;
        s11 += x1 * y1;
        s12 += x1 * y2;
        s13 += x1 * y3;
      }
      c[c0 + j] = s00;
      c[c0 + j + 1] = s01;
      c[c0 + j + 2] = s02;
      c[c0 + j + 3] = s03;
      c[c1 + j] = s10;
      c[c1 + j + 1] = s11;
      c[c1 + j + 2] = s12;
      c[c1 + j + 3] = s13;
    }
    for (; j < n; j++) {
      const b0 = j * K;
      let s0 = init ? init[j]! : 0;
      let s1 = s0;
      for (let k = 0; k < K; k++) {
        const y = b[b0 + k]!;
        s0 += a[a0 + k]! * y;
        s1 += a[a1 + k]! * y;
      }
      c[c0 + j] = s0;
      c[c1 + j] = s1;
    }
  }
  for (; i < m; i++) {
    const a0 = i * K;
    for (let j = 0; j < n; j++) {
      const b0 = j * K;
      let s = init ? init[j]! : 0;
      for (let k = 0; k < K; k++) s += a[a0 + k]! * b[b0 + k]!;
      c[i * n + j] = s;
    }
  }
  return c;
}

/** The transpose of a rows × cols row-major matrix (cols × rows), into `out`. */
export function transpose(x: Float32Array, rows: number, cols: number, out: Float32Array): Float32Array {
  // 8 × 8 blocks, so both the reads and the writes stay within a few cache lines at a time.
  const B = 8;
  for (let r0 = 0; r0 < rows; r0 += B) {
    const r1 = Math.min(r0 + B, rows);
    for (let c0 = 0; c0 < cols; c0 += B) {
      const c1 = Math.min(c0 + B, cols);
      for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out[c * rows + r] = x[r * cols + c]!;
    }
  }
  return out;
}

const pool32: Float32Array[] = [];
const pool64: Float64Array[] = [];

/**
 * A reusable scratch array of at least `length` floats, by slot (transposes are temporaries: one
 * allocation per slot for the life of the thread, not one per call; the GC stays out of the step).
 * Contents are garbage; callers overwrite what they read.
 */
export function scratch(slot: number, length: number): Float32Array {
  const have = pool32[slot];
  if (have && have.length >= length) return have.subarray(0, length);
  return (pool32[slot] = new Float32Array(length));
}

/** scratch() for float64 sums. */
export function scratch64(slot: number, length: number): Float64Array {
  const have = pool64[slot];
  if (have && have.length >= length) return have.subarray(0, length);
  return (pool64[slot] = new Float64Array(length));
}
