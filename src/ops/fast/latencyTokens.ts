// The latency tokens of src/core/env/task.ts (the chain x ← tanh(x·B) in float64, 5 times) with
// the products x·B in WebAssembly SIMD, the bits of `referenceLatencyTokens`:
//   - blockProducts: y = x·B for tiles of 4 prompts × 4 columns of B (8 f64x2 accumulators; each
//     row i of B loads 2 vectors of the tile's columns and splats each prompt's x_i for 8
//     multiply-adds of 2 lanes). Every y_j starts at 0 and adds x_i·B_ij in order of i from 0, an
//     f64x2.mul then an f64x2.add, each rounded to float64 (WebAssembly never fuses them): the
//     reference's sum, lane by lane;
//   - B is kept in the module's memory as float64 panels of 4 columns, contiguous over i (packed
//     once per task), and x as tiles of 4 prompts interleaved over i, so the inner loop reads both
//     sequentially; the column panels run outermost, each reused by all the call's prompts while
//     it is in cache;
//   - tanh stays Math.tanh, in JS between the applications, as in the reference.
// Columns past dModel (B's padding to 4) and prompts past the last (x's padding to 4) are zeros,
// computed and not read. Where WebAssembly SIMD is missing or turned off (simd.ts's useSimd), or the
// module's memory cannot hold B's panels, the JS kernel `blockedLatencyTokens` runs instead (the same bits).
import { INSERTION_POSITIONS } from '../../core/env/controller.ts';
import { blockedLatencyTokens, type Task } from '../../core/env/task.ts';
import { activeKernel, Memory } from './simd.ts';
import { assemble, forLoop, I32, op, V128 } from './wasm-asm.ts';

// blockProducts's locals: the parameters (byte addresses and sizes), then scratch.
// acc(q, v): prompt q of the tile, columns j + 2v and j + 2v + 1.
const [X, PANELS, Y, TILES, PANEL_COUNT, PANEL_BYTES, Y_ROW] = [0, 1, 2, 3, 4, 5, 6];
const [PANEL, TILE_I, PB, PX, PY, O, AT] = [7, 8, 9, 10, 11, 12, 13];
const [B0, B1, XS] = [14, 15, 16];
const acc = (q: number, v: number) => 17 + q * 2 + v;
/** Prompts per tile: 4 × 4 columns keep 8 accumulators, 2 vectors of B and the splat in 11 of x64's 16 SIMD registers (5 and 6 measured slower). */
const TILE = 4;
const QS = Array.from({ length: TILE }, (_, q) => q);

const blockProductsBody = (): number[] => {
  const madd = (q: number, v: number, b: number) => [
    ...op.get(acc(q, v)),
    ...op.get(XS),
    ...op.get(b),
    ...op.f64x2Mul,
    ...op.f64x2Add,
    ...op.set(acc(q, v)),
  ];
  const row = [
    ...op.loop,
    ...op.get(PB),
    ...op.get(O),
    ...op.i32Add,
    ...op.tee(AT),
    ...op.v128Load(),
    ...op.set(B0),
    ...op.get(AT),
    ...op.v128Load(16),
    ...op.set(B1),
    ...QS.flatMap((q) => [...op.get(PX), ...op.v128Load64Splat(8 * q), ...op.set(XS), ...madd(q, 0, B0), ...madd(q, 1, B1)]),
    ...op.get(PX),
    ...op.i32(8 * TILE),
    ...op.i32Add,
    ...op.set(PX),
    ...op.get(O),
    ...op.i32(32),
    ...op.i32Add,
    ...op.tee(O),
    ...op.get(PANEL_BYTES),
    ...op.i32Ne,
    ...op.brIf(0),
    ...op.end,
  ];
  const store = QS.flatMap((q) => [
    ...op.get(PY),
    ...op.get(Y_ROW),
    ...op.i32(q),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.tee(AT),
    ...op.get(acc(q, 0)),
    ...op.v128Store(),
    ...op.get(AT),
    ...op.get(acc(q, 1)),
    ...op.v128Store(16),
  ]);
  const tile = [
    ...QS.flatMap((q) => [0, 1].flatMap((v) => [...op.v128Zero, ...op.set(acc(q, v))])),
    ...op.i32(0),
    ...op.set(O),
    ...row,
    ...store,
    ...op.get(PY),
    ...op.get(Y_ROW),
    ...op.i32(TILE),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.set(PY),
  ];
  const panel = [
    ...op.get(X),
    ...op.set(PX),
    // py = y + panel·32: the panel's 4 columns of the tile's first prompt
    ...op.get(Y),
    ...op.get(PANEL),
    ...op.i32(32),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.set(PY),
    ...op.i32(0),
    ...op.set(TILE_I),
    ...forLoop(TILE_I, op.get(TILES), op.i32(1), tile),
    ...op.get(PB),
    ...op.get(PANEL_BYTES),
    ...op.i32Add,
    ...op.set(PB),
  ];
  return [...op.get(PANELS), ...op.set(PB), ...op.i32(0), ...op.set(PANEL), ...forLoop(PANEL, op.get(PANEL_COUNT), op.i32(1), panel)];
};

/**
 * The module's bytes: blockProducts(x, panels, y, tiles, panelCount, panelBytes, yRow) sets, for
 * each tile t < tiles of 4 prompts and each panel c < panelCount of 4 columns, y[(4t + q)·yRow +
 * 32c + 8l] (float64, l < 4) to Σ_i x(t, i, q)·panel(c, i, l) in order of i, where x(t, i, q) is
 * the float64 at x + t·panelBytes + 32i + 8q and panel(c, i, l) at panels + c·panelBytes + 32i +
 * 8l (panelBytes = 32·dModel, dModel ≥ 1).
 */
export function latencyModule(): Uint8Array<ArrayBuffer> {
  return assemble([
    {
      name: 'blockProducts',
      params: new Array<number>(7).fill(I32),
      locals: [
        [7, I32],
        [3 + 2 * TILE, V128],
      ],
      body: blockProductsBody(),
    },
  ]);
}

/** Prompts whose chains one call advances: their x (32 KiB each at dModel 2048, float64) stays in cache while a panel is applied. */
const PROMPTS_PER_CALL = 32;

interface LatencyKernel {
  memory: Memory;
  blockProducts: (...args: number[]) => void;
  /** The block whose panels lie at the start of memory (the last task's). */
  packed: Float32Array | null;
}

let kernel: LatencyKernel | null | undefined;

function latencyKernel(): LatencyKernel | null {
  if (kernel !== undefined) return kernel;
  const bytes = latencyModule();
  if (typeof WebAssembly !== 'object' || !WebAssembly.validate(bytes)) return (kernel = null);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  return (kernel = {
    memory: new Memory(instance.exports.mem as WebAssembly.Memory),
    blockProducts: instance.exports.blockProducts as (...args: number[]) => void,
    packed: null,
  });
}

const up = (x: number, to: number) => Math.ceil(x / to) * to;

/**
 * `referenceLatencyTokens` of each of `ids` (the same bits), the products in WebAssembly SIMD where
 * the fast ops' kernels run in this thread, else `blockedLatencyTokens`.
 */
export function simdLatencyTokens(task: Task, ids: readonly number[]): Float32Array[] {
  const k = activeKernel() && latencyKernel();
  if (!k) return blockedLatencyTokens(task, ids);
  const d = task.dims.dModel;
  const s2 = d + 5;
  const dp = up(d, 4);
  const panelBytes = 32 * d;
  // float64 indices: B's panels, then x's tiles, then y (rows dp apart)
  const xAt = dp * d;
  const yAt = xAt + up(PROMPTS_PER_CALL, TILE) * d;
  // byte addresses are i32: beyond 2 GiB (dModel above ~16 000) the JS kernel runs, as where memory cannot grow
  const end = yAt + up(PROMPTS_PER_CALL, TILE) * dp;
  if (end * 8 > 2 ** 31 || !k.memory.tryReserve(2 * end)) return blockedLatencyTokens(task, ids);
  const f64 = k.memory.d;
  if (k.packed !== task.block) {
    const B = task.block;
    // column j of row i to panel j / 4, lane j % 4; the last panel's lanes past dModel stay 0
    f64.fill(0, (dp / 4 - 1) * 4 * d, xAt);
    for (let i = 0; i < d; i++) {
      const row = i * d;
      for (let j = 0; j < d; j++) f64[((j >> 2) * d + i) * 4 + (j & 3)] = B[row + j]!;
    }
    k.packed = task.block;
  }
  const all: Float32Array[] = [];
  for (let start = 0; start < ids.length; start += PROMPTS_PER_CALL) {
    const chunk = ids.slice(start, start + PROMPTS_PER_CALL);
    const n = chunk.length;
    const tiles = Math.ceil(n / TILE);
    const tokens = chunk.map(() => new Float32Array(INSERTION_POSITIONS.length * d));
    // x(t, i, q) = prompt 4t + q's x_i; the padding prompts' stay 0
    f64.fill(0, xAt, xAt + tiles * TILE * d);
    chunk.forEach((id, q) => {
      const from = id * s2;
      const at = xAt + Math.floor(q / TILE) * TILE * d + (q % TILE);
      for (let i = 0; i < d; i++) f64[at + TILE * i] = task.prompts.stage2Input[from + i]!;
    });
    for (let step = 0; step < INSERTION_POSITIONS.length; step++) {
      k.blockProducts(xAt * 8, 0, yAt * 8, tiles, dp / 4, panelBytes, dp * 8);
      for (let q = 0; q < n; q++) {
        const token = tokens[q]!;
        const y = yAt + q * dp;
        const at = xAt + Math.floor(q / TILE) * TILE * d + (q % TILE);
        for (let j = 0; j < d; j++) {
          const x = Math.tanh(f64[y + j]!);
          f64[at + TILE * j] = x;
          token[step * d + j] = x;
        }
      }
    }
    all.push(...tokens);
  }
  return all;
}
