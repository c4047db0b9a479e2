// The fast backend's kernels in WebAssembly SIMD (f32x4 lanes), assembled by wasm-asm.ts:
//   - matmul: c = bias + a·b, a read through strides (so xᵀ needs no transpose), b, bias and c
//     row-major as they are (n floats a row: each copied in or out with one TypedArray.set), 4 × 8
//     outputs per tile (8 vector accumulators; each k loads 2 vectors of b and splats 4 floats of a
//     for 8 multiply-adds of 4 lanes). The last tile of a row reads and writes up to 7 columns past n,
//     i.e. the next row's first ones: the tiles of a row block run from the last down to column 0,
//     which writes those columns afterwards, and 8 floats of slack follow each matrix. Each output
//     is summed over k in ascending order, in float32, starting from its bias: the reference's
//     order (src/ops/cpu/dense.ts and its backward twins), with float32 rounding. The tile can also
//     write y = tanh(c) (dense with tanh: the activation fused, no second pass);
//   - columnSums: b's column sums in float64 (f64x2), rows in order: denseBackwardWeight's db with
//     the reference's bits, from the dz the matmul has just read;
//   - tanhBackward: dz = dy · (1 − tanh(z)²), four lanes at a time;
//   - tanh in both: tanhF32 below, a rational approximation in float32 arithmetic (Eigen's: clamp
//     to ±7.99881172, odd degree-13 numerator over even degree-6 denominator, then one division),
//     within 2⁻²¹·|tanh x| of Math.tanh (test/ops/fast.test.ts). Only add, multiply, divide,
//     min and max, each rounded to float32, so every runtime computes the same bits, and
//     tanhF32 (JS, Math.fround after every operation) computes them too.
// A multiply and an add by default (the same bits in Node, Deno and browsers); useFma(true)
// switches matmul to relaxed-SIMD f32x4.relaxed_madd where the runtime validates it (fused on
// hardware with FMA: bits that depend on the hardware and the runtime). Feature-detected:
// simdKernel() is null where WebAssembly SIMD is missing, and the callers keep tiles.ts's exact JS
// kernel and Math.tanh.
import { assemble, forLoop, I32, op, V128 } from './wasm-asm.ts';

// Eigen's float tanh: clamp, then x·P(x²)/Q(x²).
const TANH_CLAMP = 7.998811721801758;
const TANH_P = [
  4.89352455891786e-3, 6.37261928875436e-4, 1.48572235717979e-5, 5.12229709037114e-8, -8.60467152213735e-11, 2.00018790482477e-13,
  -2.76076847742355e-16,
];
const TANH_Q = [4.89352518554385e-3, 2.268434632439e-3, 1.18534705686654e-4, 1.19825839466702e-6];

/** The kernels' tanh as scalar JS: the same float32 operations in the same order, so the same bits. */
export function tanhF32(x: number): number {
  const f = Math.fround;
  const c = f(TANH_CLAMP);
  const t = Math.min(c, Math.max(-c, f(x)));
  const t2 = f(t * t);
  let p = f(TANH_P[6]!);
  for (let i = 5; i >= 0; i--) p = f(f(p * t2) + f(TANH_P[i]!));
  let q = f(TANH_Q[3]!);
  for (let i = 2; i >= 0; i--) q = f(f(q * t2) + f(TANH_Q[i]!));
  return f(f(p * t) / q);
}

/** tanh of v128 local `src`, left on the stack (scratch locals t, t2). */
function tanhOf(src: number, t: number, t2: number): number[] {
  const horner = (coefficients: number[]) => [
    ...op.f32x4Const(coefficients.at(-1)!),
    ...coefficients
      .slice(0, -1)
      .reverse()
      .flatMap((c) => [...op.get(t2), ...op.f32x4Mul, ...op.f32x4Const(c), ...op.f32x4Add]),
  ];
  return [
    ...op.get(src),
    ...op.f32x4Const(-TANH_CLAMP),
    ...op.f32x4Max,
    ...op.f32x4Const(TANH_CLAMP),
    ...op.f32x4Min,
    ...op.tee(t),
    ...op.get(t),
    ...op.f32x4Mul,
    ...op.set(t2),
    ...horner(TANH_P),
    ...op.get(t),
    ...op.f32x4Mul,
    ...horner(TANH_Q),
    ...op.f32x4Div,
  ];
}

// matmul's locals: the parameters, then scratch. acc(r, q) is output (i + r, j + 4q…j + 4q + 3).
const [A, SAM, SAK, B, C, MP, NP, K, BIAS, Y, N] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const [I, J, PB, PC, KK, ROWB, YD] = [11, 12, 13, 14, 15, 16, 17];
const pa = (r: number) => 18 + r;
const acc = (r: number, q: number) => 22 + r * 2 + q;
const [Y0, Y1, X, T, T2] = [30, 31, 32, 33, 34];

function matmulBody(relaxed: boolean): number[] {
  const madd = (y: number, a: number) =>
    relaxed
      ? [...op.get(X), ...op.get(y), ...op.get(a), ...op.f32x4RelaxedMadd, ...op.set(a)]
      : [...op.get(a), ...op.get(X), ...op.get(y), ...op.f32x4Mul, ...op.f32x4Add, ...op.set(a)];
  const kStep = [
    ...op.loop,
    ...op.get(PB),
    ...op.v128Load(),
    ...op.set(Y0),
    ...op.get(PB),
    ...op.v128Load(16),
    ...op.set(Y1),
    ...[0, 1, 2, 3].flatMap((r) => [
      ...op.get(pa(r)),
      ...op.f32Load(),
      ...op.f32x4Splat,
      ...op.set(X),
      ...madd(Y0, acc(r, 0)),
      ...madd(Y1, acc(r, 1)),
      ...op.get(pa(r)),
      ...op.get(SAK),
      ...op.i32Add,
      ...op.set(pa(r)),
    ]),
    ...op.get(PB),
    ...op.get(ROWB),
    ...op.i32Add,
    ...op.set(PB),
    ...op.get(KK),
    ...op.i32(1),
    ...op.i32Sub,
    ...op.tee(KK),
    ...op.brIf(0),
    ...op.end,
  ];
  const store = [0, 1, 2, 3].flatMap((r) => [
    ...(r > 0 ? [...op.get(PC), ...op.get(ROWB), ...op.i32Add, ...op.set(PC)] : []),
    ...[0, 1].flatMap((q) => [...op.get(PC), ...op.get(acc(r, q)), ...op.v128Store(16 * q)]),
    // y = tanh(c) beside it, when Y is given
    ...op.get(Y),
    ...op.if,
    ...[0, 1].flatMap((q) => [...op.get(PC), ...op.get(YD), ...op.i32Add, ...tanhOf(acc(r, q), T, T2), ...op.v128Store(16 * q)]),
    ...op.end,
  ]);
  const tile = [
    ...[0, 1, 2, 3].flatMap((r) =>
      [0, 1].flatMap((q) => [
        ...op.get(BIAS),
        ...op.get(J),
        ...op.i32(2),
        ...op.i32Shl,
        ...op.i32Add,
        ...op.v128Load(16 * q),
        ...op.set(acc(r, q)),
      ]),
    ),
    // pa(r) = a + (i + r)·sam, pb = b + j·4
    ...op.get(A),
    ...op.get(I),
    ...op.get(SAM),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.set(pa(0)),
    ...[1, 2, 3].flatMap((r) => [...op.get(pa(r - 1)), ...op.get(SAM), ...op.i32Add, ...op.set(pa(r))]),
    ...op.get(B),
    ...op.get(J),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.set(PB),
    ...op.get(K),
    ...op.set(KK),
    ...kStep,
    // pc = c + i·rowb + j·4
    ...op.get(C),
    ...op.get(I),
    ...op.get(ROWB),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.get(J),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.set(PC),
    ...store,
  ];
  // j from the last tile down to 0: a tile's columns past n spill into the next row's first ones,
  // which the tiles at j = 0 (this row block's, or the next block's) write afterwards.
  const tilesDown = [
    ...op.get(NP),
    ...op.set(J),
    ...op.block,
    ...op.loop,
    ...op.get(J),
    ...op.i32Eqz,
    ...op.brIf(1),
    ...op.get(J),
    ...op.i32(8),
    ...op.i32Sub,
    ...op.set(J),
    ...tile,
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
  return [
    ...op.get(N),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.set(ROWB),
    ...op.get(Y),
    ...op.get(C),
    ...op.i32Sub,
    ...op.set(YD),
    ...op.i32(0),
    ...op.set(I),
    ...forLoop(I, op.get(MP), op.i32(4), tilesDown),
  ];
}

// columnSums's locals: b, n (floats per row), K (rows), out (float64s), then scratch.
const [SB, SN, SK, SOUT] = [0, 1, 2, 3];
const [SJ, SP, SKK, SACC] = [4, 5, 6, 7];

/** out[j], out[j + 1] (f64x2) = Σ_k b[k·n + j], b[k·n + j + 1] for each column pair, k in order, in float64. */
const columnSumsBody = (): number[] => [
  ...op.i32(0),
  ...op.set(SJ),
  ...forLoop(SJ, op.get(SN), op.i32(2), [
    ...op.v128Zero,
    ...op.set(SACC),
    ...op.get(SB),
    ...op.get(SJ),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.set(SP),
    ...op.get(SK),
    ...op.set(SKK),
    ...op.loop,
    ...op.get(SACC),
    ...op.get(SP),
    ...op.v128Load64Zero(),
    ...op.f64x2PromoteLowF32x4,
    ...op.f64x2Add,
    ...op.set(SACC),
    ...op.get(SP),
    ...op.get(SN),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.set(SP),
    ...op.get(SKK),
    ...op.i32(1),
    ...op.i32Sub,
    ...op.tee(SKK),
    ...op.brIf(0),
    ...op.end,
    ...op.get(SOUT),
    ...op.get(SJ),
    ...op.i32(3),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.get(SACC),
    ...op.v128Store(),
  ]),
];

// tanhBackward's locals: z, dy, dz (byte addresses), n (bytes, a multiple of 16), then scratch.
const [BZ, BDY, BDZ, BN, BO] = [0, 1, 2, 3, 4];
const [BV, BT, BT2] = [5, 6, 7];

const tanhBackwardBody = (): number[] => [
  ...op.i32(0),
  ...op.set(BO),
  ...forLoop(BO, op.get(BN), op.i32(16), [
    ...op.get(BZ),
    ...op.get(BO),
    ...op.i32Add,
    ...op.v128Load(),
    ...op.set(BV),
    ...tanhOf(BV, BT, BT2),
    ...op.set(BV),
    ...op.get(BDZ),
    ...op.get(BO),
    ...op.i32Add,
    ...op.get(BDY),
    ...op.get(BO),
    ...op.i32Add,
    ...op.v128Load(),
    ...op.f32x4Const(1),
    ...op.get(BV),
    ...op.get(BV),
    ...op.f32x4Mul,
    ...op.f32x4Sub,
    ...op.f32x4Mul,
    ...op.v128Store(),
  ]),
];

/**
 * The module's bytes: matmul(a, sam, sak, b, c, mp, np, K, bias, y, n) sets c (mp × n, rows n
 * apart) to bias + a·b, element (i, k) of a at a + i·sam + k·sak (bytes), b K × n, and y = tanh(c)
 * where y ≠ 0 (K ≥ 1, mp a multiple of 4, np = n rounded up to 8; b, bias, c and y each followed by
 * 8 floats of slack, which the last tile's columns past n read or write); columnSums(b, n, K, out):
 * b's column sums in float64 (out: n rounded up to 2 float64s); tanhBackward(z, dy, dz, nBytes).
 */
export function kernelModule(relaxed: boolean): Uint8Array<ArrayBuffer> {
  return assemble([
    {
      name: 'matmul',
      params: new Array<number>(11).fill(I32),
      locals: [
        [11, I32],
        [13, V128],
      ],
      body: matmulBody(relaxed),
    },
    {
      name: 'columnSums',
      params: [I32, I32, I32, I32],
      locals: [
        [3, I32],
        [1, V128],
      ],
      body: columnSumsBody(),
    },
    {
      name: 'tanhBackward',
      params: [I32, I32, I32, I32],
      locals: [
        [1, I32],
        [3, V128],
      ],
      body: tanhBackwardBody(),
    },
  ]);
}

/** A matrix the kernel reads: element (i, k) at data[i·rowStride + k·kStride]. */
export interface StridedMatrix {
  data: Float32Array;
  rowStride: number;
  kStride: number;
}

/** Where matmul writes c (and y) when the caller reuses arrays (m × n each); a new array where absent. */
export interface MatmulOut {
  c?: Float32Array;
  y?: Float32Array;
  /** Also b's column sums Σ_k b[k·n + j], in float64 in order of k (the reference's db), rounded into it (n). */
  bColumnSums?: Float32Array;
}

export interface SimdKernel {
  /** 'relaxed-simd' (fused multiply-add where the hardware has it; useFma) or 'simd'. */
  kind: 'relaxed-simd' | 'simd';
  /**
   * c[i·n + j] = bias[j] + Σ_k a(i, k)·b[k·n + j] for i < m, j < n, summed over k in order in
   * float32 (bias null: 0), and with `tanh`, y = tanhF32(c) too.
   */
  matmul(
    a: StridedMatrix,
    b: Float32Array,
    m: number,
    n: number,
    K: number,
    bias: Float32Array | null,
    tanh: boolean,
    out?: MatmulOut,
  ): { c: Float32Array; y: Float32Array | null };
  /** dz[i] = dy[i]·(1 − tanhF32(z[i])²), in float32, into `out` when given. */
  tanhBackward(z: Float32Array, dy: Float32Array, out?: Float32Array): Float32Array;
}

const kernels: { fma?: SimdKernel | null; plain?: SimdKernel | null } = {};
let fma = false;

/** Fused multiply-adds (relaxed SIMD) where the runtime has them: faster, bits that depend on the hardware. */
export function useFma(on: boolean): void {
  fma = on;
}

/** This thread's kernel (compiled on first use), or null where WebAssembly SIMD is unavailable. */
export function simdKernel(): SimdKernel | null {
  const key = fma ? 'fma' : 'plain';
  if (kernels[key] === undefined) kernels[key] = build(fma ? [true, false] : [false]);
  return kernels[key];
}

function build(variants: boolean[]): SimdKernel | null {
  if (typeof WebAssembly !== 'object') return null;
  for (const relaxed of variants) {
    const bytes = kernelModule(relaxed);
    if (!WebAssembly.validate(bytes)) continue;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    const memory = new Memory(instance.exports.mem as WebAssembly.Memory);
    const matmul = instance.exports.matmul as (...args: number[]) => void;
    const columnSums = instance.exports.columnSums as (...args: number[]) => void;
    const tanhBackward = instance.exports.tanhBackward as (...args: number[]) => void;
    return {
      kind: relaxed ? 'relaxed-simd' : 'simd',
      matmul: (a, b, m, n, K, bias, tanh, out) => runMatmul(memory, { matmul, columnSums }, a, b, m, n, K, bias, tanh, out),
      tanhBackward: (z, dy, out) => runTanhBackward(memory, tanhBackward, z, dy, out),
    };
  }
  return null;
}

/** The module's memory as floats (and float64s), grown on demand (the views are renewed when growing detaches them). */
export class Memory {
  f: Float32Array;
  d: Float64Array;
  constructor(private readonly mem: WebAssembly.Memory) {
    this.f = new Float32Array(mem.buffer);
    this.d = new Float64Array(mem.buffer);
  }
  /** At least `floats` floats, and the view over them. */
  reserve(floats: number): Float32Array {
    const need = floats * 4 - this.mem.buffer.byteLength;
    if (need > 0) this.mem.grow(Math.ceil(need / 65536));
    if (this.f.buffer !== this.mem.buffer) {
      this.f = new Float32Array(this.mem.buffer);
      this.d = new Float64Array(this.mem.buffer);
    }
    return this.f;
  }
}

const up = (x: number, to: number) => Math.ceil(x / to) * to;

/** Floats of slack after each of matmul's matrices: a tile's 8 columns run up to 7 past n. */
const SLACK = 8;

function runMatmul(
  memory: Memory,
  fns: { matmul: (...args: number[]) => void; columnSums: (...args: number[]) => void },
  a: StridedMatrix,
  b: Float32Array,
  m: number,
  n: number,
  K: number,
  bias: Float32Array | null,
  tanh: boolean,
  out: MatmulOut = {},
): { c: Float32Array; y: Float32Array | null } {
  if (m === 0 || n === 0 || K === 0) {
    // Nothing to sum: c is the bias on every row.
    const c = out.c ?? new Float32Array(m * n);
    if (bias) for (let i = 0; i < m; i++) c.set(bias.subarray(0, n), i * n);
    else c.fill(0, 0, m * n);
    out.bColumnSums?.fill(0, 0, n);
    if (!tanh) return { c, y: null };
    const y = out.y ?? new Float32Array(m * n);
    for (let i = 0; i < m * n; i++) y[i] = tanhF32(c[i]!);
    return { c, y };
  }
  const mp = up(m, 4),
    np = up(n, 8);
  // a whole, and zeros past it for the padding rows' reads; b, bias, c and y as they are (rows n
  // apart), each followed by SLACK floats (zeros where read).
  const aLength = Math.max(a.data.length, (mp - 1) * a.rowStride + (K - 1) * a.kStride + 1);
  const aAt = 0,
    bAt = up(aAt + aLength, 4),
    biasAt = up(bAt + K * n + SLACK, 4),
    cAt = up(biasAt + n + SLACK, 4),
    yAt = up(cAt + mp * n + SLACK, 4),
    sumsAt = up(tanh ? yAt + mp * n + SLACK : yAt, 4), // float64s from here: an even float index
    end = sumsAt + 2 * up(n, 2);
  const f = memory.reserve(end);
  f.set(a.data, aAt);
  f.fill(0, aAt + a.data.length, bAt);
  f.set(b.subarray(0, K * n), bAt);
  f.fill(0, bAt + K * n, biasAt);
  if (bias) f.set(bias.subarray(0, n), biasAt);
  f.fill(0, bias ? biasAt + n : biasAt, cAt);
  fns.matmul(aAt * 4, a.rowStride * 4, a.kStride * 4, bAt * 4, cAt * 4, mp, np, K, biasAt * 4, tanh ? yAt * 4 : 0, n);
  if (out.bColumnSums) {
    fns.columnSums(bAt * 4, n, K, sumsAt * 4);
    const sums = memory.d,
      at = sumsAt / 2;
    for (let j = 0; j < n; j++) out.bColumnSums[j] = sums[at + j]!;
  }
  return { c: take(f, cAt, m * n, out.c), y: tanh ? take(f, yAt, m * n, out.y) : null };
}

/** `length` floats from `at`, into `out` (a new array where absent). */
function take(f: Float32Array, at: number, length: number, out?: Float32Array): Float32Array {
  if (!out) return f.slice(at, at + length);
  out.set(f.subarray(at, at + length));
  return out;
}

function runTanhBackward(
  memory: Memory,
  tanhBackward: (...args: number[]) => void,
  z: Float32Array,
  dy: Float32Array,
  out?: Float32Array,
): Float32Array {
  const n = z.length,
    np = up(n, 4);
  const zAt = 0,
    dyAt = np,
    dzAt = 2 * np;
  const f = memory.reserve(3 * np);
  f.set(z, zAt);
  f.fill(0, zAt + n, dyAt);
  f.set(dy.subarray(0, n), dyAt);
  f.fill(0, dyAt + n, dzAt);
  tanhBackward(zAt * 4, dyAt * 4, dzAt * 4, np * 4);
  if (!out) return f.slice(dzAt, dzAt + n);
  out.set(f.subarray(dzAt, dzAt + n));
  return out;
}

let enabled = true;

/** Turns the WebAssembly kernels off (true: back on) in this thread: tiles.ts's exact JS kernel and Math.tanh run instead (tests, comparisons). */
export function useSimd(on: boolean): void {
  enabled = on;
}

/** The kernel the fast ops run in this thread: 'relaxed-simd', 'simd', or 'js' (tiles.ts and Math.tanh, the reference's bits). */
export function fastKernelKind(): 'relaxed-simd' | 'simd' | 'js' {
  return (enabled && simdKernel()?.kind) || 'js';
}

/** The SIMD kernel where it runs in this thread, else null (the callers' exact JS paths). */
export function activeKernel(): SimdKernel | null {
  return enabled ? simdKernel() : null;
}
