// Runs each scheme's plan on the clock: every rank executes its launches back to back from 0;
// a launch of b configurations takes max latency · (α + (1−α)·b) (a mixed batch is padded to
// its slowest member); spread ends with a gather every rank joins once the last one is done,
// when some group's configurations sit on more than one rank.
import { planScheme } from './schemes.ts';
import {
  SCHEMES,
  type Configuration,
  type Interval,
  type ScheduleConfig,
  type ScheduleResult,
  type SchemeName,
  type SchemeResult,
} from './types.ts';
import { buildWorkload } from './workload.ts';

/** The batching model: b configurations whose slowest takes `t` alone. */
export function launchTime(t: number, b: number, alpha: number): number {
  return t * (alpha + (1 - alpha) * b);
}

/** Whether any sample's configurations run on more than one rank under `plan`. */
export function groupsSpanRanks(plan: number[][][], work: Configuration[]): boolean {
  const rankOf = new Map<number, number>();
  for (let r = 0; r < plan.length; r++)
    for (const launch of plan[r]!)
      for (const i of launch) {
        const sample = work[i]!.sample;
        const seen = rankOf.get(sample);
        if (seen === undefined) rankOf.set(sample, r);
        else if (seen !== r) return true;
      }
  return false;
}

function timelineOf(scheme: SchemeName, work: Configuration[], c: ScheduleConfig, gatherCost: number): Interval[][] {
  const plan = planScheme(scheme, work, c);
  const timeline = plan.map((launches) => {
    let clock = 0;
    return launches.map((configs): Interval => {
      const slowest = Math.max(...configs.map((i) => work[i]!.latency));
      const start = clock;
      clock += launchTime(slowest, configs.length, c.alpha);
      return { kind: 'run', start, end: clock, configs };
    });
  });
  if (scheme === 'spread' && groupsSpanRanks(plan, work)) {
    // Some group's rewards sit on several ranks: an all-gather (a collective, so a barrier every
    // rank joins) before its advantages. When every group sits whole on one rank (k = 1, or one
    // rank) each rank can normalise its own groups, as under DDP: no gather is paid.
    const start = Math.max(0, ...timeline.map((t) => t.at(-1)?.end ?? 0));
    for (const t of timeline) t.push({ kind: 'gather', start, end: start + gatherCost, configs: [] });
  }
  return timeline;
}

function measure(scheme: SchemeName, timeline: Interval[][]): Omit<SchemeResult, 'speedup'> {
  const makespan = Math.max(0, ...timeline.map((t) => t.at(-1)?.end ?? 0));
  const runs = timeline.flat().filter((i) => i.kind === 'run');
  const idleFraction = timeline.map((t) => {
    const busy = t.reduce((sum, i) => sum + (i.end - i.start), 0);
    return makespan > 0 ? Math.max(0, 1 - busy / makespan) : 0;
  });
  return {
    scheme,
    timeline,
    makespan,
    idleFraction,
    launches: runs.length,
    peakBatch: runs.reduce((peak, i) => Math.max(peak, i.configs.length), 0), // no spread: runs can number 100000
    runTime: runs.reduce((sum, i) => sum + (i.end - i.start), 0),
  };
}

/** Simulates every scheme for `c` (serial-dp always, as the reference of the speed-ups). */
export function simulateSchedules(c: ScheduleConfig): ScheduleResult {
  const configurations = buildWorkload(c);
  const work = configurations.reduce((sum, cfg) => sum + cfg.latency, 0);
  const gatherCost = c.gatherCost ?? 0.1 * (work / configurations.length);
  const measured = SCHEMES.map((s) => measure(s, timelineOf(s, configurations, c, gatherCost)));
  const reference = measured[0]!.makespan;
  const schemes = measured.map((m) => ({ ...m, speedup: reference / m.makespan }));
  return { config: c, unit: c.latency.kind === 'constant' ? c.latency.unit : 'ms', configurations, work, gatherCost, schemes };
}
