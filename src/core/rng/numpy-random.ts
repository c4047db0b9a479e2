// NumPy's legacy `np.random.RandomState(seed)` / `np.random.seed(seed)` for an integer seed
// (numpy 2.x, numpy/random/mtrand.pyx, _mt19937.pyx _legacy_seeding, src/distributions):
// MT19937 seeded by init_genrand(seed); bounded integers by masked rejection (random_interval,
// random_bounded_uint64_fill with use_masked), 32-bit words when the range fits in 32 bits and
// 64-bit words (first word high) otherwise. Errors carry NumPy's own ValueError text.
import { ConfigError } from '../errors.ts';
import { Mt19937Words } from './mt19937-array.ts';

const TWO_32 = 2 ** 32;

/** The smallest all-ones mask ≥ max (gen_mask), for max < 2^53. */
function gen_mask(max: number): number {
  let mask = 1;
  while (mask < max) mask = mask * 2 + 1;
  return max === 0 ? 0 : mask;
}

/** `np.random.RandomState(seed)` for an int seed in [0, 2^32). */
export class NumpyRandomState {
  private readonly mt = new Mt19937Words();

  constructor(seed: number) {
    this.seed(seed);
  }

  /** RandomState.seed(seed): init_genrand(seed); NumPy rejects seeds outside [0, 2^32 - 1]. */
  seed(seed: number): this {
    if (!Number.isSafeInteger(seed)) throw new ConfigError(`NumpyRandomState: seed must be an integer (got ${seed})`);
    if (seed < 0 || seed > 0xffffffff) throw new ConfigError('Seed must be between 0 and 2**32 - 1');
    this.mt.initGenrand(seed);
    return this;
  }

  /** random_sample() / random(): a double in [0, 1) from two words (a >> 5, b >> 6). */
  randomSample(): number {
    return this.mt.nextDouble();
  }

  /** next_uint64 as the number hi * 2^32 + lo, masked (mask < 2^53, so the product stays exact). */
  private maskedUint64(mask: number): number {
    const hi = this.mt.nextUint32();
    const lo = this.mt.nextUint32();
    const maskHi = Math.floor(mask / TWO_32);
    const maskLo = mask % TWO_32;
    return ((hi & maskHi) >>> 0) * TWO_32 + ((lo & maskLo) >>> 0);
  }

  /** A value in [0, max] by masked rejection: 32-bit words when max < 2^32, else 64-bit (random_interval). */
  interval(max: number): number {
    if (!Number.isSafeInteger(max) || max < 0) throw new ConfigError(`NumpyRandomState.interval: bad max ${max}`);
    if (max === 0) return 0;
    const mask = gen_mask(max);
    let value: number;
    if (max <= 0xffffffff) {
      do value = (this.mt.nextUint32() & mask) >>> 0;
      while (value > max);
    } else {
      do value = this.maskedUint64(mask);
      while (value > max);
    }
    return value;
  }

  /**
   * randint(low, high) (dtype int64, the default): an integer in [low, high); randint(high) means
   * [0, high). With `size`, that many draws in order. Ranges past 2^53 are not supported.
   */
  randint(low: number, high?: number): number;
  randint(low: number, high: number | undefined, size: number): number[];
  randint(low: number, high?: number, size?: number): number | number[] {
    let lo = low;
    let hi = high;
    if (hi === undefined) {
      hi = lo;
      lo = 0;
    }
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) {
      throw new ConfigError(`NumpyRandomState.randint: bounds must be safe integers (got ${lo}, ${hi})`);
    }
    if (lo >= hi) throw new ConfigError(high === undefined ? 'high <= 0' : 'low >= high');
    const rng = hi - 1 - lo; // closed range [lo, hi - 1]
    if (size === undefined) return lo + this.interval(rng);
    return Array.from({ length: size }, () => lo + this.interval(rng));
  }

  /** shuffle(xs) in place (_shuffle_raw / the list loop): for i from n-1 down to 1, swap xs[i] with xs[random_interval(i)]. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.interval(i);
      const t = xs[i]!;
      xs[i] = xs[j]!;
      xs[j] = t;
    }
    return xs;
  }

  /** permutation(n): arange(n) shuffled. */
  permutation(n: number): number[] {
    if (!Number.isSafeInteger(n) || n < 0) throw new ConfigError(`NumpyRandomState.permutation: bad n ${n}`);
    return this.shuffle(Array.from({ length: n }, (_, i) => i));
  }
}
