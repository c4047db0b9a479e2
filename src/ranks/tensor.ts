// A small tensor that knows which (simulated) device it lives on, so the sandbox can
// reproduce torch's "Expected all tensors to be on the same device" (seed-004): samples that
// crossed allGatherObject keep their origin rank's device until someone calls `.to(device)`.
// The data always lives in ordinary JS memory; `device` is the placement torch would track.
import { allocate, dtypeOf, type DType, type TypedArray } from './dtype.ts';

/** A device name: `sim:<rank>` for a simulated rank device, `cpu` for the main thread. */
export type DeviceName = string;

/** Raised by stack/cat when their inputs sit on different devices (torch's RuntimeError). */
export class DeviceMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceMismatchError';
  }
}

/** A dense row-major tensor: `data` holds prod(shape) elements; `device` is where it lives. */
export class Tensor {
  readonly data: TypedArray;
  readonly shape: readonly number[];
  readonly device: DeviceName;

  constructor(data: TypedArray, shape: readonly number[], device: DeviceName) {
    const numel = shape.reduce((a, b) => a * b, 1);
    if (shape.some((d) => !Number.isInteger(d) || d < 0))
      throw new RangeError(`tensor shape must be whole numbers ≥ 0, got [${shape.join(', ')}]`);
    if (numel !== data.length) throw new RangeError(`tensor shape [${shape.join(', ')}] needs ${numel} elements, data has ${data.length}`);
    this.data = data;
    this.shape = Object.freeze([...shape]);
    this.device = device;
  }

  get dtype(): DType {
    return dtypeOf(this.data);
  }

  /** Number of elements. */
  get numel(): number {
    return this.data.length;
  }

  /** This tensor on `device`: itself when already there (no copy), else a copy placed there. */
  to(device: DeviceName): Tensor {
    if (device === this.device) return this;
    return new Tensor(this.data.slice(), this.shape, device);
  }

  /** Shape as torch prints it, e.g. `[16, 1]`. */
  shapeText(): string {
    return `[${this.shape.join(', ')}]`;
  }
}

/** Throws torch's device error (seed-004) unless every tensor is on the same device; returns it. */
function commonDevice(op: string, tensors: readonly Tensor[]): DeviceName {
  const first = tensors[0]!.device;
  const other = tensors.findIndex((t) => t.device !== first);
  if (other >= 0) {
    throw new DeviceMismatchError(
      `Expected all tensors to be on the same device, but found tensors on ${tensors[other]!.device} and ${first} ` +
        `(${op}: tensor 0 is on ${first}, tensor ${other} on ${tensors[other]!.device}). ` +
        `Objects that crossed allGatherObject keep their origin device; move each with tensor.to(rank.device) first.`,
    );
  }
  return first;
}

function checkSameDtype(op: string, tensors: readonly Tensor[]): DType {
  const dtype = tensors[0]!.dtype;
  const other = tensors.findIndex((t) => t.dtype !== dtype);
  if (other >= 0)
    throw new TypeError(`${op}: tensor 0 is ${dtype} but tensor ${other} is ${tensors[other]!.dtype}; convert them to one dtype first`);
  return dtype;
}

/**
 * Concatenates tensors along `dim` (shapes must agree except on `dim`); same device required.
 * Result shape: input shape with shape[dim] = sum of the inputs' shape[dim].
 */
export function cat(tensors: readonly Tensor[], dim = 0): Tensor {
  if (tensors.length === 0) throw new RangeError('cat needs at least one tensor');
  const device = commonDevice('cat', tensors);
  const dtype = checkSameDtype('cat', tensors);
  const ref = tensors[0]!.shape;
  if (!Number.isInteger(dim) || dim < 0 || dim >= ref.length)
    throw new RangeError(`cat: dim ${dim} is out of range for ${ref.length}-d tensors`);
  for (const [i, t] of tensors.entries()) {
    const same = t.shape.length === ref.length && t.shape.every((d, k) => k === dim || d === ref[k]);
    if (!same)
      throw new RangeError(
        `cat: tensor ${i} has shape ${t.shapeText()}, tensor 0 has ${tensors[0]!.shapeText()}; only dim ${dim} may differ`,
      );
  }
  // Row-major: the tensor is `outer` blocks, each of shape[dim] × `inner` contiguous elements.
  const outer = ref.slice(0, dim).reduce((a, b) => a * b, 1);
  const inner = ref.slice(dim + 1).reduce((a, b) => a * b, 1);
  const total = tensors.reduce((s, t) => s + t.shape[dim]!, 0);
  const out = allocate(dtype, outer * total * inner);
  let at = 0;
  for (let o = 0; o < outer; o++) {
    for (const t of tensors) {
      const block = t.shape[dim]! * inner;
      out.set(t.data.subarray(o * block, (o + 1) * block) as never, at);
      at += block;
    }
  }
  const shape = [...ref];
  shape[dim] = total;
  return new Tensor(out, shape, device);
}

/** Stacks same-shape tensors along a new axis `dim`; same device required (seed-004's torch.stack). */
export function stack(tensors: readonly Tensor[], dim = 0): Tensor {
  if (tensors.length === 0) throw new RangeError('stack needs at least one tensor');
  commonDevice('stack', tensors);
  const ref = tensors[0]!.shape;
  if (!Number.isInteger(dim) || dim < 0 || dim > ref.length)
    throw new RangeError(`stack: dim ${dim} is out of range for ${ref.length}-d tensors`);
  for (const [i, t] of tensors.entries()) {
    if (t.shape.length !== ref.length || t.shape.some((d, k) => d !== ref[k])) {
      throw new RangeError(
        `stack expects each tensor to be equal size, but got ${tensors[0]!.shapeText()} at entry 0 and ${t.shapeText()} at entry ${i}`,
      );
    }
  }
  const unsqueezed = [...ref.slice(0, dim), 1, ...ref.slice(dim)];
  return cat(
    tensors.map((t) => new Tensor(t.data, unsqueezed, t.device)),
    dim,
  );
}
