import { INSERTION_POSITIONS, KNOB3_WIDTH, knob3Valid } from '../../core/env/controller.ts';

/** Each insertion action's mask row (knob3Valid per option), built once. */
const ROWS = INSERTION_POSITIONS.map((_, a) => Float32Array.from({ length: KNOB3_WIDTH }, (_, n) => (knob3Valid(a + 1, n) ? 1 : 0)));

/**
 * src/ops/cpu/knob3Mask.ts by copying each row from a table of the five insertion actions' rows
 * (the reference asks knob3Valid for every option of every row); any other action (NO_OPTION)
 * goes through knob3Valid as there. The same values.
 */
export function knob3Mask(insertion: Uint32Array, out: Float32Array = new Float32Array(insertion.length * KNOB3_WIDTH)): Float32Array {
  for (let r = 0; r < insertion.length; r++) {
    const a = insertion[r]!;
    const row = a < ROWS.length ? ROWS[a]! : null;
    for (let n = 0; n < KNOB3_WIDTH; n++) out[r * KNOB3_WIDTH + n] = row ? row[n]! : knob3Valid(a + 1, n) ? 1 : 0;
  }
  return out;
}
