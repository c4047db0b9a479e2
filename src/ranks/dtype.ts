// Element types a tensor or a collective payload may have, and their codes in the arena's
// header words (so every rank can see what the others sent).

export type TypedArray = Float32Array | Float64Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

export type DType = 'float32' | 'float64' | 'int32' | 'uint32' | 'int16' | 'uint16' | 'int8' | 'uint8';

type TypedArrayCtor = {
  new (length: number): TypedArray;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray;
  BYTES_PER_ELEMENT: number;
};

/** Codes are 1-based so that 0 in a header word means "nothing posted". */
export const DTYPES: readonly { name: DType; ctor: TypedArrayCtor }[] = [
  { name: 'float32', ctor: Float32Array },
  { name: 'float64', ctor: Float64Array },
  { name: 'int32', ctor: Int32Array },
  { name: 'uint32', ctor: Uint32Array },
  { name: 'int16', ctor: Int16Array },
  { name: 'uint16', ctor: Uint16Array },
  { name: 'int8', ctor: Int8Array },
  { name: 'uint8', ctor: Uint8Array },
];

/** The dtype of a typed array; throws for Uint8ClampedArray, BigInt arrays and non-arrays. */
export function dtypeOf(data: ArrayBufferView): DType {
  for (const d of DTYPES) if (data instanceof d.ctor) return d.name;
  const what = (data as object)?.constructor?.name ?? typeof data;
  throw new TypeError(`unsupported element type ${what}; use one of ${DTYPES.map((d) => d.name).join(', ')}`);
}

/** The 1-based header code of a dtype. */
export function dtypeCode(dtype: DType): number {
  return DTYPES.findIndex((d) => d.name === dtype) + 1;
}

/** The dtype for a 1-based header code. */
export function dtypeFromCode(code: number): DType {
  const d = DTYPES[code - 1];
  if (!d) throw new RangeError(`no dtype has code ${code}`);
  return d.name;
}

/** The typed-array constructor of a dtype. */
export function ctorOf(dtype: DType): TypedArrayCtor {
  return DTYPES.find((d) => d.name === dtype)!.ctor;
}

/** A new zeroed array of `length` elements of `dtype`. */
export function allocate(dtype: DType, length: number): TypedArray {
  return new (ctorOf(dtype))(length);
}

/** A view of `length` elements of `dtype` at `byteOffset` of `buffer` (no copy). */
export function viewOf(dtype: DType, buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray {
  return new (ctorOf(dtype))(buffer, byteOffset, length);
}
