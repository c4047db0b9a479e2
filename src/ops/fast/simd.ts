// The fast backend's inner kernel in WebAssembly SIMD: c = a·bᵀ (every output a dot product of a
// row of a with a row of b, both contiguous), as tiles.ts's dotRows, with float32 lanes:
//   - 2 × 4 outputs per tile, 8 f32x4 accumulators, each k-step of 4 loads 6 vectors for 8
//     multiply-adds of 4 lanes: a multiply and an add by default, so every runtime computes the
//     same bits (Node and Deno give equal runs); useFma(true) switches to relaxed-SIMD
//     f32x4.relaxed_madd where the runtime validates it (fused on hardware with FMA, which makes
//     the bits depend on the hardware and the runtime);
//   - the sum over k blocked by KC floats (rows of 2 KiB: a tile's rows stay in L1, a block of b
//     in L2), the partial sums added into c between blocks;
//   - inputs copied into the module's memory padded with zeros to whole tiles (rows to 2, columns
//     to 4, k to 4), so the kernel has no remainder loops.
// Unlike dotRows it sums in float32 and in another order (four lanes, then blocks), so results
// match the reference within the op suite's float32 tolerances, not bit for bit. Feature-detected:
// simdKernel() is null where WebAssembly SIMD is missing, and the callers keep the exact JS kernel.
import { dotRows } from './tiles.ts';
import { assemble, I32, op, V128 } from './wasm-asm.ts';

/** Floats of k per block. */
const KC = 512;

// Locals of the kernel: the parameters, then scratch. acc(r, q) is output (i + r, j + q).
const [A, B, C, MP, NP, KP, KCL] = [0, 1, 2, 3, 4, 5, 6];
const [RB, KB, OEND, OSTART, I, J, PA0, PA1, PB0, PC, ROWC, O] = [7, 8, 9, 10, 11, 12, 13, 14, 15, 19, 20, 21];
const pb = (q: number) => PB0 + q;
const acc = (r: number, q: number) => 22 + r * 4 + q;
const [X0, X1, Y] = [30, 31, 32];

/** for (counter = its value; counter < limit; counter += step) body. */
function forLoop(counter: number, limit: number[], step: number[], body: number[]): number[] {
  return [
    ...op.block,
    ...op.loop,
    ...op.get(counter),
    ...limit,
    ...op.i32GeU,
    ...op.brIf(1),
    ...body,
    ...op.get(counter),
    ...step,
    ...op.i32Add,
    ...op.set(counter),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
}

/** The sum of a vector's four lanes ((l0 + l1) + (l2 + l3)). */
const hsum = (v: number) => [
  ...op.get(v),
  ...op.f32x4Extract(0),
  ...op.get(v),
  ...op.f32x4Extract(1),
  ...op.f32Add,
  ...op.get(v),
  ...op.f32x4Extract(2),
  ...op.get(v),
  ...op.f32x4Extract(3),
  ...op.f32Add,
  ...op.f32Add,
];

function kernelBody(relaxed: boolean): number[] {
  const madd = (x: number, a: number) =>
    relaxed
      ? [...op.get(x), ...op.get(Y), ...op.get(a), ...op.f32x4RelaxedMadd, ...op.set(a)]
      : [...op.get(a), ...op.get(x), ...op.get(Y), ...op.f32x4Mul, ...op.f32x4Add, ...op.set(a)];
  const kStep = [
    ...op.loop,
    ...op.get(PA0),
    ...op.get(O),
    ...op.i32Add,
    ...op.v128Load(),
    ...op.set(X0),
    ...op.get(PA1),
    ...op.get(O),
    ...op.i32Add,
    ...op.v128Load(),
    ...op.set(X1),
    ...[0, 1, 2, 3].flatMap((q) => [
      ...op.get(pb(q)),
      ...op.get(O),
      ...op.i32Add,
      ...op.v128Load(),
      ...op.set(Y),
      ...madd(X0, acc(0, q)),
      ...madd(X1, acc(1, q)),
    ]),
    ...op.get(O),
    ...op.i32(16),
    ...op.i32Add,
    ...op.tee(O),
    ...op.get(OEND),
    ...op.i32LtU,
    ...op.brIf(0),
    ...op.end,
  ];
  const store = [0, 1].flatMap((r) => [
    ...(r === 1 ? [...op.get(PC), ...op.get(ROWC), ...op.i32Add, ...op.set(PC)] : []),
    ...[0, 1, 2, 3].flatMap((q) => [
      ...op.get(PC),
      ...op.get(PC),
      ...op.f32Load(4 * q),
      ...hsum(acc(r, q)),
      ...op.f32Add,
      ...op.f32Store(4 * q),
    ]),
  ]);
  const tile = [
    // pb(q) = b + (j + q)·rb
    ...op.get(B),
    ...op.get(J),
    ...op.get(RB),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.set(pb(0)),
    ...[1, 2, 3].flatMap((q) => [...op.get(pb(q - 1)), ...op.get(RB), ...op.i32Add, ...op.set(pb(q))]),
    ...[0, 1].flatMap((r) => [0, 1, 2, 3].flatMap((q) => [...op.v128Zero, ...op.set(acc(r, q))])),
    ...op.get(OSTART),
    ...op.set(O),
    ...kStep,
    // pc = c + i·rowc + j·4
    ...op.get(C),
    ...op.get(I),
    ...op.get(ROWC),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.get(J),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.i32Add,
    ...op.set(PC),
    ...store,
  ];
  const rows = [
    ...op.get(A),
    ...op.get(I),
    ...op.get(RB),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.tee(PA0),
    ...op.get(RB),
    ...op.i32Add,
    ...op.set(PA1),
    ...op.i32(0),
    ...op.set(J),
    ...forLoop(J, op.get(NP), op.i32(4), tile),
  ];
  const block = [
    ...op.get(KB),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.set(OSTART),
    // oend = min(kb + kc, Kp)·4
    ...op.get(KB),
    ...op.get(KCL),
    ...op.i32Add,
    ...op.tee(OEND),
    ...op.get(KP),
    ...op.get(OEND),
    ...op.get(KP),
    ...op.i32LtU,
    0x1b, // select
    ...op.i32(2),
    ...op.i32Shl,
    ...op.set(OEND),
    ...op.i32(0),
    ...op.set(I),
    ...forLoop(I, op.get(MP), op.i32(2), rows),
  ];
  return [
    ...op.get(KP),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.set(RB),
    ...op.get(NP),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.set(ROWC),
    ...op.i32(0),
    ...op.set(KB),
    ...forLoop(KB, op.get(KP), op.get(KCL), block),
  ];
}

/** The module's bytes: dot(a, b, c, mp, np, Kp, kc) adds a·bᵀ (mp × Kp by np × Kp, byte addresses) into c (mp × np). */
export function kernelModule(relaxed: boolean): Uint8Array<ArrayBuffer> {
  return assemble([
    {
      name: 'dot',
      params: [I32, I32, I32, I32, I32, I32, I32],
      locals: [
        [15, I32],
        [11, V128],
      ],
      body: kernelBody(relaxed),
    },
  ]);
}

export interface SimdKernel {
  /** 'relaxed-simd' (fused multiply-add where the hardware has it; useFma) or 'simd'. */
  kind: 'relaxed-simd' | 'simd';
  /** c[i·n + j] = init[j] + Σ_k a[i·K + k]·b[j·K + k], in float32 (see the file's comment). */
  dotRows(a: Float32Array, b: Float32Array, m: number, n: number, K: number, c: Float32Array, init?: Float32Array | null): Float32Array;
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
    const mem = instance.exports.mem as WebAssembly.Memory;
    const dot = instance.exports.dot as (...args: number[]) => void;
    return { kind: relaxed ? 'relaxed-simd' : 'simd', dotRows: (a, b, m, n, K, c, init) => run(mem, dot, a, b, m, n, K, c, init ?? null) };
  }
  return null;
}

function run(
  mem: WebAssembly.Memory,
  dot: (...args: number[]) => void,
  a: Float32Array,
  b: Float32Array,
  m: number,
  n: number,
  K: number,
  c: Float32Array,
  init: Float32Array | null,
): Float32Array {
  const mp = (m + 1) & ~1,
    np = (n + 3) & ~3,
    Kp = (K + 3) & ~3;
  const aAt = 0,
    bAt = aAt + mp * Kp,
    cAt = bAt + np * Kp,
    end = cAt + mp * np;
  const need = end * 4 - mem.buffer.byteLength;
  if (need > 0) mem.grow(Math.ceil(need / 65536));
  const f = new Float32Array(mem.buffer);
  place(f, aAt, a, m, mp, K, Kp);
  place(f, bAt, b, n, np, K, Kp);
  f.fill(0, cAt, end);
  if (K > 0) dot(aAt * 4, bAt * 4, cAt * 4, mp, np, Kp, KC);
  for (let i = 0; i < m; i++) {
    const from = cAt + i * np,
      to = i * n;
    if (init) for (let j = 0; j < n; j++) c[to + j] = init[j]! + f[from + j]!;
    else for (let j = 0; j < n; j++) c[to + j] = f[from + j]!;
  }
  return c;
}

/** Rows × K of `x` into memory at `at` as rowsP × Kp, zero-padded. */
function place(f: Float32Array, at: number, x: Float32Array, rows: number, rowsP: number, K: number, Kp: number): void {
  if (K === Kp) f.set(x.subarray(0, rows * K), at);
  else
    for (let r = 0; r < rows; r++) {
      f.set(x.subarray(r * K, (r + 1) * K), at + r * Kp);
      f.fill(0, at + r * Kp + K, at + (r + 1) * Kp);
    }
  f.fill(0, at + rows * Kp, at + rowsP * Kp);
}

let enabled = true;

/** Turns the WebAssembly kernel off (true: back on) in this thread: the exact JS kernel of tiles.ts runs instead (tests, comparisons). */
export function useSimd(on: boolean): void {
  enabled = on;
}

/** The kernel the fast ops run in this thread: 'relaxed-simd', 'simd', or 'js' (tiles.ts, the reference's bits). */
export function fastKernelKind(): 'relaxed-simd' | 'simd' | 'js' {
  return (enabled && simdKernel()?.kind) || 'js';
}

/** dotRows into float32 outputs: the SIMD kernel where it runs, else tiles.ts's exact kernel. */
export function dotRowsF32(
  a: Float32Array,
  b: Float32Array,
  m: number,
  n: number,
  K: number,
  c: Float32Array,
  init: Float32Array | null = null,
): Float32Array {
  const k = enabled ? simdKernel() : null;
  return k ? k.dotRows(a, b, m, n, K, c, init) : dotRows(a, b, m, n, K, c, init);
}
