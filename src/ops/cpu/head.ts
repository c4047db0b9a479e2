// A "head" is a column slice of a logits matrix: the seed-003 controller writes several heads
// (tier | insertion, knob-2 | knob-3) side by side in one dense output, and each head has its
// own softmax, sampler and gradient. Every head op takes this shape.

/** Where one head sits in a row-major logits matrix: `width` columns from `offset`, rows `stride` apart. */
export interface HeadShape {
  rows: number;
  stride: number;
  offset: number;
  width: number;
}

/** Options marked valid (mask value ≠ 0) for a head; a missing mask means every option is valid. */
export function isValid(mask: Float32Array | null, row: number, option: number, width: number): boolean {
  return mask === null || mask[row * width + option] !== 0;
}

/** Checks that a head fits its buffers; throws with the numbers otherwise (a bug, not a user mistake). */
export function checkHead(h: HeadShape, logitsLength: number, mask: Float32Array | null): void {
  if (h.offset + h.width > h.stride)
    throw new RangeError(`head columns ${h.offset}..${h.offset + h.width} exceed the row stride ${h.stride}`);
  if (h.rows * h.stride > logitsLength) throw new RangeError(`head needs ${h.rows} × ${h.stride} logits, buffer has ${logitsLength}`);
  if (mask && mask.length !== h.rows * h.width) throw new RangeError(`mask has ${mask.length} values, head needs ${h.rows} × ${h.width}`);
}
