import { KNOB3_WIDTH, knob3Valid } from '../../core/env/controller.ts';

/** Knob-3 option mask per row (rows × 16, 1 = valid) from each row's insertion action (0…4 ↔ p = 1…5), into `out` when given. */
export function knob3Mask(insertion: Uint32Array, out: Float32Array = new Float32Array(insertion.length * KNOB3_WIDTH)): Float32Array {
  const mask = out;
  for (let r = 0; r < insertion.length; r++) {
    for (let n = 0; n < KNOB3_WIDTH; n++) mask[r * KNOB3_WIDTH + n] = knob3Valid(insertion[r]! + 1, n) ? 1 : 0;
  }
  return mask;
}
