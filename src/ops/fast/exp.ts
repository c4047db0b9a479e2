// e^x for x ≤ 0 in plain float64 arithmetic, for the fast softmax: Math.exp is a call into the
// runtime's C library (~10 ns an element here, and Node's and Deno's V8 round it differently in the
// last bit for some x); this is inlined JavaScript, ~3 ns. x = −(k/32)·ln 2 + r with k an integer
// (rounded by adding and subtracting 1.5·2⁵², not Math.round, which profiled slower), |r| ≤ ln 2 / 64;
// e^r by its Taylor polynomial to degree 4; 2^(−k/32) from a 32-entry table (correctly rounded
// literals, not `2 ** x`, whose last bit differs between runtimes) times an exact power of two.
// Stated tolerance (test/ops/fast.test.ts): |expNonPositive(x) − e^x| ≤ 2⁻³⁸·e^x for −104 ≤ x ≤ 0
// (2⁻³⁹·⁵ measured); 0 below −104, where e^x < 2⁻¹⁵⁰ rounds to 0 in float32 (a probability e^x / sum
// with sum ≥ 1). Only add, multiply and table reads, so every runtime computes the same bits.

// fdlibm's ln 2 split in two: LN2_HI has 32 significant bits, so k·LN2_HI/32 is exact for k < 2²⁰.
const LN2_HI = 6.9314718036912382e-1;
const LN2_LO = 1.9082149292705877e-10;
const K_PER_X = 32 / Math.LN2;
const H = LN2_HI / 32;
const L = LN2_LO / 32;
const ROUND = 6755399441055744; // 1.5·2⁵²: (ROUND + y) − ROUND is y rounded to an integer, for |y| < 2⁵¹
const C3 = 1 / 6;
const C4 = 1 / 24;

/** 2^(−j/32), j = 0…31, correctly rounded. */
const FRACTION = Float64Array.of(
  1,
  0.9785720620877001,
  0.9576032806985737,
  0.93708381705515,
  0.9170040432046712,
  0.8973545375015536,
  0.8781260801866497,
  0.859309649061239,
  0.8408964152537145,
  0.8228777390769825,
  0.8052451659746271,
  0.7879904225539432,
  0.7711054127039704,
  0.7545822137967114,
  0.7384130729697497,
  0.7225904034885233,
  Math.SQRT1_2,
  0.691954940981916,
  0.6771277734684463,
  0.6626183215798707,
  0.6484197773255048,
  0.6345254785958666,
  0.620928906036742,
  0.6076236799902345,
  0.5946035575013605,
  0.5818624293887887,
  0.5693943173783458,
  0.5571933712979462,
  0.5452538663326288,
  0.5335702003384118,
  0.5221368912137069,
  0.5109485743270583,
);

/** 2^−i, i = 0…150 (exact). */
const POWER = Float64Array.from({ length: 151 }, (_, i) => 2 ** -i);

/** Below this, expNonPositive is 0. */
export const EXP_FLOOR = -104;

/** e^x for x ≤ 0 (the softmax's logit − max), within 2⁻³⁸·e^x; 0 for x < −104; NaN for NaN. */
export function expNonPositive(x: number): number {
  if (x < EXP_FLOOR) return 0;
  const kf = ROUND - x * K_PER_X - ROUND; // k = round(−x·32/ln 2), 0…4801
  const k = kf | 0;
  const r = x + kf * H + kf * L;
  const p = 1 + r * (1 + r * (0.5 + r * (C3 + r * C4)));
  return p * FRACTION[k & 31]! * POWER[k >> 5]!;
}
