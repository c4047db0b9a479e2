import type { ReduceOp } from '../codes.ts';

/** Reduces each row of x (rows × cols) to one number: out has `rows` values. Sums run in index order (float64). */
export function reduceRows(x: Float32Array, rows: number, cols: number, op: ReduceOp): Float32Array {
  const out = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let acc = op === 'max' ? -Infinity : 0;
    for (let c = 0; c < cols; c++) {
      const v = x[r * cols + c]!;
      acc = op === 'max' ? Math.max(acc, v) : acc + v;
    }
    out[r] = op === 'mean' ? acc / cols : acc;
  }
  return out;
}
