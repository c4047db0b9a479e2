// MT19937 exactly as PyTorch's CPU generator runs it (ATen's mt19937 engine): init_genrand
// from the low 32 bits of the seed, the standard twist of 624 words, the standard tempering.
// State lives in a Uint32Array and every product goes through Math.imul so the hot loop stays
// in 32-bit integers (randperm(10^6) draws a million outputs).
import { seedLow32, type Seed } from './seed.ts';

const N = 624;
const M = 397;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;
const MATRIX_A = 0x9908b0df;

/** A PyTorch-compatible CPU generator: `new Mt19937(seed)` ≙ `torch.Generator().manual_seed(seed)`. */
export class Mt19937 {
  private readonly state = new Uint32Array(N);
  private next = N;

  /** Without a seed, PyTorch's default generator seed (default_rng_seed_val = 67280421310721). */
  constructor(seed: Seed = 67280421310721n) {
    this.manualSeed(seed);
  }

  /** Re-seeds in place, as `generator.manual_seed(seed)` does. */
  manualSeed(seed: Seed): this {
    const s = this.state;
    s[0] = seedLow32(seed);
    for (let j = 1; j < N; j++) {
      const prev = s[j - 1]!;
      // 1812433253 * (prev ^ (prev >>> 30)) + j, modulo 2^32
      s[j] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + j) >>> 0;
    }
    this.next = N; // the first draw regenerates the whole state, as the reference does
    return this;
  }

  /** Regenerates all 624 words (the "twist"). */
  private twist(): void {
    twistState(this.state);
    this.next = 0;
  }

  /** One tempered 32-bit output, as an unsigned number in [0, 2^32) (PyTorch's `random()`). */
  random(): number {
    if (this.next >= N) this.twist();
    return temper(this.state[this.next++]!);
  }

  /** Two outputs as [high, low] 32-bit words, the first draw being the high word (PyTorch's `random64()`). */
  random64Words(): [number, number] {
    const hi = this.random();
    return [hi, this.random()];
  }

  /** PyTorch's `random64()` as a bigint: `(first << 32) | second`. */
  random64(): bigint {
    const [hi, lo] = this.random64Words();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }
}

/** MT19937's twist: regenerates all 624 words of `s` in place (the reference's genrand loop, shared by every seeding). */
export function twistState(s: Uint32Array): void {
  let kk = 0;
  for (; kk < N - M; kk++) {
    const y = (s[kk]! & UPPER) | (s[kk + 1]! & LOWER);
    s[kk] = s[kk + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
  }
  for (; kk < N - 1; kk++) {
    const y = (s[kk]! & UPPER) | (s[kk + 1]! & LOWER);
    s[kk] = s[kk + M - N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
  }
  const y = (s[N - 1]! & UPPER) | (s[0]! & LOWER);
  s[N - 1] = s[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
}

/** MT19937's tempering of one state word: the unsigned 32-bit output. */
export function temper(word: number): number {
  let y = word;
  y ^= y >>> 11;
  y ^= (y << 7) & 0x9d2c5680;
  y ^= (y << 15) & 0xefc60000;
  y ^= y >>> 18;
  return y >>> 0;
}
