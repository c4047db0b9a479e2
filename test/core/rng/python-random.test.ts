// PythonRandom against CPython's own random.Random (test/fixtures/golden-python-random.json,
// written by scripts/golden/python_random.py): every call of every recorded sequence, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/core/errors.ts';
import { PythonRandom, sampleUsesPool, seedWords } from '../../../src/core/rng/python-random.ts';
import { fixture } from '../../helpers/fixtures.ts';

type Num = number | string; // integers past 2^53 are decimal strings
type Op = [string, number[], unknown];
interface Golden {
  python: string;
  pythonCases: { seed: Num; ops: Op[] }[];
  pythonStreams: { seed: Num; at: number[]; random: number[] }[];
}
const golden = fixture<Golden>('golden-python-random.json');
const seedOf = (s: Num) => (typeof s === 'string' ? BigInt(s) : s);
const intOf = (v: bigint | number): Num => (typeof v === 'bigint' && (v >= 2n ** 53n || v <= -(2n ** 53n)) ? String(v) : Number(v));

function replay(r: PythonRandom, [name, args]: Op): unknown {
  switch (name) {
    case 'random':
      return r.random();
    case 'getrandbits':
      return args[0]! <= 53 ? r.getrandbits(args[0]!) : intOf(r.getrandbitsBig(args[0]!));
    case 'randbelow':
      return r.randbelow(args[0]!);
    case 'shuffle':
      return r.shuffle(Array.from({ length: args[0]! }, (_, i) => i));
    case 'sample':
      return r.sample(args[0]!, args[1]!);
    case 'randrange':
      return r.randrange(args[0]!, args[1], args[2]);
    case 'randint':
      return r.randint(args[0]!, args[1]!);
    case 'choice':
      return r.choice(Array.from({ length: args[0]! }, (_, i) => i));
    default:
      throw new Error(`unknown op ${name}`);
  }
}

golden.pythonCases.forEach((c, i) => {
  test(`CPython ${golden.python} case ${i} (seed ${c.seed}): ${c.ops.length} calls equal`, () => {
    const r = new PythonRandom(seedOf(c.seed));
    c.ops.forEach((op, j) => assert.deepEqual(replay(r, op), op[2], `call ${j}: ${op[0]}(${op[1].join(', ')})`));
  });
});

for (const s of golden.pythonStreams) {
  test(`random() with seed ${s.seed} across three twists`, () => {
    const r = new PythonRandom(seedOf(s.seed));
    const values = Array.from({ length: 1000 }, () => r.random());
    assert.deepEqual(
      s.at.map((i) => values[i]),
      s.random,
    );
  });
}

test('getrandbits(k ≤ 53) equals getrandbitsBig(k) from the same state', () => {
  for (const k of [0, 1, 17, 32, 33, 52, 53]) {
    const a = new PythonRandom(99);
    const b = new PythonRandom(99);
    for (let i = 0; i < 50; i++) assert.equal(BigInt(a.getrandbits(k)), b.getrandbitsBig(k), `k=${k}`);
  }
});

test('seeds: abs(seed), words least significant first', () => {
  assert.deepEqual(seedWords(0), [0]);
  assert.deepEqual(seedWords(-5), [5]);
  assert.deepEqual(seedWords(2 ** 32), [0, 1]);
  assert.deepEqual(seedWords((1n << 64n) + 3n), [3, 0, 1]);
  assert.equal(new PythonRandom(-7).random(), new PythonRandom(7).random());
  assert.throws(() => new PythonRandom(1.5), ConfigError);
});

test('the sample branch threshold: 21 for k ≤ 5, then 21 + 4^ceil(log4(3k))', () => {
  assert.equal(sampleUsesPool(21, 5), true);
  assert.equal(sampleUsesPool(22, 5), false);
  assert.equal(sampleUsesPool(85, 6), true);
  assert.equal(sampleUsesPool(86, 21), false);
  assert.equal(sampleUsesPool(277, 22), true);
  assert.equal(sampleUsesPool(278, 22), false);
});

test("Python's errors", () => {
  const r = new PythonRandom(0);
  assert.throws(() => r.sample(3, 4), { message: 'Sample larger than population or is negative' });
  assert.throws(() => r.sample(3, -1), { message: 'Sample larger than population or is negative' });
  assert.throws(() => r.randrange(0), { message: 'empty range for randrange()' });
  assert.throws(() => r.randrange(5, 5), { message: 'empty range for randrange() (5, 5, 0)' });
  assert.throws(() => r.randint(3, 1), { message: 'empty range for randrange() (3, 2, -1)' });
  assert.throws(() => r.randrange(0, 10, 0), { message: 'zero step for randrange()' });
  assert.throws(() => r.getrandbits(-1), { message: 'number of bits must be non-negative' });
  assert.throws(() => r.randbelow(0), ConfigError);
});
