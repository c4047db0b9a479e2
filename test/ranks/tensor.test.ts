import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cat, DeviceMismatchError, stack, Tensor } from '../../src/ranks/tensor.ts';
import { decodeObject, encodeObject } from '../../src/ranks/objects.ts';

test('to(device) is a no-op (same object) when already there and a copy placed on the new device otherwise', () => {
  const t = new Tensor(new Float32Array([1, 2]), [2], 'sim:3');
  assert.equal(t.to('sim:3'), t);
  const moved = t.to('sim:2');
  assert.equal(moved.device, 'sim:2');
  assert.notEqual(moved.data, t.data);
  assert.deepEqual(Array.from(moved.data), [1, 2]);
});

test('stack and cat of tensors on different devices throw the seed-004 error; after .to() they work', () => {
  const a = new Tensor(new Float32Array([1, 2]), [1, 2], 'sim:2');
  const b = new Tensor(new Float32Array([3, 4]), [1, 2], 'sim:3');
  for (const op of [() => stack([a, b]), () => cat([a, b])]) {
    assert.throws(
      op,
      (e: Error) =>
        e instanceof DeviceMismatchError &&
        e.message.startsWith('Expected all tensors to be on the same device, but found tensors on sim:3 and sim:2'),
    );
  }
  const s = stack([a, b.to('sim:2')]);
  assert.deepEqual([s.shape, s.device, Array.from(s.data)], [[2, 1, 2], 'sim:2', [1, 2, 3, 4]]);
});

test('cat and stack follow torch on any dim (against hand-written results)', () => {
  const a = new Tensor(new Int32Array([1, 2, 3, 4]), [2, 2], 'cpu');
  const b = new Tensor(new Int32Array([5, 6]), [2, 1], 'cpu');
  const c1 = cat([a, b], 1);
  assert.deepEqual(
    [c1.shape, Array.from(c1.data)],
    [
      [2, 3],
      [1, 2, 5, 3, 4, 6],
    ],
  );
  const c0 = cat([a, new Tensor(new Int32Array([7, 8]), [1, 2], 'cpu')], 0);
  assert.deepEqual(
    [c0.shape, Array.from(c0.data)],
    [
      [3, 2],
      [1, 2, 3, 4, 7, 8],
    ],
  );
  const s1 = stack([a, a], 1);
  assert.deepEqual(
    [s1.shape, Array.from(s1.data)],
    [
      [2, 2, 2],
      [1, 2, 1, 2, 3, 4, 3, 4],
    ],
  );
  assert.throws(() => stack([a, b]), /stack expects each tensor to be equal size, but got \[2, 2\] at entry 0 and \[2, 1\] at entry 1/);
  assert.throws(() => new Tensor(new Float32Array(3), [2, 2], 'cpu'), /needs 4 elements, data has 3/);
});

test('objects round-trip with typed arrays, tensors (keeping their device), special numbers and $-keys', () => {
  const value = {
    prompt: 'a cat',
    ids: [1, 2, 3],
    nested: { ok: true, none: null, missing: undefined },
    logp: new Float64Array([-0.5, -1.25]),
    mask: new Uint8Array([1, 0, 1]),
    rewards: new Tensor(new Float32Array([0.5, 1, 1.5, 2]), [2, 2], 'sim:3'),
    odd: [NaN, Infinity, -Infinity],
    $ref: 'kept',
  };
  const back = decodeObject(encodeObject(value)) as typeof value;
  assert.equal(back.prompt, 'a cat');
  assert.deepEqual(back.ids, [1, 2, 3]);
  assert.deepEqual(back.nested, { ok: true, none: null, missing: undefined });
  assert.ok(back.logp instanceof Float64Array);
  assert.deepEqual(Array.from(back.logp), [-0.5, -1.25]);
  assert.deepEqual(Array.from(back.mask), [1, 0, 1]);
  assert.ok(back.rewards instanceof Tensor);
  assert.deepEqual([back.rewards.device, back.rewards.shape, Array.from(back.rewards.data)], ['sim:3', [2, 2], [0.5, 1, 1.5, 2]]);
  assert.deepEqual(back.odd, [NaN, Infinity, -Infinity]);
  assert.equal(back.$ref, 'kept');
  assert.throws(
    () => encodeObject({ when: new Map() }),
    /cannot send Map at value\.when: objects may hold plain data, arrays, typed arrays and Tensors/,
  );
});
