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

function times(x: number): string {
  return `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}×`;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : /(s|sh|ch)$/.test(what) ? 'es' : 's'}`;
}

/** Ranks 1…3 as text: `rank 1`, `ranks 1–3`. */
function rankRange(from: number, to: number): string {
  return from === to ? `rank ${from}` : `ranks ${from}–${to}`;
}

/** One line: what is being executed. */
export function headline(r: ScheduleResult): string {
  const c = r.config;
  const n = r.configurations.length;
  const lats = r.configurations.map((x) => x.latency);
  const [fastest, slowest] = lats.reduce(([lo, hi], x) => [Math.min(lo, x), Math.max(hi, x)], [Infinity, -Infinity]);
  const latency =
    c.latency.kind === 'constant'
      ? `every configuration takes ${formatTime(c.latency.t, r.unit)} alone`
      : `prefill latency of configurations drawn from ${c.latency.policy.description ?? `the ${c.latency.policy.name} policy`} (seed ${c.seed}), ` +
        `${formatTime(fastest!, 'ms')} to ${formatTime(slowest!, 'ms')} alone`;
  const cap = c.maxBatch === null ? 'no cap on the batch' : `at most ${c.maxBatch} configurations per launch`;
  return (
    `expanded batch = batch ${c.batch} × group ${c.k} = ${n} configurations on ${count(c.ranks, 'rank')}; ${latency}; ` +
    `a launch of b takes T·(α + (1−α)·b) with α = ${formatNumber(c.alpha)}, ${cap}; all of them one by one: ${formatTime(r.work, r.unit)}`
  );
}

/** Why `s` takes what it takes. */
export function caption(r: ScheduleResult, s: SchemeResult): string {
  const c = r.config;
  const n = r.configurations.length;
  const u = (x: number) => formatTime(x, r.unit);
  const perRank = s.timeline.map((t) => t.reduce((sum, i) => sum + i.configs.length, 0));
  const busiest = Math.max(...perRank);
  const idleRanks = perRank.filter((x) => x === 0).length;
  const speed = `${u(s.makespan)}, ${times(s.speedup)} serial-dp`;
  const idleNote = idleRanks > 0 ? `; ${count(idleRanks, 'rank')} without a sample sit idle (batch ${c.batch} < ${c.ranks} ranks)` : '';
  switch (s.scheme as SchemeName) {
    case 'serial-dp':
      return (
        `Today's code: DataParallel would split a batch over the GPUs, but the loop calls the model with batch 1, so all ${n} ` +
        `configurations run one after another on rank 0: ${u(s.makespan)}` +
        (c.ranks > 1 ? `, while ${rankRange(1, c.ranks - 1)} stay idle the whole step.` : '.')
      );
    case 'per-rank-serial':
      return (
        `DDP: sample s runs on rank s mod ${c.ranks}, one configuration per forward pass; the busiest rank runs ${busiest} of them: ` +
        `${speed}, all of it from running ranks side by side${idleNote}.`
      );
    case 'per-rank-batched': {
      const k = c.maxBatch === null ? c.k : Math.min(c.k, c.maxBatch);
      const saving =
        c.alpha === 0
          ? `at α = 0 a batch of ${k} costs ${k}·T, so batching saves nothing and the speed-up comes from the ranks alone ` +
            `(with α > 0 it would cost (${k} − ${k - 1}α)·T, ${k - 1}α·T less)`
          : `at α = ${formatNumber(c.alpha)} a batch of ${k} costs T·(${formatNumber(c.alpha)} + ${formatNumber(1 - c.alpha)}·${k}) = ` +
            `${formatNumber(c.alpha + (1 - c.alpha) * k)}·T, ${formatNumber((k - 1) * c.alpha)}·T less than running them one by one`;
      const cap = c.maxBatch !== null && c.maxBatch < c.k ? ` (the memory cap splits it into launches of ${c.maxBatch})` : '';
      const pad = c.latency.kind === 'controller' ? `; ${paddingNote(r, s)}` : '';
      return `Each rank runs each of its samples' ${c.k} configurations as one launch${cap}: ${saving}${pad}. ${speed}${idleNote}.`;
    }
    case 'by-structure': {
      const structures = new Set(r.configurations.map((x) => x.structure)).size;
      const what =
        c.latency.kind === 'constant'
          ? 'Under a constant latency every configuration has the same shapes, so each rank batches all of its configurations'
          : `${count(structures, 'distinct structure')} (tier, insertion, top-K, active blocks) among the ${n} configurations; each rank batches ` +
            `its own configurations that share one, with no padding` +
            (structures > n / 2
              ? ` (of ${POSSIBLE_STRUCTURES} possible structures this policy rarely draws one twice; a controller that has learnt what pays draws ` +
                `fewer, and batches more)`
              : '');
      return (
        `${what}: ${count(s.launches, 'launch')} instead of ${n}, peak batch ${s.peakBatch}. ${speed}. Never slower than per-rank-serial: ` +
        `b equal configurations cost T·(α + (1−α)·b) ≤ b·T.`
      );
    }
    case 'spread': {
      const most = Math.max(...perRank);
      const least = Math.min(...perRank);
      const wrap = c.ranks < c.k ? `, wrapping to rank 0 after rank ${c.ranks - 1} because ${c.ranks} ranks < group ${c.k}` : '';
      const gathered = s.timeline.some((t) => t.some((i) => i.kind === 'gather'));
      const gather = gathered
        ? `, then an all-gather of the results (${u(r.gatherCost)}) so each group's advantages see all its rewards`
        : c.ranks > 1
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
function paddingNote(r: ScheduleResult, s: SchemeResult): string {
  let pad = 0;
  for (const i of s.timeline.flat()) {
    if (i.kind !== 'run') continue;
    const lat = i.configs.map((x) => r.configurations[x]!.latency);
    const slowest = Math.max(...lat);
    const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
    pad += launchTime(slowest - mean, lat.length, r.config.alpha);
  }
  return `a launch mixes structures and is padded to its slowest configuration, which costs the ranks ${formatTime(pad, r.unit)} in all`;
}

/** One closing line: the fastest of the schemes shown, against serial-dp. */
export function conclusion(r: ScheduleResult, shown: SchemeResult[] = r.schemes): string {
  const fastest = Math.min(...shown.map((s) => s.makespan));
  const tied = shown.filter((s) => s.makespan <= fastest * (1 + 1e-12));
  const best = tied[0]!;
  const serial = r.schemes[0]!;
  const names = tied.length === 1 ? best.scheme : `${tied.map((s) => s.scheme).join(', ')} (tied)`;
  return (
    `Fastest: ${names}, ${formatTime(best.makespan, r.unit)} against serial-dp's ${formatTime(serial.makespan, r.unit)} ` +
    `(${times(best.speedup)}); ${tied.length === 1 ? 'its' : `${best.scheme}'s`} ranks are idle ` +
    `${Math.round(100 * mean(best.idleFraction))}% of the time on average.`
  );
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
