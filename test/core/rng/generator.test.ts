// The generator's rules beyond the golden vectors: seeds, random64 word order, both randperm
// branches against a straightforward BigInt transcription, rand float64, randint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/core/errors.ts';
import { Mt19937, modSafe, mod64, rand, randint, randperm, RANDPERM_LARGE_N, seedToUint64 } from '../../../src/core/rng/index.ts';

test('the large-n threshold is 0xffffffff // 20', () => {
  assert.equal(RANDPERM_LARGE_N, Math.floor(0xffffffff / 20));
});

test("seeds: high 32 bits ignored, negatives as two's complement, bigint accepted", () => {
  const first = (s: number | bigint) => new Mt19937(s).random();
  assert.equal(first(2 ** 32 + 1), first(1));
  assert.equal(first(1n << 40n), first(0));
  assert.equal(first(-1), first(0xffffffff));
  assert.equal(first(-(2 ** 32)), first(0));
  assert.equal(first((1n << 64n) - 1n), first(0xffffffff));
  assert.equal(seedToUint64(-1), (1n << 64n) - 1n);
  assert.equal(seedToUint64(-(1n << 63n)), 1n << 63n);
});

test('seeds outside [-2^63, 2^64) and unsafe numbers are ConfigErrors', () => {
  assert.throws(() => new Mt19937(1n << 64n), ConfigError);
  assert.throws(() => new Mt19937(-(1n << 63n) - 1n), ConfigError);
  assert.throws(() => new Mt19937(2 ** 53), ConfigError);
  assert.throws(() => new Mt19937(1.5), ConfigError);
});

test('manualSeed restarts the stream', () => {
  const g = new Mt19937(7);
  const a = [g.random(), g.random()];
  g.manualSeed(7);
  assert.deepEqual([g.random(), g.random()], a);
});

test('random64 is (first << 32) | second', () => {
  const a = new Mt19937(3);
  const b = new Mt19937(3);
  for (let i = 0; i < 700; i++) {
    const hi = BigInt(b.random());
    const lo = BigInt(b.random());
    assert.equal(a.random64(), (hi << 32n) | lo);
  }
});

test('modSafe equals % on edge and random values', () => {
  const ys = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1];
  const ms = [1, 2, 3, 7, 2 ** 16 + 1, 214748363, 2 ** 31 - 2, 2 ** 31 - 1];
  for (const y of ys) for (const m of ms) assert.equal(modSafe(y, m), y % m, `${y} mod ${m}`);
  for (const m of ms)
    for (let q = 1; q * m < 2 ** 32 && q < 1e6; q = q * 3 + 1) {
      for (const y of [q * m - 1, q * m, q * m + 1]) if (y < 2 ** 32) assert.equal(modSafe(y, m), y % m, `${y} mod ${m}`);
    }
  const g = new Mt19937(99);
  for (let i = 0; i < 20000; i++) {
    const y = g.random();
    const m = ((g.random() >>> (g.random() % 32)) % (2 ** 31 - 1)) + 1;
    assert.equal(modSafe(y, m), y % m);
    const x = y * 2 ** 21 + (g.random() >>> 11); // up to 2^53 − 1
    assert.equal(modSafe(x, m), Number(BigInt(x) % BigInt(m)));
  }
});

test('mod64 equals BigInt modulo', () => {
  const g = new Mt19937(11);
  for (let i = 0; i < 5000; i++) {
    const hi = g.random();
    const lo = g.random();
    const m = i < 2500 ? (g.random() % 1000) + 1 : g.random() & 0x7fffffff || 1;
    assert.equal(mod64(hi, lo, m), Number(((BigInt(hi) << 32n) | BigInt(lo)) % BigInt(m)));
  }
});

/** PyTorch's randperm_cpu transcribed literally, with BigInt for the 64-bit branch. */
function referenceRandperm(n: number, g: Mt19937, threshold: number): number[] {
  const r: number[] = [];
  if (n < threshold) {
    for (let i = 0; i < n; i++) r.push(i);
    for (let i = 0; i < n - 1; i++) {
      const z = g.random() % (n - i);
      [r[i], r[i + z]] = [r[i + z]!, r[i]!];
    }
  } else {
    for (let i = 0; i < n; i++) {
      const z = Number(g.random64() % BigInt(i + 1));
      r[i] = r[z]!;
      r[z] = i;
    }
  }
  return r;
}

test('large-n branch (inside-out, 64-bit modulo) matches the BigInt transcription on small n', () => {
  for (const n of [0, 1, 2, 3, 10, 97, 1000, 4096]) {
    for (const seed of [0, 42, -5, 123456789]) {
      const got = randperm(n, new Mt19937(seed), { largeThreshold: 0 });
      assert.deepEqual(Array.from(got), referenceRandperm(n, new Mt19937(seed), 0), `n=${n} seed=${seed}`);
      assert.deepEqual(
        [...got].sort((a, b) => a - b),
        Array.from({ length: n }, (_, i) => i),
      );
    }
  }
});

test('large-n branch consumes two draws per element; small branch max(n−1, 0)', () => {
  for (const [n, threshold, draws] of [
    [10, 0, 20],
    [10, RANDPERM_LARGE_N, 9],
    [0, RANDPERM_LARGE_N, 0],
    [1, RANDPERM_LARGE_N, 0],
  ] as const) {
    const a = new Mt19937(5);
    randperm(n, a, { largeThreshold: threshold });
    const b = new Mt19937(5);
    for (let i = 0; i < draws; i++) b.random();
    assert.equal(a.random(), b.random(), `n=${n} threshold=${threshold}`);
  }
});

test('small-n branch matches the transcription for many n and seeds', () => {
  for (let n = 0; n < 300; n += 7) {
    assert.deepEqual(Array.from(randperm(n, new Mt19937(n * 31))), referenceRandperm(n, new Mt19937(n * 31), RANDPERM_LARGE_N));
  }
});

test('rand float64 = (random64 & (2^53 − 1)) / 2^53', () => {
  const values = rand(new Mt19937(9), 1000, 'float64');
  const g = new Mt19937(9);
  for (const v of values) {
    const bits = g.random64() & ((1n << 53n) - 1n);
    assert.equal(v, Number(bits) / 2 ** 53);
    assert.ok(v >= 0 && v < 1);
  }
});

test('randint = random() % range + low; ranges from 2^28 refused', () => {
  const got = randint(new Mt19937(4), -3, 17, 200);
  const g = new Mt19937(4);
  for (const v of got) assert.equal(v, (g.random() % 20) - 3);
  assert.throws(() => randint(new Mt19937(0), 0, 2 ** 28, 1), ConfigError);
  assert.throws(() => randint(new Mt19937(0), 5, 5, 1), ConfigError);
});

test('randperm rejects bad n', () => {
  assert.throws(() => randperm(-1, new Mt19937(0)), ConfigError);
  assert.throws(() => randperm(2.5, new Mt19937(0)), ConfigError);
});
