import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulhi32, philox4x32, unitFloat } from '../../../src/core/rng/philox.ts';

test('Philox4x32-10 reproduces Random123 known-answer vectors', () => {
  const hex = (v: number[]) => v.map((x) => x.toString(16).padStart(8, '0')).join(' ');
  assert.equal(hex(philox4x32([0, 0, 0, 0], [0, 0])), '6627e8d5 e169c58d bc57ac4c 9b00dbd8');
  assert.equal(
    hex(philox4x32([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff], [0xffffffff, 0xffffffff])),
    '408f276d 41c83b0e a20bc7c6 6d5451fd',
  );
  assert.equal(
    hex(philox4x32([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0])),
    'd16cfe09 94fdcceb 5001e420 24126ea1',
  );
});

test('mulhi32 agrees with BigInt products; unitFloat lies in [0, 1)', () => {
  for (const [a, b] of [
    [0xffffffff, 0xffffffff],
    [0xd2511f53, 0x12345678],
    [1, 0xffffffff],
    [0x10000, 0x10000],
  ]) {
    assert.equal(mulhi32(a!, b!), Number((BigInt(a!) * BigInt(b!)) >> 32n));
  }
  assert.equal(unitFloat(0), 0);
  assert.ok(unitFloat(0xffffffff) < 1);
});
