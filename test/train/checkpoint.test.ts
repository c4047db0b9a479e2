// checkpoint.json's float arrays: the base64 of their float32 bytes as btoa gives it (every byte
// remainder of the 3-byte groups), and decoding gives the same bits back. Runs under Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/train/checkpoint.ts';

/** btoa over the bytes as a binary string: the encoding the file format names. */
function btoaOf(a: Float32Array): string {
  let s = '';
  for (const b of new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) s += String.fromCharCode(b);
  return btoa(s);
}

test('parameters and Adam moments are written as btoa writes their bytes, and read back bit for bit', () => {
  // Lengths 0…7 cover 4n mod 3 = 0, 1, 2; the values include NaN, −0, infinities and subnormals.
  const special = [Number.NaN, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-45, -3.4e38, 0.1];
  for (let n = 0; n <= 7; n++) {
    const params = Float32Array.from({ length: n }, (_, i) => special[i % special.length]!);
    const m = Float32Array.from({ length: n }, (_, i) => Math.sin(i + 1));
    const v = Float32Array.from({ length: n }, (_, i) => i * 0.25);
    const file = encodeCheckpoint({ params, m, v, step: 3 }, 7);
    assert.equal(file.params, btoaOf(params), `n = ${n}`);
    assert.equal(file.adamM, btoaOf(m));
    const back = decodeCheckpoint(JSON.parse(JSON.stringify(file)), n, 'checkpoint.json');
    assert.deepEqual(new Uint32Array(back.params.buffer), new Uint32Array(params.buffer));
    assert.deepEqual(new Uint32Array(back.v.buffer), new Uint32Array(v.buffer));
  }
  // A large array, every byte value.
  const big = new Float32Array(new Uint8Array(4 * 100_003).map((_, i) => (i * 2654435761) >>> 24).buffer);
  assert.equal(encodeCheckpoint({ params: big, m: big, v: big, step: 0 }, 0).params, btoaOf(big));
});
