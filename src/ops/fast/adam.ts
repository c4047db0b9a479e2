// src/ops/cpu/adam.ts, two parameters at a time in WebAssembly SIMD (f64x2): each value goes
// through the reference's float64 operations in its order (multiply, add, divide, square root:
// each correctly rounded, so a lane computes what a scalar does), and m, v and the parameter are
// rounded to float32 where the reference stores them (f32x4.demote_f64x2_zero, to nearest as
// Math.fround). The reference's bits; test/ops/fast.test.ts compares them. Two float64 divisions
// and a square root per parameter are most of Adam's time, and a lane pair halves their count.
// Where WebAssembly SIMD is missing or turned off (simd.ts's useSimd), or the module's memory
// cannot hold the four arrays, the JS loop `adamJs` runs instead (the same bits). It runs once a step
// per replica: the logical ranks of a thread share one while its bits agree (src/train/replicas.ts).
import type { AdamSettings } from '../cpu/adam.ts';
import { activeKernel, Memory } from './simd.ts';
import { assemble, forLoop, I32, op, V128 } from './wasm-asm.ts';

// The constants' float64s at byte 0, in this order (each splat into a vector once).
const CONSTANTS = ['gradScale', 'decay', 'beta1', 'keep1', 'beta2', 'keep2', 'bc1', 'bc2', 'lr', 'eps'] as const;
const CONSTANTS_BYTES = 128;

// adam's locals: params, grads, m, v (byte addresses), bytes (a multiple of 8), decays (0 or 1), then scratch.
const [P, G, M, V, BYTES, DECAYS] = [0, 1, 2, 3, 4, 5];
const O = 6;
const k = (name: (typeof CONSTANTS)[number]) => 7 + CONSTANTS.indexOf(name);
const [GV, PV, MV, VV] = [17, 18, 19, 20];

/** A float32 pair at `base` + o, as float64s. */
const loadPair = (base: number) => [...op.get(base), ...op.get(O), ...op.i32Add, ...op.v128Load64Zero(), ...op.f64x2PromoteLowF32x4];
/** The float64 pair on the stack rounded to float32 and stored at `base` + o (leaves nothing). */
const storePair = (base: number, value: number[]) => [
  ...op.get(base),
  ...op.get(O),
  ...op.i32Add,
  ...value,
  ...op.f32x4DemoteF64x2Zero,
  ...op.v128Store64Lane0(),
];
const rounded = (local: number) => [...op.get(local), ...op.f32x4DemoteF64x2Zero, ...op.f64x2PromoteLowF32x4];

const adamBody = (): number[] => [
  ...CONSTANTS.flatMap((name, i) => [...op.i32(0), ...op.v128Load64Splat(8 * i), ...op.set(k(name))]),
  ...op.i32(0),
  ...op.set(O),
  ...forLoop(O, op.get(BYTES), op.i32(8), [
    // g = grad · gradScale; p, less decay · p where the weights decay
    ...loadPair(G),
    ...op.get(k('gradScale')),
    ...op.f64x2Mul,
    ...op.set(GV),
    ...loadPair(P),
    ...op.set(PV),
    ...op.get(DECAYS),
    ...op.if,
    ...op.get(PV),
    ...op.get(k('decay')),
    ...op.get(PV),
    ...op.f64x2Mul,
    ...op.f64x2Sub,
    ...op.set(PV),
    ...op.end,
    // m = beta1·m + keep1·g; v = beta2·v + keep2·g·g, each stored as float32 and used as stored
    ...op.get(k('beta1')),
    ...loadPair(M),
    ...op.f64x2Mul,
    ...op.get(k('keep1')),
    ...op.get(GV),
    ...op.f64x2Mul,
    ...op.f64x2Add,
    ...op.set(MV),
    ...storePair(M, op.get(MV)),
    ...op.get(k('beta2')),
    ...loadPair(V),
    ...op.f64x2Mul,
    ...op.get(k('keep2')),
    ...op.get(GV),
    ...op.f64x2Mul,
    ...op.get(GV),
    ...op.f64x2Mul,
    ...op.f64x2Add,
    ...op.set(VV),
    ...storePair(V, op.get(VV)),
    // p − (lr·(m / bc1)) / (√(v / bc2) + eps)
    ...storePair(P, [
      ...op.get(PV),
      ...op.get(k('lr')),
      ...rounded(MV),
      ...op.get(k('bc1')),
      ...op.f64x2Div,
      ...op.f64x2Mul,
      ...rounded(VV),
      ...op.get(k('bc2')),
      ...op.f64x2Div,
      ...op.f64x2Sqrt,
      ...op.get(k('eps')),
      ...op.f64x2Add,
      ...op.f64x2Div,
      ...op.f64x2Sub,
    ]),
  ]),
];

/** The module's bytes: adam(params, grads, m, v, bytes, decays), the constants' float64s at byte 0. */
export function adamModule(): Uint8Array<ArrayBuffer> {
  return assemble([
    {
      name: 'adam',
      params: new Array<number>(6).fill(I32),
      locals: [
        [1, I32],
        [CONSTANTS.length + 4, V128],
      ],
      body: adamBody(),
    },
  ]);
}

let kernel: { memory: Memory; adam: (...args: number[]) => void } | null | undefined;

function adamKernel() {
  if (kernel !== undefined) return kernel;
  const bytes = adamModule();
  if (typeof WebAssembly !== 'object' || !WebAssembly.validate(bytes)) return (kernel = null);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  return (kernel = {
    memory: new Memory(instance.exports.mem as WebAssembly.Memory),
    adam: instance.exports.adam as (...args: number[]) => void,
  });
}

/** One Adam step in place: src/ops/cpu/adam.ts's bits, in WebAssembly SIMD where it runs in this thread. */
export function adam(
  params: Float32Array,
  grads: Float32Array,
  m: Float32Array,
  v: Float32Array,
  gradScale: number,
  step: number,
  s: AdamSettings,
): void {
  const k = activeKernel() && adamKernel();
  const n = params.length;
  const pairs = Math.ceil(n / 2) * 2;
  // byte addresses are i32: past 2 GiB the JS loop runs, as where memory cannot grow
  const floats = CONSTANTS_BYTES / 4 + 4 * pairs;
  if (!k || floats * 4 > 2 ** 31 || !k.memory.tryReserve(floats)) {
    adamJs(params, grads, m, v, gradScale, step, s);
    return;
  }
  const values = { gradScale, decay: s.lr * s.weightDecay, ...constants(step, s) };
  CONSTANTS.forEach((name, i) => {
    k.memory.d[i] = values[name];
  });
  const f = k.memory.f;
  // params, grads, m, v, each `pairs` floats (a last odd one followed by a zero)
  const at = [0, 1, 2, 3].map((i) => CONSTANTS_BYTES / 4 + i * pairs);
  [params, grads, m, v].forEach((a, i) => {
    f.set(a.subarray(0, n), at[i]);
    if (pairs > n) f[at[i]! + n] = 0;
  });
  k.adam(at[0]! * 4, at[1]! * 4, at[2]! * 4, at[3]! * 4, pairs * 4, s.weightDecay !== 0 ? 1 : 0);
  params.set(f.subarray(at[0]!, at[0]! + n));
  m.set(f.subarray(at[2]!, at[2]! + n));
  v.set(f.subarray(at[3]!, at[3]! + n));
}

/** The step's bias corrections and the moments' keep factors, as the reference computes them. */
function constants(step: number, s: AdamSettings) {
  return {
    beta1: s.beta1,
    keep1: 1 - s.beta1,
    beta2: s.beta2,
    keep2: 1 - s.beta2,
    bc1: 1 - s.beta1 ** step,
    bc2: 1 - s.beta2 ** step,
    lr: s.lr,
    eps: s.eps,
  };
}

/**
 * The JS loop: src/ops/cpu/adam.ts with its settings read once per call instead of once per
 * element, and the moments kept in registers: m and v are rounded to float32 (Math.fround) where
 * the reference stores and re-reads them, so every value is the reference's bits.
 */
export function adamJs(
  params: Float32Array,
  grads: Float32Array,
  m: Float32Array,
  v: Float32Array,
  gradScale: number,
  step: number,
  s: AdamSettings,
): void {
  const { beta1, keep1, beta2, keep2, bc1, bc2, lr, eps } = constants(step, s);
  const decay = lr * s.weightDecay;
  const n = params.length;
  for (let i = 0; i < n; i++) {
    const g = grads[i]! * gradScale;
    let p = params[i]!;
    if (s.weightDecay !== 0) p -= decay * p;
    const mi = Math.fround(beta1 * m[i]! + keep1 * g);
    const vi = Math.fround(beta2 * v[i]! + keep2 * g * g);
    m[i] = mi;
    v[i] = vi;
    params[i] = p - (lr * (mi / bc1)) / (Math.sqrt(vi / bc2) + eps);
  }
}
