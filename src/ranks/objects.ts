// Turns structured data (samples with prompts, ids and tensors) into bytes and back, the same
// way in every runtime, so allGatherObject can move it through the arena like torch's
// all_gather_object pickles it. Tensors keep their origin device (the point of seed-004).
// Carried: null, booleans, numbers (NaN and ±Infinity too), strings, undefined, arrays,
// plain objects, typed arrays and Tensors. Anything else is refused with its path.
import { ctorOf, dtypeOf, type DType, type TypedArray } from './dtype.ts';
import { Tensor } from './tensor.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

class Writer {
  chunks: Uint8Array[] = [];
  bytes = 0;
  /** Appends an array's bytes at an 8-byte-aligned offset (so every dtype can be viewed in place). */
  add(data: TypedArray): number {
    const pad = (8 - (this.bytes % 8)) % 8;
    if (pad) {
      this.chunks.push(new Uint8Array(pad));
      this.bytes += pad;
    }
    const at = this.bytes;
    this.chunks.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.bytes += data.byteLength;
    return at;
  }
}

function toJson(value: unknown, w: Writer, path: string): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (value === undefined) return { $u: 1 };
  if (typeof value === 'number') return Number.isFinite(value) ? value : { $n: String(value) };
  if (value instanceof Tensor) return { $t: value.dtype, o: w.add(value.data), n: value.numel, s: [...value.shape], d: value.device };
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const data = value as TypedArray;
    return { $a: dtypeOf(data), o: w.add(data), n: data.length };
  }
  if (Array.isArray(value)) return value.map((v, i) => toJson(v, w, `${path}[${i}]`));
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    const out: { [k: string]: Json } = {};
    let escaped = false;
    for (const [k, v] of Object.entries(value as object)) {
      if (k.startsWith('$')) escaped = true;
      out[k] = toJson(v, w, `${path}.${k}`);
    }
    return escaped ? { $o: out } : out;
  }
  const what = typeof value === 'object' ? (proto?.constructor?.name ?? 'object') : typeof value;
  throw new TypeError(`cannot send ${what} at ${path}: objects may hold plain data, arrays, typed arrays and Tensors`);
}

/** Encodes `value` as [u32 JSON bytes][u32 binary bytes][JSON][pad to 8][binary]. */
export function encodeObject(value: unknown): Uint8Array {
  const w = new Writer();
  const json = new TextEncoder().encode(JSON.stringify(toJson(value, w, 'value')));
  const head = 8 + json.length;
  const binAt = Math.ceil(head / 8) * 8;
  const out = new Uint8Array(binAt + w.bytes);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, json.length, true);
  dv.setUint32(4, w.bytes, true);
  out.set(json, 8);
  let at = binAt;
  for (const c of w.chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function fromJson(j: Json, bin: Uint8Array): unknown {
  if (j === null || typeof j !== 'object') return j;
  if (Array.isArray(j)) return j.map((v) => fromJson(v, bin));
  if ('$u' in j) return undefined;
  if ('$n' in j) return Number(j.$n);
  if ('$o' in j) return Object.fromEntries(Object.entries(j.$o as { [k: string]: Json }).map(([k, v]) => [k, fromJson(v, bin)]));
  if ('$a' in j || '$t' in j) {
    const dtype = (j.$a ?? j.$t) as DType;
    const ctor = ctorOf(dtype);
    const n = j.n as number;
    // A copy: the caller's bytes may be reused, and each array must own its memory.
    const data = new ctor(
      bin.buffer.slice(bin.byteOffset + (j.o as number), bin.byteOffset + (j.o as number) + n * ctor.BYTES_PER_ELEMENT),
      0,
      n,
    );
    return '$t' in j ? new Tensor(data, j.s as number[], j.d as string) : data;
  }
  return Object.fromEntries(Object.entries(j).map(([k, v]) => [k, fromJson(v, bin)]));
}

/** Decodes what encodeObject produced (from a non-shared copy of the bytes). */
export function decodeObject(bytes: Uint8Array): unknown {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonBytes = dv.getUint32(0, true);
  const binAt = Math.ceil((8 + jsonBytes) / 8) * 8;
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + jsonBytes))) as Json;
  return fromJson(json, bytes.subarray(binAt));
}
