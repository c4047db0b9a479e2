// Philox4x32-10 as src/core/rng/philox.ts defines it, with the counter and key in local
// variables instead of arrays (the reference allocates three arrays per call; a sampling step
// draws one uniform per row per head). Integer arithmetic only, so the words are identical.

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;

/**
 * High 32 bits of the 64-bit product, by 16-bit halves: the reference's mulhi32, repeated here
 * because the cross-module call to it profiled at 6% of a fast step under tsx.
 */
function mulhi(a: number, b: number): number {
  const aLo = a & 0xffff,
    aHi = a >>> 16,
    bLo = b & 0xffff,
    bHi = b >>> 16;
  const lolo = aLo * bLo;
  const mid1 = aHi * bLo + (lolo >>> 16);
  const mid2 = aLo * bHi + (mid1 & 0xffff);
  return (aHi * bHi + (mid1 >>> 16) + (mid2 >>> 16)) >>> 0;
}

/** The first output word of philox4x32([c0, c1, c2, c3], [k0, k1]). */
export function philoxWord0(c0: number, c1: number, c2: number, c3: number, k0: number, k1: number): number {
  c0 >>>= 0;
  c1 >>>= 0;
  c2 >>>= 0;
  c3 >>>= 0;
  k0 >>>= 0;
  k1 >>>= 0;
  for (let round = 0; round < 10; round++) {
    if (round > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const hi0 = mulhi(M0, c0),
      lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulhi(M1, c2),
      lo1 = Math.imul(M1, c2) >>> 0;
    c0 = (hi1 ^ c1 ^ k0) >>> 0;
    c1 = lo1;
    c2 = (hi0 ^ c3 ^ k1) >>> 0;
    c3 = lo0;
  }
  return c0;
}
