// A small WebAssembly assembler: just enough of the binary format (one memory, functions of i32
// parameters, the SIMD opcodes the fast kernels use) to write the kernels of simd.ts in
// TypeScript, with no toolchain and no .wasm file to build or ship. The same bytes load in Node,
// Deno and browser workers.

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (i32 constants). */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

/** A float32's four bytes, little-endian (the value rounded to float32). */
function f32Bytes(x: number): number[] {
  const bytes = new DataView(new ArrayBuffer(4));
  bytes.setFloat32(0, x, true);
  return [0, 1, 2, 3].map((i) => bytes.getUint8(i));
}

export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;

/** The instructions the kernels use, as byte sequences. */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  else: [0x05],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  tee: (i: number) => [0x22, ...uleb(i)],
  i32: (n: number) => [0x41, ...sleb(n)],
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32Sub: [0x6b],
  i32Shl: [0x74],
  i32Eqz: [0x45],
  i32Eq: [0x46],
  i32Ne: [0x47],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  /** f32.load / f32.store with a byte offset (alignment 4). */
  f32Load: (offset = 0) => [0x2a, 2, ...uleb(offset)],
  f32Store: (offset = 0) => [0x38, 2, ...uleb(offset)],
  f32Add: [0x92],
  v128Load: (offset = 0) => [0xfd, 0x00, 4, ...uleb(offset)],
  v128Store: (offset = 0) => [0xfd, 0x0b, 4, ...uleb(offset)],
  /** v128.load64_zero: two float32s into the low lanes. */
  v128Load64Zero: (offset = 0) => [0xfd, 0x5d, 3, ...uleb(offset)],
  v128Zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  /** v128.const with the same float32 in all four lanes. */
  f32x4Const: (x: number) => [0xfd, 0x0c, ...Array.from({ length: 4 }, () => f32Bytes(x)).flat()],
  f32x4Splat: [0xfd, 0x13],
  f32x4Extract: (lane: number) => [0xfd, 0x1f, lane],
  f32x4Add: [0xfd, ...uleb(228)],
  f32x4Sub: [0xfd, ...uleb(229)],
  f32x4Mul: [0xfd, ...uleb(230)],
  f32x4Div: [0xfd, ...uleb(231)],
  f32x4Min: [0xfd, ...uleb(232)],
  f32x4Max: [0xfd, ...uleb(233)],
  f64x2PromoteLowF32x4: [0xfd, 0x5f],
  /** f32x4.demote_f64x2_zero: two float64s rounded to float32 (to nearest, as Math.fround) into the low lanes. */
  f32x4DemoteF64x2Zero: [0xfd, 0x5e],
  /** v128.store64_lane: the low two float32s (lane 0 of 64 bits). */
  v128Store64Lane0: (offset = 0) => [0xfd, 0x5b, 3, ...uleb(offset), 0],
  f64x2Sqrt: [0xfd, ...uleb(239)],
  f64x2Add: [0xfd, ...uleb(240)],
  f64x2Sub: [0xfd, ...uleb(241)],
  f64x2Mul: [0xfd, ...uleb(242)],
  f64x2Div: [0xfd, ...uleb(243)],
  /** v128.load32_splat: one float32 into all four lanes. */
  v128Load32Splat: (offset = 0) => [0xfd, 0x09, 2, ...uleb(offset)],
  /** v128.load64_splat: one float64 into both lanes. */
  v128Load64Splat: (offset = 0) => [0xfd, 0x0a, 3, ...uleb(offset)],
  /** relaxed-SIMD f32x4.relaxed_madd: a·b + c, fused where the hardware has FMA. */
  f32x4RelaxedMadd: [0xfd, ...uleb(0x105)],
};

/** for (counter = its value; counter < limit; counter += step) body. */
export function forLoop(counter: number, limit: number[], step: number[], body: number[]): number[] {
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

export interface WasmFunction {
  name: string;
  params: number[];
  /** Extra locals by type, after the parameters. */
  locals: [count: number, type: number][];
  body: number[];
}

/** Pages (64 KiB) a shared memory may grow to: WebAssembly's 4 GiB (a shared memory must declare its maximum). */
export const SHARED_MAX_PAGES = 65536;

/**
 * A module with one exported memory `mem` (growable) and the given exported functions (no results).
 * `sharedMemory`: the memory is imported as `env.mem`, shared (a `WebAssembly.Memory` made with
 * `shared: true`, at most SHARED_MAX_PAGES), so instances in several threads run on one memory;
 * otherwise the module defines its own.
 */
export function assemble(functions: WasmFunction[], sharedMemory = false): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [0x60, ...vec(f.params.map((p) => [p])), 0]);
  const code = functions.map((f) => {
    const body = [...vec(f.locals.map(([n, t]) => [...uleb(n), t])), ...f.body, ...op.end];
    return [...uleb(body.length), ...body];
  });
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    // limits 0x03: shared, with a minimum and a maximum
    ...(sharedMemory ? section(2, vec([[...name('env'), ...name('mem'), 0x02, 0x03, ...uleb(1), ...uleb(SHARED_MAX_PAGES)]])) : []),
    ...section(3, vec(functions.map((_, i) => uleb(i)))),
    ...(sharedMemory ? [] : section(5, vec([[0x00, ...uleb(1)]]))),
    ...section(7, vec([[...name('mem'), 0x02, 0], ...functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)])])),
    ...section(10, vec(code)),
    // the "name" custom section: profiles and stack traces name the functions
    ...section(0, [...name('name'), ...section(1, vec(functions.map((f, i) => [...uleb(i), ...name(f.name)])))]),
  ];
  return new Uint8Array(bytes);
}
