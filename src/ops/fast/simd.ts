// The fast backend's kernels in WebAssembly SIMD (f32x4 lanes), assembled by wasm-asm.ts:
//   - matmul: c = bias + a·b, 4 × 8 outputs per tile (8 vector accumulators; each k loads 2 vectors
//     of b and splats 4 floats of a for 8 multiply-adds of 4 lanes). a is packed first (packA, from
//     any strides, so xᵀ needs no transpose): each 4-row block as K runs of 4 floats, read with one
//     pointer. b is read as it is (rows n floats apart; a tile's columns past n read the next row's
//     first ones, and 8 floats of slack follow b), in k blocks of ~256 KiB (≥ 16 rows), so the part of b a
//     block's tiles read stays in the core's cache instead of streaming all of b past each row
//     block; c (rows rounded up to 8 floats) keeps the sums between blocks. Each output is summed
//     over k in ascending order, in float32, starting from its bias: the reference's order
//     (src/ops/cpu/dense.ts and its backward twins), with float32 rounding. With tanh, y = tanh(c)
//     follows in one pass over c;
//   - columnSums: b's column sums in float64 (f64x2), rows in order: denseBackwardWeight's db with
//     the reference's bits, from the dz the matmul has just read;
//   - tanh: y = tanh(z), or tanh's backward dz = dy · (1 − tanh(z)²), four lanes at a time;
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
import { copyFloats } from '../../core/rows.ts';
import { assemble, forLoop, I32, op, V128 } from './wasm-asm.ts';
import { type KernelTeam, kernelTeam, type MatmulFn, type MatmulJob, matmulRows } from './kernel-team.ts';

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

// matmul reads a packed (packA): rows i…i + 3 of a as K runs of 4 floats, a(i, k)…a(i + 3, k), so a
// tile reads its four rows' k-th floats with one pointer; the row blocks K·4 floats apart.
// packA's locals: a, sam, sak (bytes), rows (a multiple of 4; of 16 where sam is 4), K, panel, then scratch.
const [PA_A, PA_SAM, PA_SAK, PA_ROWS, PA_K, PA_OUT] = [0, 1, 2, 3, 4, 5];
const [PA_I, PA_SRC, PA_DST, PA_KK, PA_BLOCK] = [6, 7, 8, 9, 10];

/** K steps of: body, then src += sak, dst += 16. */
const packRun = (body: number[]): number[] => [
  ...op.get(PA_K),
  ...op.set(PA_KK),
  ...op.loop,
  ...body,
  ...op.get(PA_SRC),
  ...op.get(PA_SAK),
  ...op.i32Add,
  ...op.set(PA_SRC),
  ...op.get(PA_DST),
  ...op.i32(16),
  ...op.i32Add,
  ...op.set(PA_DST),
  ...op.get(PA_KK),
  ...op.i32(1),
  ...op.i32Sub,
  ...op.tee(PA_KK),
  ...op.brIf(0),
  ...op.end,
];

/** src = a + (i + r)·sam; dst = panel + (i / 4)·block + r·4. */
const packFrom = (r: number): number[] => [
  ...op.get(PA_A),
  ...op.get(PA_I),
  ...(r > 0 ? [...op.i32(r), ...op.i32Add] : []),
  ...op.get(PA_SAM),
  ...op.i32Mul,
  ...op.i32Add,
  ...op.set(PA_SRC),
  ...op.get(PA_OUT),
  ...op.get(PA_I),
  ...op.get(PA_K),
  ...op.i32Mul,
  ...op.i32(2),
  ...op.i32Shl,
  ...op.i32Add,
  ...(r > 0 ? [...op.i32(4 * r), ...op.i32Add] : []),
  ...op.set(PA_DST),
];

const packABody = (): number[] => [
  ...op.get(PA_K),
  ...op.i32(4),
  ...op.i32Shl,
  ...op.set(PA_BLOCK),
  ...op.i32(0),
  ...op.set(PA_I),
  ...op.get(PA_SAM),
  ...op.i32(4),
  ...op.i32Eq,
  ...op.if,
  // a's rows are adjacent floats (a = xᵀ): four row blocks at a time, so each 64-byte line
  // a(i…i + 15, k) is read once, whole, as four vectors, one into each block's run.
  ...forLoop(PA_I, op.get(PA_ROWS), op.i32(16), [
    ...packFrom(0),
    ...packRun(
      [0, 1, 2, 3].flatMap((g) => [
        ...op.get(PA_DST),
        ...(g > 0 ? [...op.get(PA_BLOCK), ...(g > 1 ? [...op.i32(g), ...op.i32Mul] : []), ...op.i32Add] : []),
        ...op.get(PA_SRC),
        ...op.v128Load(16 * g),
        ...op.v128Store(),
      ]),
    ),
  ]),
  ...op.else,
  // otherwise row by row: a(i + r, 0…K − 1) into every 4th float of the block's run
  ...forLoop(
    PA_I,
    op.get(PA_ROWS),
    op.i32(4),
    [0, 1, 2, 3].flatMap((r) => [...packFrom(r), ...packRun([...op.get(PA_DST), ...op.get(PA_SRC), ...op.f32Load(), ...op.f32Store()])]),
  ),
  ...op.end,
];

// matmul's locals: the parameters, then scratch. acc(r, q) is output (i + r, j + 4q…j + 4q + 3).
const [PANEL, PSTRIDE, B, C, MP, NP, K, BIAS, N, FROM_C] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const MATMUL_PARAMS = 10;
const [I, J, PA, PB, PC, KK, ROWB, CROWB] = [10, 11, 12, 13, 14, 15, 16, 17];
const MATMUL_I32_LOCALS = 8;
const acc = (r: number, q: number) => 18 + r * 2 + q;
const [Y0, Y1, X] = [26, 27, 28];
const MATMUL_V128_LOCALS = 11;
const ROWS = [0, 1, 2, 3];

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
    ...ROWS.flatMap((r) => [...op.get(PA), ...op.v128Load32Splat(4 * r), ...op.set(X), ...madd(Y0, acc(r, 0)), ...madd(Y1, acc(r, 1))]),
    ...op.get(PA),
    ...op.i32(16),
    ...op.i32Add,
    ...op.set(PA),
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
  // pc = c + i·crowb + j·4
  const tileOfC = [
    ...op.get(C),
    ...op.get(I),
    ...op.get(CROWB),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.get(J),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.set(PC),
  ];
  const nextRowOfC = [...op.get(PC), ...op.get(CROWB), ...op.i32Add, ...op.set(PC)];
  const tile = [
    ...tileOfC,
    // the sums so far (c, after the k blocks before) or the bias
    ...op.get(FROM_C),
    ...op.if,
    ...ROWS.flatMap((r) => [
      ...(r > 0 ? nextRowOfC : []),
      ...[0, 1].flatMap((q) => [...op.get(PC), ...op.v128Load(16 * q), ...op.set(acc(r, q))]),
    ]),
    ...op.else,
    ...ROWS.flatMap((r) =>
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
    ...op.end,
    // pa = row block i's run, pb = b + j·4
    ...op.get(PANEL),
    ...op.get(I),
    ...op.get(PSTRIDE),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.set(PA),
    ...op.get(B),
    ...op.get(J),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.set(PB),
    ...op.get(K),
    ...op.set(KK),
    ...kStep,
    ...tileOfC,
    ...ROWS.flatMap((r) => [
      ...(r > 0 ? nextRowOfC : []),
      ...[0, 1].flatMap((q) => [...op.get(PC), ...op.get(acc(r, q)), ...op.v128Store(16 * q)]),
    ]),
  ];
  return [
    ...op.get(N),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.set(ROWB),
    ...op.get(NP),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.set(CROWB),
    ...op.i32(0),
    ...op.set(I),
    ...forLoop(I, op.get(MP), op.i32(4), [...op.i32(0), ...op.set(J), ...forLoop(J, op.get(NP), op.i32(8), tile)]),
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

// tanh's locals: z, dy, out (byte addresses; dy 0: none), n (bytes, a multiple of 16), then scratch.
const [BZ, BDY, BOUT, BN, BO] = [0, 1, 2, 3, 4];
const [BV, BT, BT2] = [5, 6, 7];

/** out = tanh(z), or with dy, out = dy·(1 − tanh(z)²) (tanh's backward), four lanes at a time. */
const tanhBody = (): number[] => [
  ...op.i32(0),
  ...op.set(BO),
  ...forLoop(BO, op.get(BN), op.i32(16), [
    ...op.get(BOUT),
    ...op.get(BO),
    ...op.i32Add,
    ...op.get(BZ),
    ...op.get(BO),
    ...op.i32Add,
    ...op.v128Load(),
    ...op.set(BV),
    ...tanhOf(BV, BT, BT2),
    ...op.set(BV),
    ...op.get(BDY),
    ...op.if,
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
    ...op.set(BV),
    ...op.end,
    ...op.get(BV),
    ...op.v128Store(),
  ]),
];

/**
 * The module's bytes (byte addresses and strides throughout):
 *   - packA(a, sam, sak, rows, K, panel): a (element (i, k) at a + i·sam + k·sak) packed for matmul
 *     (rows a multiple of 4, of 16 where sam is 4);
 *   - matmul(panel, pstride, b, c, mp, np, K, bias, n, fromC): c (mp × np, rows np apart) = s + a·b
 *     over K rows of b (n floats a row, followed by 8 floats of slack, as is the bias), where s is c
 *     itself (fromC ≠ 0: the k blocks before) or the bias; a packed, row i's run at panel + i·pstride
 *     (mp a multiple of 4, np of 8);
 *   - columnSums(b, n, K, out): b's column sums in float64 (out: n rounded up to 2 float64s);
 *   - tanh(z, dy, out, nBytes): out = tanh(z), or out = dy·(1 − tanh(z)²) where dy ≠ 0.
 */
export function kernelModule(relaxed: boolean, sharedMemory = false): Uint8Array<ArrayBuffer> {
  return assemble(
    [
      {
        name: 'matmul',
        params: new Array<number>(MATMUL_PARAMS).fill(I32),
        locals: [
          [MATMUL_I32_LOCALS, I32],
          [MATMUL_V128_LOCALS, V128],
        ],
        body: matmulBody(relaxed),
      },
      {
        name: 'packA',
        params: new Array<number>(6).fill(I32),
        locals: [[5, I32]],
        body: packABody(),
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
        name: 'tanh',
        params: [I32, I32, I32, I32],
        locals: [
          [1, I32],
          [3, V128],
        ],
        body: tanhBody(),
      },
    ],
    sharedMemory,
  );
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
/** The team the cached kernels were built for (null: alone, on memories of their own). */
let builtFor: KernelTeam | null = null;
let fma = false;

/** Fused multiply-adds (relaxed SIMD) where the runtime has them: faster, bits that depend on the hardware. */
export function useFma(on: boolean): void {
  fma = on;
}

/** This thread's kernel (compiled on first use), or null where WebAssembly SIMD is unavailable. */
export function simdKernel(): SimdKernel | null {
  if (builtFor !== kernelTeam()) {
    kernels.fma = kernels.plain = undefined;
    builtFor = kernelTeam();
  }
  const key = fma ? 'fma' : 'plain';
  if (kernels[key] === undefined) kernels[key] = build(fma ? [true, false] : [false]);
  return kernels[key];
}

/** The kernel module's functions, instantiated on `shared` (a team's memory) or on a memory of its own; null where the variant does not validate. */
export function kernelInstance(relaxed: boolean, shared?: WebAssembly.Memory): KernelFns | null {
  const bytes = kernelModule(relaxed, !!shared);
  if (!WebAssembly.validate(bytes)) return null;
  const e = new WebAssembly.Instance(new WebAssembly.Module(bytes), shared ? { env: { mem: shared } } : {}).exports;
  return {
    mem: e.mem as WebAssembly.Memory,
    ...(Object.fromEntries(KERNEL_FNS.map((f) => [f, e[f]])) as Record<(typeof KERNEL_FNS)[number], MatmulFn>),
  };
}

const KERNEL_FNS = ['matmul', 'packA', 'columnSums', 'tanh'] as const;
type KernelFns = Record<(typeof KERNEL_FNS)[number], MatmulFn> & { mem: WebAssembly.Memory };

function build(variants: boolean[]): SimdKernel | null {
  if (typeof WebAssembly !== 'object') return null;
  const team = kernelTeam();
  for (const relaxed of variants) {
    const fns = kernelInstance(relaxed, team?.memory);
    if (!fns) continue;
    const memory = new Memory(fns.mem);
    const tanh = fns.tanh;
    return {
      kind: relaxed ? 'relaxed-simd' : 'simd',
      matmul: (a, b, m, n, K, bias, withTanh, out) => runMatmul(memory, fns, relaxed, team, a, b, m, n, K, bias, withTanh, out),
      tanhBackward: (z, dy, out) => runTanhBackward(memory, tanh, z, dy, out),
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
  /** Whether the memory holds `floats` floats: grown where needed, false where the runtime refuses to grow it. */
  tryReserve(floats: number): boolean {
    try {
      this.reserve(floats);
      return true;
    } catch (e) {
      if (!(e instanceof RangeError)) throw e; // memory.grow refused
      return false;
    }
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

/** Floats of slack after b and the bias: a tile's 8 columns read up to 7 past n. */
const SLACK = 8;

/** Floats of b one k block spans (256 KiB: well inside a core's L2 cache), or 16 rows of b where those are more. */
const B_BLOCK_FLOATS = 65536;

function runMatmul(
  memory: Memory,
  fns: KernelFns,
  relaxed: boolean,
  team: KernelTeam | null,
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
  // a's rows are adjacent floats (a = xᵀ): packA reads 16 rows at a time
  const packRows = a.rowStride === 1 ? up(m, 16) : up(m, 4),
    mp = up(m, 4),
    np = up(n, 8);
  // a whole, and zeros past it for the padding rows' reads; b and bias as they are (rows n apart),
  // each followed by SLACK floats (zeros where read); c and y mp × np (rows np apart); a packed.
  const aLength = Math.max(a.data.length, (packRows - 1) * a.rowStride + (K - 1) * a.kStride + 1);
  const aAt = 0,
    bAt = up(aAt + aLength, 4),
    biasAt = up(bAt + K * n + SLACK, 4),
    cAt = up(biasAt + n + SLACK, 4),
    yAt = cAt + mp * np,
    sumsAt = up(tanh ? yAt + mp * np : yAt, 4), // float64s from here: an even float index
    panelAt = sumsAt + 2 * up(n, 2),
    end = panelAt + packRows * K;
  const f = memory.reserve(end);
  f.set(a.data, aAt);
  f.fill(0, aAt + a.data.length, bAt);
  f.set(b.subarray(0, K * n), bAt);
  f.fill(0, bAt + K * n, biasAt);
  if (bias) f.set(bias.subarray(0, n), biasAt);
  f.fill(0, bias ? biasAt + n : biasAt, cAt);
  // a packed by the rows each thread runs (kernel-team.ts's matmulRows); k in blocks of about 256 KiB
  // of b, so the rows of b a block's tiles read stay in the core's cache; c keeps the sums between
  // blocks; a large product's rows are shared with the team's helper threads
  const job: MatmulJob = {
    relaxed,
    a: aAt * 4,
    sam: a.rowStride * 4,
    sak: a.kStride * 4,
    packRows: a.rowStride === 1 ? 16 : 4,
    panel: panelAt * 4,
    pstride: K * 4,
    b: bAt * 4,
    c: cAt * 4,
    bias: biasAt * 4,
    np,
    n,
    K,
    kBlock: Math.max(16, Math.floor(B_BLOCK_FLOATS / np)),
  };
  if (team?.takes(mp, m * n * K)) team.matmul(fns, job, mp);
  else matmulRows(fns, job, 0, mp);
  if (tanh) fns.tanh(cAt * 4, 0, yAt * 4, mp * np * 4);
  if (out.bColumnSums) {
    fns.columnSums(bAt * 4, n, K, sumsAt * 4);
    const sums = memory.d,
      at = sumsAt / 2;
    for (let j = 0; j < n; j++) out.bColumnSums[j] = sums[at + j]!;
  }
  return { c: take(f, cAt, m, n, np, out.c), y: tanh ? take(f, yAt, m, n, np, out.y) : null };
}

/** The m × n matrix at `at` whose rows are `stride` floats apart, into `out` (a new array where absent). */
function take(
  f: Float32Array,
  at: number,
  m: number,
  n: number,
  stride: number,
  out: Float32Array = new Float32Array(m * n),
): Float32Array {
  if (stride === n) out.set(f.subarray(at, at + m * n));
  else for (let i = 0; i < m; i++) copyFloats(f, at + i * stride, out, i * n, n);
  return out;
}

function runTanhBackward(
  memory: Memory,
  tanh: (...args: number[]) => void,
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
  tanh(zAt * 4, dyAt * 4, dzAt * 4, np * 4);
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
