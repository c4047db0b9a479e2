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

/** A TrunkCache's states of an input id. */
const ABSENT = 0;
const HELD = 1;
const COMPUTING = 2;

/**
 * A trunk's outputs (z and y rows) by input id, kept for the other ranks of a thread that hold the same
 * replica (src/train/replicas.ts's sharedRows says when they may use it): the rows of one input under one
 * set of weights have the same bits whichever rank, batch or position computes them (a dense layer computes
 * each row alone), so each distinct input of the thread's ranks is computed once. Only the forward is
 * shared: each rank's weight gradient stays its own sum over its own rows. The ranks of a thread take
 * turns at every op they await, so an input another rank is computing is awaited, not computed again.
 * The heads' softmax rows by input are kept in one likewise (src/train/shared-heads.ts).
 */
export class TrunkCache {
  private width = 0;
  private z = new Float32Array(0);
  private y = new Float32Array(0);
  /** Input id i's rows: ABSENT, HELD, or being computed by a rank (COMPUTING, awaited through `pending[pendingOf[i]]`). */
  private held = new Uint8Array(0);
  private pendingOf = new Int32Array(0);
  /** The computations under way or done since the last clear, each a rank's rows. */
  private pending: Promise<void>[] = [];
  /** Clears so far: rows computed before the last clear are not kept. */
  private clears = 0;

  /** Forgets every row (the weights changed). */
  clear(): void {
    this.held.fill(ABSENT);
    this.pending = [];
    this.clears++;
  }

  /** Room for ids below `ids` of `width` floats each (what is held is kept while the width is the same). */
  private fit(ids: number, width: number): void {
    if (width !== this.width) [this.width, this.held] = [width, new Uint8Array(0)];
    if (ids <= this.held.length) return;
    const size = Math.max(ids, 2 * this.held.length);
    const keep = this.held.length * width;
    const [z, y, held, pendingOf] = [
      new Float32Array(size * width),
      new Float32Array(size * width),
      new Uint8Array(size),
      new Int32Array(size),
    ];
    z.set(this.z.subarray(0, keep));
    y.set(this.y.subarray(0, keep));
    held.set(this.held);
    pendingOf.set(this.pendingOf.subarray(0, Math.min(this.pendingOf.length, size)));
    [this.z, this.y, this.held, this.pendingOf] = [z, y, held, pendingOf];
  }

  /**
   * Makes every distinct input `d` of rows `ids` held (`width` floats in each of the two arrays), computing only
   * the inputs no rank has computed or is computing (`compute`: the first row of each, their count → z and y rows
   * in that order; `missing` holds those rows until it has settled). What is held is read through `zRows` and
   * `yRows` (input id i's row at i × width) until the next await.
   */
  async hold(
    ids: Uint32Array,
    d: DistinctRows,
    width: number,
    missing: Uint32Array,
    compute: (missing: Uint32Array, count: number) => Promise<DenseOut>,
  ): Promise<void> {
    let top = 0;
    for (let u = 0; u < d.count; u++) top = Math.max(top, ids[d.first[u]!]! + 1);
    this.fit(top, width);
    const { held, pendingOf } = this;
    // The other ranks' computations to await (a few: one per rank that came before), by index into `pending`.
    const waits: number[] = [];
    let m = 0;
    for (let u = 0; u < d.count; u++) {
      const id = ids[d.first[u]!]!;
      const state = held[id];
      if (state === HELD) continue;
      if (state === COMPUTING) {
        const p = pendingOf[id]!;
        if (!waits.includes(p)) waits.push(p);
      } else missing[m++] = d.first[u]!;
    }
    const promises = waits.map((p) => this.pending[p]!);
    if (m > 0) {
      const clears = this.clears;
      const index = this.pending.length;
      const mine = compute(missing, m).then((h) => {
        if (clears !== this.clears) throw new Error('a trunk cache was cleared while a rank computed its rows');
        for (let j = 0; j < m; j++) {
          const id = ids[missing[j]!]!;
          copyFloats(h.z, j * width, this.z, id * width, width);
          copyFloats(h.y, j * width, this.y, id * width, width);
          this.held[id] = HELD;
        }
      });
      for (let j = 0; j < m; j++) {
        const id = ids[missing[j]!]!;
        held[id] = COMPUTING;
        pendingOf[id] = index;
      }
      this.pending.push(mine);
      promises.push(mine);
    }
    if (promises.length === 1) await promises[0];
    else if (promises.length) await Promise.all(promises);
  }

  /** The held z rows, input id i's at i × width (valid until the next await: a later hold may grow the arrays). */
  get zRows(): Float32Array {
    return this.z;
  }

  /** The held y rows, as zRows. */
  get yRows(): Float32Array {
    return this.y;
  }

  /** hold, then every row's z and y copied into `out` (rows × width each). */
  async rows(
    ids: Uint32Array,
    d: DistinctRows,
    width: number,
    missing: Uint32Array,
    compute: (missing: Uint32Array, count: number) => Promise<DenseOut>,
    out: DenseOut,
  ): Promise<DenseOut> {
    await this.hold(ids, d, width, missing, compute);
    const { z, y } = this;
    for (let r = 0; r < ids.length; r++) {
      copyFloats(z, ids[r]! * width, out.z, r * width, width);
      copyFloats(y, ids[r]! * width, out.y, r * width, width);
    }
    return out;
  }
}

/**
 * The rows the ranks of a thread that hold one replica share under its parameters, by input id: each stage's
 * trunk (z and y) and, on the fast backend, each stage's heads' softmax (probabilities and log-probabilities,
 * the stage's heads side by side; shared-heads.ts).
 */
export interface SharedRows {
  trunks: readonly [TrunkCache, TrunkCache];
  heads: readonly [TrunkCache, TrunkCache];
}

/**
 * A trunk (dense with its activation) over every row of `x`, computed once per distinct input
 * (`ids`) and copied to the rows that share it; into `out` (rows × outDim each). With `shared` (the
 * trunk's rows the other ranks of this thread computed under the same weights), only the inputs it
 * lacks are computed, and added to it. `d`: distinctRows of `ids` where the caller has it.
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
  shared: TrunkCache | null = null,
  d: DistinctRows = distinctRows(ids, ws, name),
): Promise<DenseOut> {
  if (shared) {
    const n = shape.outDim;
    const compute = (missing: Uint32Array, count: number) => {
      const xd = gatherInputs(x, shape.inDim, ids, { count, of: d.of, first: missing }, ws.f32Grown(`${name}.x`, count * shape.inDim));
      const z = ws.f32Grown(`${name}.z`, count * n);
      return ops.dense(xd, w, b, { ...shape, rows: count }, { z, y: ws.f32Grown(`${name}.y`, count * n) });
    };
    return shared.rows(ids, d, n, ws.u32(`${name}.missing`, shape.rows), compute, out);
  }
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
