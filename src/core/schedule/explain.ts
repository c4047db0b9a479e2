// Captions in plain words, with the user's numbers: what each scheme does and why it is as fast
// or as slow as it is. Shared by the terminal report and the HTML page.
import { INSERTION_POSITIONS, MIN_ACTIVE_BLOCKS, TIERS, TOP_K, TOTAL_BLOCKS } from '../env/controller.ts';
import { launchTime } from './simulate.ts';
import type { ScheduleResult, SchemeName, SchemeResult } from './types.ts';

/** A duration in the result's unit: `20T`, `4.5T`, `123.4 ms`, and seconds from 10 000 ms on. */
export function formatTime(x: number, unit: string): string {
  if (unit === 'T' && x === 1) return 'T';
  if (unit === 'ms' && x >= 10_000) return formatTime(x / 1000, 's');
  const text = Number.isInteger(x) ? String(x) : x.toFixed(Math.abs(x) >= 100 ? 1 : 2).replace(/\.?0+$/, '');
  return unit === 'T' ? `${text}T` : `${text} ${unit}`;
}

/**
 * A number for a caption without binary float noise: 1 − 0.7 reads 0.3, not 0.30000000000000004.
 * Ten significant digits keep every digit a user typed (α = 0.123456) and drop only the noise.
 */
export function formatNumber(x: number): string {
  return String(Number(x.toPrecision(10)));
}

export function times(x: number): string {
  return `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}×`;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : /(s|sh|ch)$/.test(what) ? 'es' : 's'}`;
}

/** Ranks 1…3 as text: `rank 1`, `ranks 1–3`. */
function rankRange(from: number, to: number): string {
  return from === to ? `rank ${from}` : `ranks ${from}–${to}`;
}

/** The facts of the headline, for the English below and the page's other languages. */
export interface HeadlineFacts {
  batch: number;
  k: number;
  /** Configurations in the expanded batch. */
  n: number;
  ranks: number;
  unit: string;
  latency:
    | { kind: 'constant'; t: number }
    | { kind: 'controller'; description: string | null; policy: string; seed: number; fastest: number; slowest: number };
  alpha: number;
  maxBatch: number | null;
  /** All configurations one by one. */
  work: number;
}

export function headlineFacts(r: ScheduleResult): HeadlineFacts {
  const c = r.config;
  const lats = r.configurations.map((x) => x.latency);
  const [fastest, slowest] = lats.reduce(([lo, hi], x) => [Math.min(lo, x), Math.max(hi, x)], [Infinity, -Infinity]);
  return {
    batch: c.batch,
    k: c.k,
    n: r.configurations.length,
    ranks: c.ranks,
    unit: r.unit,
    latency:
      c.latency.kind === 'constant'
        ? { kind: 'constant', t: c.latency.t }
        : {
            kind: 'controller',
            description: c.latency.policy.description ?? null,
            policy: c.latency.policy.name,
            seed: c.seed,
            fastest: fastest!,
            slowest: slowest!,
          },
    alpha: c.alpha,
    maxBatch: c.maxBatch,
    work: r.work,
  };
}

/** One line: what is being executed. */
export function headline(r: ScheduleResult): string {
  return headlineText(headlineFacts(r));
}

export function headlineText(f: HeadlineFacts): string {
  const l = f.latency;
  const latency =
    l.kind === 'constant'
      ? `every configuration takes ${formatTime(l.t, f.unit)} alone`
      : `prefill latency of configurations drawn from ${l.description ?? `the ${l.policy} policy`} (seed ${l.seed}), ` +
        `${formatTime(l.fastest, 'ms')} to ${formatTime(l.slowest, 'ms')} alone`;
  const cap = f.maxBatch === null ? 'no cap on the batch' : `at most ${f.maxBatch} configurations per launch`;
  return (
    `expanded batch = batch ${f.batch} × group ${f.k} = ${f.n} configurations on ${count(f.ranks, 'rank')}; ${latency}; ` +
    `a launch of b takes T·(α + (1−α)·b) with α = ${formatNumber(f.alpha)}, ${cap}; all of them one by one: ${formatTime(f.work, f.unit)}`
  );
}

/** The facts behind one scheme's caption (the numbers every language's caption uses). */
export interface CaptionFacts {
  scheme: SchemeName;
  n: number;
  ranks: number;
  batch: number;
  k: number;
  alpha: number;
  maxBatch: number | null;
  unit: string;
  latencyKind: 'constant' | 'controller';
  makespan: number;
  speedup: number;
  /** Configurations on the busiest and the least busy rank. */
  busiest: number;
  least: number;
  /** Ranks without a sample. */
  idleRanks: number;
  /** per-rank-batched: one sample's configurations per launch (capped by max-batch). */
  batchOf: number;
  /** per-rank-batched under the controller: padding mixed launches to their slowest member, in all. */
  padding: number | null;
  /** by-structure: distinct structures drawn, and how many there can be. */
  structures: number;
  possibleStructures: number;
  launches: number;
  peakBatch: number;
  /** spread: whether the results are all-gathered, and what that costs. */
  gathered: boolean;
  gatherCost: number;
}

export function captionFacts(r: ScheduleResult, s: SchemeResult): CaptionFacts {
  const c = r.config;
  const perRank = s.timeline.map((t) => t.reduce((sum, i) => sum + i.configs.length, 0));
  return {
    scheme: s.scheme as SchemeName,
    n: r.configurations.length,
    ranks: c.ranks,
    batch: c.batch,
    k: c.k,
    alpha: c.alpha,
    maxBatch: c.maxBatch,
    unit: r.unit,
    latencyKind: c.latency.kind,
    makespan: s.makespan,
    speedup: s.speedup,
    busiest: Math.max(...perRank),
    least: Math.min(...perRank),
    idleRanks: perRank.filter((x) => x === 0).length,
    batchOf: c.maxBatch === null ? c.k : Math.min(c.k, c.maxBatch),
    padding: s.scheme === 'per-rank-batched' && c.latency.kind === 'controller' ? paddingCost(r, s) : null,
    structures: new Set(r.configurations.map((x) => x.structure)).size,
    possibleStructures: POSSIBLE_STRUCTURES,
    launches: s.launches,
    peakBatch: s.peakBatch,
    gathered: s.timeline.some((t) => t.some((i) => i.kind === 'gather')),
    gatherCost: r.gatherCost,
  };
}

/** Why `s` takes what it takes. */
export function caption(r: ScheduleResult, s: SchemeResult): string {
  return captionText(captionFacts(r, s));
}

export function captionText(f: CaptionFacts): string {
  const n = f.n;
  const u = (x: number) => formatTime(x, f.unit);
  const speed = `${u(f.makespan)}, ${times(f.speedup)} serial-dp`;
  const idleNote = f.idleRanks > 0 ? `; ${count(f.idleRanks, 'rank')} without a sample sit idle (batch ${f.batch} < ${f.ranks} ranks)` : '';
  switch (f.scheme) {
    case 'serial-dp':
      return (
        `Today's code: DataParallel would split a batch over the GPUs, but the loop calls the model with batch 1, so all ${n} ` +
        `configurations run one after another on rank 0: ${u(f.makespan)}` +
        (f.ranks > 1 ? `, while ${rankRange(1, f.ranks - 1)} stay idle the whole step.` : '.')
      );
    case 'per-rank-serial':
      return (
        `DDP: sample s runs on rank s mod ${f.ranks}, one configuration per forward pass; the busiest rank runs ${f.busiest} of them: ` +
        `${speed}, all of it from running ranks side by side${idleNote}.`
      );
    case 'per-rank-batched': {
      const k = f.batchOf;
      const saving =
        f.alpha === 0
          ? `at α = 0 a batch of ${k} costs ${k}·T, so batching saves nothing and the speed-up comes from the ranks alone ` +
            `(with α > 0 it would cost (${k} − ${k - 1}α)·T, ${k - 1}α·T less)`
          : `at α = ${formatNumber(f.alpha)} a batch of ${k} costs T·(${formatNumber(f.alpha)} + ${formatNumber(1 - f.alpha)}·${k}) = ` +
            `${formatNumber(f.alpha + (1 - f.alpha) * k)}·T, ${formatNumber((k - 1) * f.alpha)}·T less than running them one by one`;
      const cap = f.maxBatch !== null && f.maxBatch < f.k ? ` (the memory cap splits it into launches of ${f.maxBatch})` : '';
      const pad =
        f.padding !== null
          ? `; a launch mixes structures and is padded to its slowest configuration, which costs the ranks ${formatTime(f.padding, f.unit)} in all`
          : '';
      return `Each rank runs each of its samples' ${f.k} configurations as one launch${cap}: ${saving}${pad}. ${speed}${idleNote}.`;
    }
    case 'by-structure': {
      const what =
        f.latencyKind === 'constant'
          ? 'Under a constant latency every configuration has the same shapes, so each rank batches all of its configurations'
          : `${count(f.structures, 'distinct structure')} (tier, insertion, top-K, active blocks) among the ${n} configurations; each rank batches ` +
            `its own configurations that share one, with no padding` +
            (f.structures > n / 2
              ? ` (of ${f.possibleStructures} possible structures this policy rarely draws one twice; a controller that has learnt what pays draws ` +
                `fewer, and batches more)`
              : '');
      return (
        `${what}: ${count(f.launches, 'launch')} instead of ${n}, peak batch ${f.peakBatch}. ${speed}. Never slower than per-rank-serial: ` +
        `b equal configurations cost T·(α + (1−α)·b) ≤ b·T.`
      );
    }
    case 'spread': {
      const most = f.busiest;
      const least = f.least;
      const wrap = f.ranks < f.k ? `, wrapping to rank 0 after rank ${f.ranks - 1} because ${f.ranks} ranks < group ${f.k}` : '';
      const gather = f.gathered
        ? `, then an all-gather of the results (${u(f.gatherCost)}) so each group's advantages see all its rewards`
        : f.ranks > 1
          ? `; each group is one configuration, so no group spans ranks and nothing is gathered`
          : '';
      const each = least === most ? count(most, 'configuration') : `${least}–${most} configurations`;
      return (
        `Config1-1 → rank 0, Config1-2 → rank 1, … round-robin over the expanded batch${wrap}: ` +
        `each rank runs ${each} one at a time${gather}. ${speed}.`
      );
    }
  }
}

/** Structures a configuration can have: tier × insertion × top-K × the five valid knob-3 options. */
const POSSIBLE_STRUCTURES = TIERS.length * INSERTION_POSITIONS.length * TOP_K.length * (TOTAL_BLOCKS - MIN_ACTIVE_BLOCKS + 1);

/** What padding mixed launches to their slowest member costs, against launches of their mean latency. */
function paddingCost(r: ScheduleResult, s: SchemeResult): number {
  let pad = 0;
  for (const i of s.timeline.flat()) {
    if (i.kind !== 'run') continue;
    const lat = i.configs.map((x) => r.configurations[x]!.latency);
    const slowest = Math.max(...lat);
    const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
    pad += launchTime(slowest - mean, lat.length, r.config.alpha);
  }
  return pad;
}

/** The facts of the closing line. */
export interface ConclusionFacts {
  /** The fastest schemes shown (more than one when tied), the first of them the one quoted. */
  fastest: string[];
  makespan: number;
  serialMakespan: number;
  speedup: number;
  /** The first fastest scheme's mean idle fraction, in whole percent. */
  idlePct: number;
  unit: string;
}

export function conclusionFacts(r: ScheduleResult, shown: SchemeResult[] = r.schemes): ConclusionFacts {
  const fastest = Math.min(...shown.map((s) => s.makespan));
  const tied = shown.filter((s) => s.makespan <= fastest * (1 + 1e-12));
  const best = tied[0]!;
  return {
    fastest: tied.map((s) => s.scheme),
    makespan: best.makespan,
    serialMakespan: r.schemes[0]!.makespan,
    speedup: best.speedup,
    idlePct: Math.round(100 * mean(best.idleFraction)),
    unit: r.unit,
  };
}

/** One closing line: the fastest of the schemes shown, against serial-dp. */
export function conclusion(r: ScheduleResult, shown: SchemeResult[] = r.schemes): string {
  return conclusionText(conclusionFacts(r, shown));
}

export function conclusionText(f: ConclusionFacts): string {
  const best = f.fastest[0]!;
  const tied = f.fastest.length > 1;
  const names = tied ? `${f.fastest.join(', ')} (tied)` : best;
  return (
    `Fastest: ${names}, ${formatTime(f.makespan, f.unit)} against serial-dp's ${formatTime(f.serialMakespan, f.unit)} ` +
    `(${times(f.speedup)}); ${tied ? `${best}'s` : 'its'} ranks are idle ` +
    `${f.idlePct}% of the time on average.`
  );
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
