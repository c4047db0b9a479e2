"""Golden vectors for src/core/rng/python-random.ts and numpy-random.ts.

Run:  /work/golden-venv/bin/python scripts/golden/python_random.py [test/fixtures/golden-python-random.json]

Everything here is CPython's own `random.Random` (the interpreter running this script, 3.11.7 when
made) and NumPy's own legacy `np.random.RandomState` (2.4.6 when made); nothing is transcribed.
Each case seeds one generator and replays a sequence of calls on it; the test replays the same
sequence on the TypeScript port and compares every result. Integers past 2^53 are written as
decimal strings.
"""
import json
import math
import platform
import random
import sys

import numpy as np

SAFE = 2**53


def enc(v):
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        v = int(v)
        return v if -SAFE < v < SAFE else str(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    if isinstance(v, (list, tuple, np.ndarray)):
        return [enc(x) for x in v]
    raise TypeError(type(v))


def python_ops(seed, case):
    r = random.Random(seed)
    rng = random.Random(case)  # chooses the call sequence, not a result
    ops = []
    for _ in range(rng.randint(10, 30)):
        kind = rng.choice(['random', 'getrandbits', 'getrandbits', 'randbelow', 'randbelow', 'shuffle',
                           'sample', 'sample', 'randrange', 'randint', 'choice'])
        if kind == 'random':
            ops.append(['random', [], r.random()])
        elif kind == 'getrandbits':
            k = rng.choice([0, 1, 2, 5, 16, 31, 32, 33, 40, 52, 53, 54, 63, 64, 65, 96, 100, 127, 128, 200])
            ops.append(['getrandbits', [k], enc(r.getrandbits(k))])
        elif kind == 'randbelow':
            n = rng.choice([1, 2, 3, 5, 7, 8, 9, 10, 100, 1000, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1,
                            3 * 2**40, 2**53 - 1, rng.randint(1, 2**53 - 1), rng.randint(1, 10**6)])
            ops.append(['randbelow', [n], r._randbelow(n)])
        elif kind == 'shuffle':
            n = rng.choice([0, 1, 2, 3, 10, 17, 64, 100, 257, rng.randint(0, 300)])
            xs = list(range(n))
            r.shuffle(xs)
            ops.append(['shuffle', [n], xs])
        elif kind == 'sample':
            n = rng.choice([1, 5, 6, 20, 21, 22, 26, 27, 40, 80, 100, 128, 200, 1000, 5000, 10**6, 10**9,
                            rng.randint(1, 3000)])
            k = min(n, rng.choice([0, 1, 5, 6, 7, 10, 16, 21, 22, 50, 100, 300, rng.randint(0, min(n, 200))]))
            ops.append(['sample', [n, k], r.sample(range(n), k)])
        elif kind == 'randrange':
            start = rng.randint(-1000, 1000)
            stop = start + rng.randint(1, 10**6)
            step = rng.choice([1, 1, 2, 3, 7, -1, -5])
            if step < 0:
                start, stop = stop, start
            ops.append(['randrange', [start, stop, step], r.randrange(start, stop, step)])
        elif kind == 'randint':
            a = rng.randint(-10**6, 10**6)
            b = a + rng.choice([0, 1, 5, 99, 2**32, 2**40 + 3])
            ops.append(['randint', [a, b], r.randint(a, b)])
        else:
            n = rng.randint(1, 50)
            ops.append(['choice', [n], r.choice(range(n))])
    return ops


def numpy_ops(seed, case):
    r = np.random.RandomState(seed)
    rng = random.Random(case)
    ops = []
    for _ in range(rng.randint(8, 24)):
        kind = rng.choice(['random_sample', 'permutation', 'permutation', 'shuffle', 'randint', 'randint',
                           'randint_size', 'randint_high'])
        if kind == 'random_sample':
            ops.append(['randomSample', [], float(r.random_sample())])
        elif kind == 'permutation':
            n = rng.choice([0, 1, 2, 3, 10, 16, 17, 100, 255, 256, 257, 1000, rng.randint(0, 300)])
            ops.append(['permutation', [n], enc(r.permutation(n))])
        elif kind == 'shuffle':
            n = rng.choice([0, 1, 2, 5, 33, 128, rng.randint(0, 300)])
            xs = list(range(n))
            r.shuffle(xs)
            ops.append(['shuffle', [n], xs])
        elif kind == 'randint':
            low = rng.randint(-10**6, 10**6)
            high = low + rng.choice([1, 2, 3, 10, 1000, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**33 + 5,
                                     2**40 + 17, 2**52 + 3, rng.randint(1, 10**9)])
            ops.append(['randint', [low, high], enc(r.randint(low, high))])
        elif kind == 'randint_size':
            low = rng.randint(0, 100)
            high = low + rng.choice([1, 2, 7, 1000, 2**35])
            size = rng.randint(0, 20)
            ops.append(['randintSize', [low, high, size], enc(r.randint(low, high, size=size))])
        else:
            high = rng.choice([1, 2, 9, 64, 65, 10**6])
            ops.append(['randint', [high], enc(r.randint(high))])
    return ops


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'test/fixtures/golden-python-random.json'
    py_seeds = [0, 1, 2, 7, 42, 1234, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 5, 2**63 - 1, 2**64,
                10**30, -1, -42, -(2**33) - 7]
    np_seeds = [0, 1, 2, 7, 42, 1234, 2**31 - 1, 2**31, 2**32 - 1, 123456789]
    python = [{'seed': enc(s), 'ops': python_ops(s, i + 50 * j)} for j in range(3) for i, s in enumerate(py_seeds)]
    # random.sample on both sides of its pool/set threshold (setsize = 21 + 4 ** ceil(log(3k, 4)) for k > 5).
    for k in [0, 1, 5, 6, 7, 10, 21, 22, 42, 43, 85, 86]:
        setsize = 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0)
        for n in [max(k, setsize - 1), setsize, setsize + 1, 2 * setsize]:
            r = random.Random(1000 * k + n)
            python.append({'seed': 1000 * k + n, 'ops': [['sample', [n, k], r.sample(range(n), k)],
                                                        ['sample', [n, k], r.sample(range(n), k)]]})
    # random() streams long enough to cross several twists.
    python_streams = []
    for s in py_seeds:
        g = random.Random(s)
        values = [g.random() for _ in range(1000)]
        python_streams.append({'seed': enc(s), 'at': [0, 1, 311, 312, 313, 623, 624, 999],
                               'random': [values[i] for i in [0, 1, 311, 312, 313, 623, 624, 999]]})
    numpy = [{'seed': s, 'ops': numpy_ops(s, 100 + i)} for i, s in enumerate(np_seeds)]
    data = {
        'source': 'CPython random.Random and NumPy legacy RandomState, run by scripts/golden/python_random.py; '
                  'nothing transcribed',
        'python': platform.python_version(),
        'numpy': np.__version__,
        'pythonCases': python,
        'pythonStreams': python_streams,
        'numpyCases': numpy,
    }
    with open(out, 'w') as f:
        json.dump(data, f, separators=(',', ':'))
        f.write('\n')


if __name__ == '__main__':
    main()
