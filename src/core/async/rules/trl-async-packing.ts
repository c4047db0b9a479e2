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
 * min(rows it fits, key=Σ Lᵢ²): among the rows where tokens + n ≤ budget, the first with the smallest load; −1 where it
 * fits none (one pass, no list of candidates: 10^5 samples over 1,024 ranks).
 */
function fittingArgmin(tokens: readonly number[], squared: readonly number[], n: number, budget: number): number {
  let best = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]! + n <= budget && (best < 0 || squared[i]! < squared[best]!)) best = i;
  }
  return best;
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
  let squared = new Array<number>(numProcesses).fill(0);
  let tokens = new Array<number>(numProcesses).fill(0);
  let placed = false;
  lengths.forEach((n, s) => {
    if (n > tokenBudget) {
      dropped.push(s);
      return;
    }
    let i = fittingArgmin(tokens, squared, n, tokenBudget);
    if (i < 0) {
      microBatches.push(rows);
      rows = Array.from({ length: numProcesses }, () => []);
      squared = new Array<number>(numProcesses).fill(0);
      tokens = new Array<number>(numProcesses).fill(0);
      i = 0;
    }
    rows[i]!.push(s);
    squared[i]! += n * n;
    tokens[i]! += n;
    placed = true;
  });
  if (placed) microBatches.push(rows);
  return { microBatches, dropped };
}
