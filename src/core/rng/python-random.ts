// CPython's `random.Random` (3.11; the draws are the same in 3.12-3.13) for integer seeds:
// Modules/_randommodule.c (seed, random, getrandbits) and Lib/random.py (_randbelow_with_getrandbits,
// shuffle, sample, randrange, randint, choice). Errors carry Python's own ValueError text.
import { ConfigError } from '../errors.ts';
import { Mt19937Words } from './mt19937-array.ts';

/** The 32-bit words of abs(seed), least significant first; [0] for 0 (random_seed's `keyused`). */
export function seedWords(seed: number | bigint): number[] {
  if (typeof seed === 'number' && !Number.isSafeInteger(seed)) {
    throw new ConfigError(`PythonRandom: seed must be an integer (got ${seed}); Python hashes other seeds`);
  }
  let n = BigInt(seed);
  if (n < 0n) n = -n;
  const words: number[] = [];
  do {
    words.push(Number(n & 0xffffffffn));
    n >>= 32n;
  } while (n > 0n);
  return words;
}

/** The number of bits of a non-negative safe integer (Python's int.bit_length). */
function bitLength(n: number): number {
  let k = 0;
  while (n >= 2 ** 31) {
    n = Math.floor(n / 2 ** 31);
    k += 31;
  }
  return k + (32 - Math.clz32(n));
}

/** Python's a // b (floor division), exact for safe integers. */
function floorDiv(a: number, b: number): number {
  const q = BigInt(a) / BigInt(b);
  const r = BigInt(a) % BigInt(b);
  return Number(r !== 0n && r < 0n !== b < 0 ? q - 1n : q);
}

function checkInt(name: string, x: number): void {
  if (!Number.isSafeInteger(x)) throw new ConfigError(`PythonRandom.${name}: ${x} is not a safe integer`);
}

/** `random.Random(seed)`: a generator seeded as CPython seeds it with an int. */
export class PythonRandom {
  private readonly mt = new Mt19937Words();

  constructor(seed: number | bigint) {
    this.seed(seed);
  }

  /** random.seed(seed) for an int: init_by_array over the 32-bit words of abs(seed). */
  seed(seed: number | bigint): this {
    this.mt.initByArray(seedWords(seed));
    return this;
  }

  /** random(): a float in [0, 1) from two words (genrand_res53). */
  random(): number {
    return this.mt.nextDouble();
  }

  /** getrandbits(k) for k ≤ 53, as a number. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0) throw new ConfigError('number of bits must be non-negative');
    if (k > 53) throw new ConfigError(`PythonRandom.getrandbits(${k}): use getrandbitsBig for more than 53 bits`);
    if (k === 0) return 0;
    if (k <= 32) return this.mt.nextUint32() >>> (32 - k);
    // Words are filled least significant first; the last one keeps only its top (k - 32) bits.
    const low = this.mt.nextUint32();
    const high = this.mt.nextUint32() >>> (64 - k);
    return high * 2 ** 32 + low;
  }

  /** getrandbits(k) for any k, as a bigint: ceil(k/32) words, least significant first, the last truncated to its top bits. */
  getrandbitsBig(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new ConfigError('number of bits must be non-negative');
    let result = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32) {
      let word = this.mt.nextUint32();
      if (left < 32) word >>>= 32 - left;
      result |= BigInt(word) << shift;
      shift += 32n;
    }
    return result;
  }

  /** _randbelow(n) = _randbelow_with_getrandbits: getrandbits(n.bit_length()) until it is below n. Requires n ≥ 1. */
  randbelow(n: number): number {
    checkInt('randbelow', n);
    // CPython's loop never ends for n = 0; callers (shuffle, sample, randrange) never pass it.
    if (n <= 0) throw new ConfigError(`PythonRandom.randbelow(${n}): n must be at least 1`);
    const k = bitLength(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** shuffle(xs) in place: for i from len-1 down to 1, swap xs[i] with xs[_randbelow(i + 1)]. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const t = xs[i]!;
      xs[i] = xs[j]!;
      xs[j] = t;
    }
    return xs;
  }

  /**
   * random.sample(range(n), k). CPython keeps a pool (partial Fisher–Yates, moving the last
   * unpicked item into the vacancy) when n ≤ setsize, else redraws _randbelow(n) until unseen;
   * setsize = 21, plus 4 ** ceil(log(3k, 4)) when k > 5.
   */
  sample(n: number, k: number): number[] {
    checkInt('sample', n);
    checkInt('sample', k);
    if (!(k >= 0 && k <= n)) throw new ConfigError('Sample larger than population or is negative');
    return sampleUsesPool(n, k) ? this.samplePool(n, k) : this.sampleSet(n, k);
  }

  private samplePool(n: number, k: number): number[] {
    const pool = Array.from({ length: n }, (_, i) => i);
    const result: number[] = new Array(k);
    for (let i = 0; i < k; i++) {
      const j = this.randbelow(n - i);
      result[i] = pool[j]!;
      pool[j] = pool[n - i - 1]!;
    }
    return result;
  }

  private sampleSet(n: number, k: number): number[] {
    const selected = new Set<number>();
    const result: number[] = new Array(k);
    for (let i = 0; i < k; i++) {
      let j = this.randbelow(n);
      while (selected.has(j)) j = this.randbelow(n);
      selected.add(j);
      result[i] = j;
    }
    return result;
  }

  /** randrange(stop) or randrange(start, stop[, step]), with Python 3.11's ValueError texts. */
  randrange(start: number, stop?: number, step = 1): number {
    checkInt('randrange', start);
    if (stop === undefined) {
      if (step !== 1) throw new ConfigError('Missing a non-None stop argument');
      if (start > 0) return this.randbelow(start);
      throw new ConfigError('empty range for randrange()');
    }
    checkInt('randrange', stop);
    checkInt('randrange', step);
    const width = stop - start;
    if (step === 1) {
      if (width > 0) return start + this.randbelow(width);
      throw new ConfigError(`empty range for randrange() (${start}, ${stop}, ${width})`);
    }
    let n: number;
    if (step > 0) n = floorDiv(width + step - 1, step);
    else if (step < 0) n = floorDiv(width + step + 1, step);
    else throw new ConfigError('zero step for randrange()');
    if (n <= 0) throw new ConfigError('empty range for randrange()');
    return start + step * this.randbelow(n);
  }

  /** randint(a, b) = randrange(a, b + 1): an integer in [a, b]. */
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }

  /** choice(seq) = seq[_randbelow(len(seq))]; Python raises IndexError on an empty sequence. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new ConfigError('Cannot choose from an empty sequence');
    return seq[this.randbelow(seq.length)]!;
  }
}

/** Whether random.sample(range(n), k) takes the pool branch (n ≤ setsize) rather than the set branch. */
export function sampleUsesPool(n: number, k: number): boolean {
  let setsize = 21;
  if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
  return n <= setsize;
}
