// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): a
// counter-based generator. Output = a keyed bijection of a 128-bit counter, so any (seed, rank,
// step, row) gets its own numbers without any state shared between threads or ranks.
// shaders/philox.wgsl is the same code in WGSL; both pass Random123's known-answer vectors.

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;

/** High 32 bits of the 64-bit product of two uint32 (by 16-bit halves, exactly as the WGSL does it). */
export function mulhi32(a: number, b: number): number {
  const aLo = a & 0xffff,
    aHi = a >>> 16,
    bLo = b & 0xffff,
    bHi = b >>> 16;
  const lolo = aLo * bLo;
  const mid1 = aHi * bLo + (lolo >>> 16);
  const mid2 = aLo * bHi + (mid1 & 0xffff);
  return (aHi * bHi + (mid1 >>> 16) + (mid2 >>> 16)) >>> 0;
}

/** Philox4x32 with 10 rounds: counter (4 × uint32), key (2 × uint32) → 4 × uint32. */
export function philox4x32(counter: readonly number[], key: readonly number[]): [number, number, number, number] {
  // Plain locals, not arrays (the task's prompts and block are ~10 million calls at dModel 2048).
  let c0 = counter[0]! >>> 0,
    c1 = counter[1]! >>> 0,
    c2 = counter[2]! >>> 0,
    c3 = counter[3]! >>> 0;
  let k0 = key[0]! >>> 0,
    k1 = key[1]! >>> 0;
  for (let round = 0; round < 10; round++) {
    if (round > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const hi0 = mulhi32(M0, c0),
      lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulhi32(M1, c2),
      lo1 = Math.imul(M1, c2) >>> 0;
    const next0 = (hi1 ^ c1 ^ k0) >>> 0;
    const next2 = (hi0 ^ c3 ^ k1) >>> 0;
    c0 = next0;
    c1 = lo1;
    c2 = next2;
    c3 = lo0;
  }
  return [c0, c1, c2, c3];
}

/** A uint32 as a float in [0, 1) with 24 random bits: exactly representable in float32, so CPU and GPU agree bit for bit. */
export function unitFloat(bits: number): number {
  return (bits >>> 8) / 16777216;
}

/** The sandbox's RNG key: a seed (safe integer, split into two uint32 words) for Philox's key. */
export function philoxKey(seed: number): [number, number] {
  return [seed >>> 0, Math.floor(seed / 4294967296) >>> 0];
}
