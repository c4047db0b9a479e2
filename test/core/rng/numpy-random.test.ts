// NumpyRandomState against NumPy's own legacy RandomState (test/fixtures/golden-python-random.json,
// written by scripts/golden/python_random.py): every call of every recorded sequence, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NumpyRandomState } from '../../../src/core/rng/numpy-random.ts';
import { fixture } from '../../helpers/fixtures.ts';

type Op = [string, number[], unknown];
interface Golden {
  numpy: string;
  numpyCases: { seed: number; ops: Op[] }[];
}
const golden = fixture<Golden>('golden-python-random.json');

function replay(r: NumpyRandomState, [name, args]: Op): unknown {
  switch (name) {
    case 'randomSample':
      return r.randomSample();
    case 'permutation':
      return r.permutation(args[0]!);
    case 'shuffle':
      return r.shuffle(Array.from({ length: args[0]! }, (_, i) => i));
    case 'randint':
      return r.randint(args[0]!, args[1]);
    case 'randintSize':
      return r.randint(args[0]!, args[1], args[2]!);
    default:
      throw new Error(`unknown op ${name}`);
  }
}

golden.numpyCases.forEach((c, i) => {
  test(`NumPy ${golden.numpy} RandomState case ${i} (seed ${c.seed}): ${c.ops.length} calls equal`, () => {
    const r = new NumpyRandomState(c.seed);
    c.ops.forEach((op, j) => assert.deepEqual(replay(r, op), op[2], `call ${j}: ${op[0]}(${op[1].join(', ')})`));
  });
});

test("NumPy's errors", () => {
  assert.throws(() => new NumpyRandomState(-1), { message: 'Seed must be between 0 and 2**32 - 1' });
  assert.throws(() => new NumpyRandomState(2 ** 32), { message: 'Seed must be between 0 and 2**32 - 1' });
  const r = new NumpyRandomState(0);
  assert.throws(() => r.randint(0), { message: 'high <= 0' });
  assert.throws(() => r.randint(5, 5), { message: 'low >= high' });
});

test('randint(n, n + 1) draws nothing (range 0), as NumPy returns low without a word', () => {
  const a = new NumpyRandomState(3);
  const b = new NumpyRandomState(3);
  assert.equal(a.randint(7, 8), 7);
  assert.equal(a.randomSample(), b.randomSample());
});
