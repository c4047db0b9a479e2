// The reference MT19937 (Matsumoto & Nishimura's mt19937ar.c) with both of its seedings:
// init_genrand(s) and init_by_array(key). CPython's `random` seeds with init_by_array over the
// 32-bit words of abs(seed) (Modules/_randommodule.c: random_seed), NumPy's legacy RandomState
// with init_genrand(seed) (numpy/random/src/mt19937: mt19937_seed). The twist and tempering are
// the same as in ./mt19937.ts, whose state is private to PyTorch's seeding; this class exposes
// the raw words those two libraries draw.

import { temper, twistState } from './mt19937.ts';

const N = 624;

/** A raw MT19937 word stream; seed it with `initGenrand` or `initByArray` before drawing. */
export class Mt19937Words {
  private readonly state = new Uint32Array(N);
  private next = N + 1;

  /** mt19937ar.c init_genrand: s[0] = seed, s[j] = 1812433253 * (s[j-1] ^ (s[j-1] >>> 30)) + j. */
  initGenrand(seed: number): this {
    const s = this.state;
    s[0] = seed >>> 0;
    for (let j = 1; j < N; j++) {
      const prev = s[j - 1]!;
      s[j] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + j) >>> 0;
    }
    this.next = N;
    return this;
  }

  /** mt19937ar.c init_by_array: init_genrand(19650218), then mixes in the key words (each taken mod 2^32). */
  initByArray(key: ArrayLike<number>): this {
    this.initGenrand(19650218);
    const s = this.state;
    const len = key.length;
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, len); k > 0; k--) {
      const prev = s[i - 1]!;
      s[i] = ((s[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + (key[j]! >>> 0) + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        s[0] = s[N - 1]!;
        i = 1;
      }
      if (j >= len) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = s[i - 1]!;
      s[i] = ((s[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        s[0] = s[N - 1]!;
        i = 1;
      }
    }
    s[0] = 0x80000000; // MSB is 1, assuring a non-zero initial array
    this.next = N;
    return this;
  }

  private twist(): void {
    twistState(this.state);
    this.next = 0;
  }

  /** genrand_uint32: one tempered word in [0, 2^32). */
  nextUint32(): number {
    if (this.next > N) throw new Error('Mt19937Words: seed with initGenrand or initByArray before drawing');
    if (this.next === N) this.twist();
    return temper(this.state[this.next++]!);
  }

  /** genrand_res53 (CPython random(), NumPy random_sample()): (a >> 5, b >> 6) as 53 bits over 2^53. */
  nextDouble(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}
