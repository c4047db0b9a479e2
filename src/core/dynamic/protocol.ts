// One step of synchronized dynamic sampling, as every rank runs it (SPMD, ms-swift's design,
// seed-002): generate, gather the batch with allGatherObject, keep the groups whose gathered
// rewards differ, and while the pool is short resample together (one counter, the same on
// every rank because every rank sees the same gathered data). Then each rank takes its slice.
// Every rank calls every gather in every round, also when its own batch has no valid group,
// so no rank can wait for another that skipped a collective (seed-004 V2's deadlock).
import { Mt19937 } from '../rng/mt19937.ts';
import { randint } from '../rng/rand.ts';
import { filterGroups, keepRuleOf } from './filter.ts';
import { nemoMaxBatches, streamScattered, streamStalled, swiftFallbackWarning, verlTooManyBatches } from './messages.ts';
import type { DynamicConfig, Policy, Sample } from './types.ts';

/** What the protocol needs from a rank: its number, generation, and allGatherObject. */
export interface RankIO<S extends Sample> {
  rank: number;
  size: number;
  /** This rank's `prompts` × k completions of draw `draw` (0 = original batch), scored. */
  generate(draw: number, prompts: number): S[] | Promise<S[]>;
  /** allGatherObject: every rank's value, in rank order. */
  gather<T>(value: T): Promise<T[]>;
}

/** One generation round: the original batch (draw 0) or a resample. */
export interface DrawEvent {
  draw: number;
  generated: number;
  groups: number;
  flatGroups: number;
  /** Valid samples this draw added to the pool (stream: kept up to each rank's need). */
  added: number;
  /** Valid samples each rank's generation contributed. */
  addedByRank: number[];
  /** Pool size after this draw. */
  pool: number;
}

/** A rank's share of the step: which samples it trains on. */
export interface RankSlice<S> {
  rank: number;
  /** Range in the pool (null when the samples are not a pool range: fallback, stream). */
  from: number | null;
  to: number | null;
  source: 'pool' | 'padded-pool' | 'original batch' | 'own kept groups';
  samples: S[];
}

export type Outcome = 'full' | 'short' | 'failed';

/** The step as every rank decides it (identical on all ranks). */
export interface StepPlan<S> {
  policy: Policy;
  target: number;
  localTarget: number;
  events: DrawEvent[];
  /** Resamples after the original batch (stream: replacement rounds). */
  resamples: number;
  outcome: Outcome;
  /** Valid samples collected (before truncation or padding). */
  pool: number;
  /** target − pool when short, else 0. */
  shortage: number;
  slices: RankSlice<S>[];
  /** Flat groups trained on anyway (fallback). */
  invalidGroupsKept: number;
  /** Copies added by pad. */
  duplicated: number;
  /** Valid samples beyond the target, dropped by truncation. */
  discardedSurplus: number;
  generated: number;
  /** Generations beyond one batch (the cost of filtering). */
  extraGenerations: number;
  /** The framework's error (raise policies, a stalled stream): the step does not train. */
  error: { name: string; message: string } | null;
  /** Log lines the framework itself would print (ms-swift's warning, …). */
  notes: string[];
}

/** Runs one step on this rank; resolves to the plan every rank computes identically. */
export async function dynamicStep<S extends Sample>(io: RankIO<S>, c: DynamicConfig): Promise<StepPlan<S>> {
  return c.policy === 'stream' ? streamStep(io, c) : batchedStep(io, c);
}

const count = (xs: readonly { origin: number }[], size: number): number[] => {
  const n = new Array<number>(size).fill(0);
  for (const x of xs) n[x.origin]!++;
  return n;
};

async function batchedStep<S extends Sample>(io: RankIO<S>, c: DynamicConfig): Promise<StepPlan<S>> {
  const L = c.perRank;
  const W = io.size;
  const target = W * L;
  const prompts = L / c.k;
  const rule = keepRuleOf(c);
  const events: DrawEvent[] = [];
  const pool: S[] = [];
  let originalBatch: S[] = [];
  let originalFlat = 0;
  let error: StepPlan<S>['error'] = null;
  // verl and NeMo count generation batches including the first; ms-swift counts resamples.
  let genBatches = 0;
  for (let draw = 0; ; draw++) {
    if (draw > 0) {
      if (pool.length >= target) break;
      const maxGen = c.maxResampleTimes + 1;
      if (c.policy === 'raise' && genBatches >= maxGen) {
        error = { name: 'ValueError', message: verlTooManyBatches(genBatches, maxGen) };
        break;
      }
      // NeMo RL checks `num_gen_batches <= max` before continuing, so it generates one batch more.
      if (c.policy === 'raise-nemo' && genBatches > maxGen) {
        error = { name: 'ValueError', message: nemoMaxBatches(maxGen) };
        break;
      }
      if (c.policy !== 'raise' && c.policy !== 'raise-nemo' && draw > c.maxResampleTimes) break;
    }
    genBatches++;
    const mine = await io.generate(draw, prompts);
    const gathered = (await io.gather(mine)).flat() as S[];
    const f = filterGroups(gathered, c.metric, rule);
    if (draw === 0) {
      originalBatch = gathered;
      originalFlat = f.flatGroups;
    }
    pool.push(...f.kept);
    events.push({
      draw,
      generated: gathered.length,
      groups: f.groups,
      flatGroups: f.flatGroups,
      added: f.kept.length,
      addedByRank: count(f.kept, W),
      pool: pool.length,
    });
  }
  const generated = events.reduce((s, e) => s + e.generated, 0);
  const plan: StepPlan<S> = {
    policy: c.policy,
    target,
    localTarget: L,
    events,
    resamples: events.length - 1,
    outcome: error ? 'failed' : pool.length >= target ? 'full' : 'short',
    pool: pool.length,
    shortage: Math.max(0, target - pool.length),
    slices: [],
    invalidGroupsKept: 0,
    duplicated: 0,
    discardedSurplus: Math.max(0, pool.length - target),
    generated,
    extraGenerations: generated - target,
    error,
    notes: [],
  };
  if (error) return plan;
  const ranges = (sizes: number[], source: RankSlice<S>['source'], from: S[]): RankSlice<S>[] => {
    let at = 0;
    return sizes.map((n, rank) => {
      const slice = { rank, from: at, to: at + n, source, samples: from.slice(at, at + n) };
      at += n;
      return slice;
    });
  };
  const equal = new Array<number>(W).fill(L);
  if (pool.length >= target) {
    plan.slices = ranges(equal, 'pool', pool.slice(0, target));
    return plan;
  }
  switch (c.policy) {
    case 'naive':
      // The bug: the full-pool slicing applied to a short pool.
      plan.slices = Array.from({ length: W }, (_, rank) => {
        const from = Math.min(L * rank, pool.length);
        const to = Math.min(L * (rank + 1), pool.length);
        return { rank, from, to, source: 'pool' as const, samples: pool.slice(from, to) };
      });
      break;
    case 'rebalance': {
      const base = Math.floor(pool.length / W);
      const extra = pool.length % W;
      plan.slices = ranges(
        equal.map((_, r) => base + (r < extra ? 1 : 0)),
        'pool',
        pool,
      );
      break;
    }
    case 'pad':
      if (pool.length > 0) {
        // The same seeded draw on every rank, so every rank pads with the same copies.
        const picks = randint(new Mt19937(c.seed), 0, pool.length, target - pool.length);
        const padded = [...pool, ...Array.from(picks, (i) => pool[i]!)];
        plan.duplicated = picks.length;
        plan.slices = ranges(equal, 'padded-pool', padded);
        break;
      }
      plan.notes.push('pad: 0 valid samples, nothing to duplicate; every rank falls back to its original batch');
      fallback(plan, originalBatch, originalFlat, L);
      break;
    default:
      plan.notes.push(swiftFallbackWarning(c.maxResampleTimes));
      fallback(plan, originalBatch, originalFlat, L);
  }
  return plan;
}

function fallback<S extends Sample>(plan: StepPlan<S>, original: S[], flat: number, L: number): void {
  plan.invalidGroupsKept = flat;
  plan.slices = Array.from({ length: original.length / L }, (_, rank) => ({
    rank,
    from: null,
    to: null,
    source: 'original batch' as const,
    samples: original.slice(rank * L, (rank + 1) * L),
  }));
}

/**
 * OpenRLHF's streaming filter, run by every rank: each rank owns L/k prompt slots; a round
 * generates one new prompt per empty slot on every rank, the gathered rewards decide which
 * groups stay, and a rank keeps its own kept groups (no surplus, nothing moves between ranks).
 * A rank whose slots are full still joins every round's gather with an empty batch.
 */
async function streamStep<S extends Sample>(io: RankIO<S>, c: DynamicConfig): Promise<StepPlan<S>> {
  const W = io.size;
  const L = c.perRank;
  const target = W * L;
  const rule = keepRuleOf(c);
  const need = new Array<number>(W).fill(L / c.k);
  const own: S[][] = Array.from({ length: W }, () => []);
  const events: DrawEvent[] = [];
  let generated = 0;
  let error: StepPlan<S>['error'] = null;
  for (let round = 0; ; round++) {
    const mine = await io.generate(round, need[io.rank]!);
    const byRank = (await io.gather(mine)) as S[][];
    const split = scatteredGroup(byRank);
    if (split) {
      error = { name: 'StreamScatteredGroups', message: streamScattered(split.group, split.ranks) };
      break;
    }
    const addedByRank = new Array<number>(W).fill(0);
    let groups = 0;
    let flat = 0;
    byRank.forEach((batch, r) => {
      const f = filterGroups(batch, c.metric, rule);
      own[r]!.push(...f.kept);
      need[r]! -= f.keptGroups;
      addedByRank[r] = f.kept.length;
      groups += f.groups;
      flat += f.flatGroups;
      generated += batch.length;
    });
    const added = addedByRank.reduce((a, b) => a + b, 0);
    events.push({
      draw: round,
      generated: groups * c.k,
      groups,
      flatGroups: flat,
      added,
      addedByRank,
      pool: own.reduce((s, o) => s + o.length, 0),
    });
    const short = need.reduce((a, b) => a + b, 0);
    if (short === 0) break;
    if (generated >= c.streamCapFactor * target) {
      error = { name: 'StreamStalled', message: streamStalled(generated, short) };
      break;
    }
  }
  const pool = own.reduce((s, o) => s + o.length, 0);
  return {
    policy: c.policy,
    target,
    localTarget: L,
    events,
    resamples: events.length - 1,
    outcome: error ? 'failed' : 'full',
    pool,
    shortage: Math.max(0, target - pool),
    slices: error ? [] : own.map((samples, rank) => ({ rank, from: null, to: null, source: 'own kept groups' as const, samples })),
    invalidGroupsKept: 0,
    duplicated: 0,
    discardedSurplus: 0,
    generated,
    extraGenerations: generated - target,
    error,
    notes: [],
  };
}

/** The first group whose members were generated on two ranks, if any (stream decides per rank). */
function scatteredGroup(byRank: readonly (readonly Sample[])[]): { group: string; ranks: [number, number] } | null {
  const home = new Map<string, number>();
  for (const [r, batch] of byRank.entries()) {
    for (const s of batch) {
      const at = home.get(s.group);
      if (at === undefined) home.set(s.group, r);
      else if (at !== r) return { group: s.group, ranks: [at, r] };
    }
  }
  return null;
}
