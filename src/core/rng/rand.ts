// torch.rand and torch.randint on the CPU generator (serial kernels, one draw per element).
import { ConfigError } from '../errors.ts';
import type { Mt19937 } from './mt19937.ts';

const TWO_24 = 16777216;
const TWO_32 = 4294967296;
const TWO_53 = 9007199254740992;

/** `torch.rand(count, generator=gen, dtype)`: uniform [0, 1) values; float32 uses 24 bits of one draw, float64 53 bits of random64(). */
export function rand(gen: Mt19937, count: number, dtype: 'float32' | 'float64' = 'float32'): Float64Array {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    if (dtype === 'float32') out[i] = (gen.random() & 0xffffff) / TWO_24;
    else {
      const [hi, lo] = gen.random64Words();
      // (random64 & (2^53 − 1)) / 2^53, built from the two words so it stays exact in a double.
      out[i] = ((hi & 0x1fffff) * TWO_32 + lo) / TWO_53;
    }
  }
  return out;
}

/** Largest range (high − low) for which every PyTorch version draws `random() % range` (wider ranges changed between versions). */
export const RANDINT_MAX_RANGE = 1 << 28;

/** `torch.randint(low, high, (count,), generator=gen)`: `random() % (high − low) + low` per element. */
export function randint(gen: Mt19937, low: number, high: number, count: number): Float64Array {
  const range = high - low;
  if (!Number.isSafeInteger(low) || !Number.isSafeInteger(high) || range < 1) {
    throw new ConfigError(`randint: need whole numbers low < high, got low=${low} high=${high}`);
  }
  if (range >= RANDINT_MAX_RANGE) {
    throw new ConfigError(
      `randint: range high−low=${range} must be below 2^28=${RANDINT_MAX_RANGE}; PyTorch versions draw wider ranges differently`,
    );
  }
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = (gen.random() % range) + low;
  return out;
}
