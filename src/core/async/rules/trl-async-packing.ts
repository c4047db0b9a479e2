// TRL async_grpo's planners (trl/experimental/async_grpo/async_grpo_trainer.py, the 1.13.0 wheel; the same code at
// huggingface/trl f2cd577 but for its drop counter): how a stream of samples becomes micro-batches of num_processes
// rows, one row per DP rank. A sample is its token count (len(input_ids)).

/** A micro-batch: per rank, the indices (into the input) of the samples its row holds, in placement order. */
export type MicroBatch = number[][];

/** Python's min(candidates, key=load): the first candidate with the smallest load. */
function argminFirst(candidates: readonly number[], load: readonly number[]): number {
  let best = candidates[0]!;
  for (const j of candidates) if (load[j]! < load[best]!) best = j;
  return best;
}

/**
 * _balance_by_squared_length: longest first (Python's stable sort, reverse=True keeps equal lengths in input order),
 * each into the row with the smallest running Σ Lᵢ² (the first such row).
 */
export function balanceBySquaredLength(lengths: readonly number[], numProcesses: number): MicroBatch {
  const rows: MicroBatch = Array.from({ length: numProcesses }, () => []);
  const squared = new Array<number>(numProcesses).fill(0);
  const all = Array.from({ length: numProcesses }, (_, j) => j);
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b);
  for (const s of order) {
    const n = lengths[s]!;
    const i = argminFirst(all, squared);
    rows[i]!.push(s);
    squared[i]! += n * n;
  }
  return rows;
}

export interface TokenBudgetPacking {
  /** Micro-batches TokenBudgetBatcher yields, then the one still open when the samples run out (last, if any sample was placed). */
  microBatches: MicroBatch[];
  /** Indices of samples longer than token_budget, dropped with a warning. */
  dropped: number[];
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
    let fits = tokens.flatMap((t, i) => (t + n <= tokenBudget ? [i] : []));
    if (fits.length === 0) {
      microBatches.push(rows);
      rows = Array.from({ length: numProcesses }, () => []);
      squared = new Array<number>(numProcesses).fill(0);
      tokens = new Array<number>(numProcesses).fill(0);
      fits = Array.from({ length: numProcesses }, (_, i) => i);
    }
    const i = argminFirst(fits, squared);
    rows[i]!.push(s);
    squared[i]! += n * n;
    tokens[i]! += n;
    placed = true;
  });
  if (placed) microBatches.push(rows);
  return { microBatches, dropped };
}
