// Rank program of bench/allgather.bench.ts: times `reps` allGathers of `bytes` per rank.
import type { Rank } from '../rank.ts';

/** Milliseconds of each allGather on this rank (after a barrier, so ranks start together), into a reused output. */
export async function allGatherTimes(rank: Rank, args: { bytes: number; reps: number; warmup: number }): Promise<number[]> {
  const x = new Float32Array(args.bytes / 4).fill(rank.rank);
  const out = new Float32Array(rank.size * x.length);
  const times: number[] = [];
  for (let i = 0; i < args.warmup + args.reps; i++) {
    await rank.barrier();
    const t0 = performance.now();
    await rank.allGather(x, { out });
    if (i >= args.warmup) times.push(performance.now() - t0);
  }
  // Check the last result: rank r's block holds r everywhere.
  for (let r = 0; r < rank.size; r++)
    if (out[r * x.length] !== r || out[(r + 1) * x.length - 1] !== r) throw new Error(`allGather result wrong at rank ${r}'s block`);
  return times;
}
