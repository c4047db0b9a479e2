// PyTorch's seed rule: a Python int becomes a uint64 (negative seeds as two's complement),
// and only its low 32 bits seed MT19937. Seeds outside [-2^63, 2^64) are an error there too.
import { configError, fact } from '../messages/index.ts';

/** What a generator may be seeded with: a safe integer or a bigint. */
export type Seed = number | bigint;

const TWO_64 = 1n << 64n;
const MIN_SEED = -(1n << 63n);

/** The uint64 PyTorch stores for `seed` (two's complement for negatives); throws ConfigError outside [-2^63, 2^64). */
export function seedToUint64(seed: Seed): bigint {
  let big: bigint;
  if (typeof seed === 'bigint') big = seed;
  else {
    if (!Number.isSafeInteger(seed)) {
      throw configError([fact('seed.not-safe', { got: seed })]);
    }
    big = BigInt(seed);
  }
  if (big >= TWO_64 || big < MIN_SEED) {
    throw configError([fact('seed.outside-torch', { seed: String(big), low32: String(BigInt.asUintN(32, big)) })]);
  }
  return BigInt.asUintN(64, big);
}

/** The 32 bits MT19937 is actually seeded with (PyTorch ignores the high word). */
export function seedLow32(seed: Seed): number {
  if (typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0 && seed <= 0xffffffff) return seed;
  return Number(seedToUint64(seed) & 0xffffffffn);
}
