/** Shared timing helpers for the benchmarks. */

/** Runs `fn` `warmup` times, then `reps` times; returns the median milliseconds per run. */
export async function medianMs(fn: () => unknown | Promise<unknown>, reps = 7, warmup = 2): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Prints rows as an aligned text table. */
export function printTable(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  for (const [i, row] of cells.entries()) {
    console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}
