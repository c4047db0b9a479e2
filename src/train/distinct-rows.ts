// Rows of a rank's batch that share a trunk's input. The k copies of a prompt feed stage 1 the same
// row (the prompt's features), and copies that sampled the same insertion feed stage 2 the same row
// (the latency token of that insertion and its one-hot). A dense layer computes each row alone, so
// the trunk runs once per distinct input and its outputs are copied to the rows that share it: the
// same bits. Its weight gradient xᵀ·dz becomes x_distinctᵀ·(dz summed over each input's rows), the
// same sum in another order (float32 rounding apart). At 1 rank × 2048 rows of 256 prompts, stage 1
// runs on 256 rows instead of 2048: at the seed's dModel 2048 that is most of a step's arithmetic.
import { copyFloats } from '../core/rows.ts';
import type { OpsBackend } from '../ops/backend.ts';
import type { DenseOut, DenseShape } from '../ops/cpu/dense.ts';
import type { Workspace } from './workspace.ts';

/**
 * A trunk's input: the rows themselves (row r of `rows` is row r's input), or stage 1's prompt bank,
 * where the input of a row whose id is i is row i of `bank` (the prompt's features; a rollout's
 * stage-1 ids are its prompt ids), so nobody copies the bank's rows out for every copy of a prompt.
 */
export type TrunkInput = { rows: Float32Array } | { bank: Float32Array };

/** Which rows share an input: `count` distinct inputs, each row's index among them, and each one's first row. */
export interface DistinctRows {
  count: number;
  /** For each row, the index of its input among the distinct ones (numbered in order of first appearance). */
  of: Uint32Array;
  /** For each distinct input, the first row that has it. */
  first: Uint32Array;
}

/**
 * The distinct values of `ids` (one per row; equal ids mean equal inputs), numbered in order of
 * first appearance. An open-addressing table in `ws`'s arrays: nothing allocated per step.
 */
export function distinctRows(ids: Uint32Array, ws: Workspace, name: string): DistinctRows {
  const rows = ids.length;
  const of = ws.u32(`${name}.of`, rows);
  const first = ws.u32(`${name}.first`, rows);
  let size = 16;
  while (size < 2 * rows) size *= 2;
  const slots = ws.i32(`${name}.slots`, size).fill(-1);
  let count = 0;
  for (let r = 0; r < rows; r++) {
    const id = ids[r]!;
    let s = Math.imul(id, 0x9e3779b1) >>> 0;
    for (;;) {
      s &= size - 1;
      const u = slots[s]!;
      if (u < 0) {
        slots[s] = count;
        first[count] = r;
        of[r] = count++;
        break;
      }
      if (ids[first[u]!] === id) {
        of[r] = u;
        break;
      }
      s++;
    }
  }
  return { count, of, first: first.subarray(0, count) };
}

/** Each distinct input's row (`width` floats), in order, into `out`. */
function gatherInputs(x: TrunkInput, width: number, ids: Uint32Array, d: DistinctRows, out: Float32Array): Float32Array {
  const [data, byId] = 'bank' in x ? [x.bank, true] : [x.rows, false];
  for (let u = 0; u < d.count; u++) {
    const r = d.first[u]!;
    copyFloats(data, (byId ? ids[r]! : r) * width, out, u * width, width);
  }
  return out;
}

/** The rows themselves where every row's input is distinct and given row by row, else null. */
const allDistinctRows = (x: TrunkInput, d: DistinctRows, rows: number): Float32Array | null =>
  'rows' in x && d.count === rows ? x.rows : null;

/**
 * A trunk (dense with its activation) over every row of `x`, computed once per distinct input
 * (`ids`) and copied to the rows that share it; into `out` (rows × outDim each).
 */
export async function trunkForward(
  ops: OpsBackend,
  x: TrunkInput,
  ids: Uint32Array,
  w: Float32Array,
  b: Float32Array,
  shape: DenseShape,
  ws: Workspace,
  name: string,
  out: DenseOut,
): Promise<DenseOut> {
  const d = distinctRows(ids, ws, name);
  const every = allDistinctRows(x, d, shape.rows);
  if (every) return ops.dense(every, w, b, shape, out);
  const n = shape.outDim;
  const xd = gatherInputs(x, shape.inDim, ids, d, ws.f32Grown(`${name}.x`, d.count * shape.inDim));
  const h = await ops.dense(
    xd,
    w,
    b,
    { ...shape, rows: d.count },
    { z: ws.f32Grown(`${name}.z`, d.count * n), y: ws.f32Grown(`${name}.y`, d.count * n) },
  );
  for (let r = 0; r < shape.rows; r++) {
    copyFloats(h.z, d.of[r]! * n, out.z, r * n, n);
    copyFloats(h.y, d.of[r]! * n, out.y, r * n, n);
  }
  return out;
}

/**
 * A trunk's weight and bias gradients, xᵀ·dz and Σ dz over every row, as x_distinctᵀ·dz_summed:
 * each distinct input's dz rows added in row order (float32), then one row of the product per
 * distinct input.
 */
export async function trunkWeightGrad(
  ops: OpsBackend,
  x: TrunkInput,
  dz: Float32Array,
  ids: Uint32Array,
  shape: Omit<DenseShape, 'activation'>,
  ws: Workspace,
  name: string,
  out: { dw: Float32Array; db: Float32Array },
): Promise<{ dw: Float32Array; db: Float32Array }> {
  const d = distinctRows(ids, ws, name);
  const every = allDistinctRows(x, d, shape.rows);
  if (every) return ops.denseBackwardWeight(every, dz, shape, out);
  const n = shape.outDim;
  const xd = gatherInputs(x, shape.inDim, ids, d, ws.f32Grown(`${name}.x`, d.count * shape.inDim));
  const dzd = ws.f32Grown(`${name}.dz`, d.count * n).fill(0);
  for (let r = 0; r < shape.rows; r++) {
    const to = d.of[r]! * n;
    const from = r * n;
    for (let j = 0; j < n; j++) dzd[to + j]! += dz[from + j]!;
  }
  return ops.denseBackwardWeight(xd, dzd, { ...shape, rows: d.count }, out);
}
