// What each execution scheme runs where: per rank, an ordered list of launches (each a list of
// configuration indices). Timing is simulate.ts's job; this file only places the work.
import type { Configuration, ScheduleConfig, SchemeName } from './types.ts';

export type Plan = number[][][]; // [rank][launch] → configuration indices

/** Samples a rank owns under data parallelism: sample s on rank s mod ranks (DistributedSampler's strided split). */
function ownerOf(sample: number, ranks: number): number {
  return sample % ranks;
}

/** Splits a list into launches of at most `cap` configurations. */
function chunks(xs: number[], cap: number | null): number[][] {
  const size = cap ?? Math.max(1, xs.length);
  const out: number[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

function emptyPlan(ranks: number): Plan {
  return Array.from({ length: ranks }, () => []);
}

/** Places every configuration of `work` for `scheme`; each configuration lands in exactly one launch. */
export function planScheme(scheme: SchemeName, work: Configuration[], c: ScheduleConfig): Plan {
  const plan = emptyPlan(c.ranks);
  switch (scheme) {
    case 'serial-dp':
      // DataParallel scatters a batch over the GPUs, but the loop calls the model with batch 1,
      // so there is nothing to scatter: every call runs on the first GPU.
      for (const cfg of work) plan[0]!.push([cfg.index]);
      break;
    case 'per-rank-serial':
      // DDP: each rank its own samples, one configuration per forward pass.
      for (const cfg of work) plan[ownerOf(cfg.sample, c.ranks)]!.push([cfg.index]);
      break;
    case 'per-rank-batched':
      // Each rank runs each of its samples' k configurations as one batch (split by the memory cap).
      for (let s = 0; s < c.batch; s++) {
        const group = Array.from({ length: c.k }, (_, j) => s * c.k + j); // work is in repeat_interleave order
        plan[ownerOf(s, c.ranks)]!.push(...chunks(group, c.maxBatch));
      }
      break;
    case 'by-structure': {
      // Each rank keeps its own samples (no communication) and batches the configurations that
      // share a structure, in order of first appearance.
      for (let r = 0; r < c.ranks; r++) {
        const groups = new Map<string, number[]>();
        for (const cfg of work) {
          if (ownerOf(cfg.sample, c.ranks) !== r) continue;
          let g = groups.get(cfg.structure);
          if (!g) groups.set(cfg.structure, (g = []));
          g.push(cfg.index);
        }
        for (const g of groups.values()) plan[r]!.push(...chunks(g, c.maxBatch));
      }
      break;
    }
    case 'spread':
      // Round-robin over the expanded batch: Config1-1 → rank 0, Config1-2 → rank 1, …, wrapping
      // to rank 0 when ranks < k. A group's results then live on several ranks (gathered after).
      for (const cfg of work) plan[cfg.index % c.ranks]!.push([cfg.index]);
      break;
  }
  return plan;
}
