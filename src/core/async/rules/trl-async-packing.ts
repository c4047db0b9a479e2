// TRL async_grpo's planners (trl/experimental/async_grpo/async_grpo_trainer.py, the 1.13.0 wheel; the same code at
// huggingface/trl f2cd577 but for its drop counter): how a stream of samples becomes micro-batches of num_processes
// rows, one row per DP rank. A sample is its token count (len(input_ids)).

/** A micro-batch: per rank, the indices (into the input) of the samples its row holds, in placement order. */
export type MicroBatch = number[][];

/**
 * _balance_by_squared_length: longest first (Python's stable sort, reverse=True keeps equal lengths in input order),
 * each into the row with the smallest running Σ Lᵢ² (the first such row).
 */
export function balanceBySquaredLength(lengths: readonly number[], numProcesses: number): MicroBatch {
  const rows: MicroBatch = Array.from({ length: numProcesses }, () => []);
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b);
  // min(range(num_processes), key=load) is the row of least load, the first among equals: a heap on (load, row).
  const heap = new RowHeap(numProcesses);
  for (const s of order) {
    const n = lengths[s]!;
    const i = heap.top();
    rows[i]!.push(s);
    heap.addToTop(n * n);
  }
  return rows;
}

/** Rows 0..n−1 by (load, row), least first; loads start at 0 and only grow. */
class RowHeap {
  private readonly row: Int32Array;
  private readonly load: Float64Array;

  constructor(n: number) {
    this.row = Int32Array.from({ length: n }, (_, i) => i);
    this.load = new Float64Array(n);
  }

  /** The row of least load (the first among equals). */
  top(): number {
    return this.row[0]!;
  }

  /** Adds `x` to the top row's load and sifts it down. */
  addToTop(x: number): void {
    const { row, load } = this;
    const n = row.length;
    const r = row[0]!;
    const l = load[0]! + x;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && (load[c + 1]! < load[c]! || (load[c + 1] === load[c] && row[c + 1]! < row[c]!))) c++;
      if (load[c]! < l || (load[c] === l && row[c]! < r)) {
        row[i] = row[c]!;
        load[i] = load[c]!;
        i = c;
      } else break;
    }
    row[i] = r;
    load[i] = l;
  }
}

export interface TokenBudgetPacking {
  /** Micro-batches TokenBudgetBatcher yields, then the one still open when the samples run out (last, if any sample was placed). */
  microBatches: MicroBatch[];
  /** Indices of samples longer than token_budget, dropped with a warning. */
  dropped: number[];
}

/**
 * A micro-batch's rows for min(rows it fits, key=Σ Lᵢ²): among the rows where tokens + n ≤ budget, the first with the
 * smallest load; −1 where it fits none. A tree over the rows keeps each subtree's least tokens and least load, so the
 * search skips a subtree where nothing fits or nothing beats the best so far (10^5 samples over 1,024 ranks: typically
 * a few dozen nodes a sample instead of every row; at worst every node).
 */
class FittingRows {
  private readonly size: number;
  /** Per node (1 is the root, leaf size + i is row i): the least token count and the least Σ Lᵢ² below it. */
  private readonly tokens: Float64Array;
  private readonly squared: Float64Array;
  private best = -1;
  private bestSquared = 0;

  constructor(readonly rows: number) {
    let size = 1;
    while (size < rows) size *= 2;
    this.size = size;
    this.tokens = new Float64Array(2 * size).fill(Number.POSITIVE_INFINITY);
    this.squared = new Float64Array(2 * size).fill(Number.POSITIVE_INFINITY);
    this.clear();
  }

  /** Every row empty (a fresh micro-batch). */
  clear(): void {
    this.tokens.fill(0, this.size, this.size + this.rows);
    this.squared.fill(0, this.size, this.size + this.rows);
    for (let i = this.size - 1; i >= 1; i--) this.pull(i);
  }

  /** min(fitting rows, key=load): the first row of least Σ Lᵢ² where tokens + n ≤ budget; −1 where none fits. */
  fittingArgmin(n: number, budget: number): number {
    this.best = -1;
    this.bestSquared = Number.POSITIVE_INFINITY;
    this.visit(1, budget - n);
    return this.best;
  }

  /** Places a sample of `n` tokens in `row`. */
  add(row: number, n: number): void {
    let i = this.size + row;
    this.tokens[i]! += n;
    this.squared[i]! += n * n;
    for (i >>= 1; i >= 1; i >>= 1) this.pull(i);
  }

  /** Left before right, and only a strictly smaller load replaces the best: the first row among equals wins. */
  private visit(node: number, room: number): void {
    if (this.tokens[node]! > room || this.squared[node]! >= this.bestSquared) return;
    if (node >= this.size) {
      this.best = node - this.size;
      this.bestSquared = this.squared[node]!;
      return;
    }
    this.visit(2 * node, room);
    this.visit(2 * node + 1, room);
  }

  private pull(i: number): void {
    this.tokens[i] = Math.min(this.tokens[2 * i]!, this.tokens[2 * i + 1]!);
    this.squared[i] = Math.min(this.squared[2 * i]!, this.squared[2 * i + 1]!);
  }
}

/**
 * TokenBudgetBatcher.__iter__ over `lengths` in pull order: a sample longer than the budget is dropped; otherwise it goes
 * to the row with the smallest Σ Lᵢ² among those it fits (token count + n ≤ budget); when it fits none, the micro-batch
 * is yielded and a fresh one started with it. TRL keeps the last open micro-batch for the next samples; here it is
 * returned as the last one.
 */
export function packByTokenBudget(lengths: readonly number[], numProcesses: number, tokenBudget: number): TokenBudgetPacking {
  const microBatches: MicroBatch[] = [];
  const dropped: number[] = [];
  let rows: MicroBatch = Array.from({ length: numProcesses }, () => []);
  const fitting = new FittingRows(numProcesses);
  let placed = false;
  lengths.forEach((n, s) => {
    if (n > tokenBudget) {
      dropped.push(s);
      return;
    }
    let i = fitting.fittingArgmin(n, tokenBudget);
    if (i < 0) {
      microBatches.push(rows);
      rows = Array.from({ length: numProcesses }, () => []);
      fitting.clear();
      i = 0;
    }
    rows[i]!.push(s);
    fitting.add(i, n);
    placed = true;
  });
  if (placed) microBatches.push(rows);
  return { microBatches, dropped };
}
