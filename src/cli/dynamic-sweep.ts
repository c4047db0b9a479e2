// `grpo-sandbox dynamic --sweep`: the sparsity study (src/core/dynamic/sweep.ts) as a terminal
// table, JSON, and a self-contained HTML chart (uPlot inlined from node_modules, no network).
import { readFileSync, writeFileSync } from 'node:fs';
import {
  DEFAULT_CONFIG,
  type DynamicConfig,
  estimateSweep,
  POLICIES,
  type Policy,
  plural,
  runSweep,
  type SweepProgress,
  type SweepResult,
  validateDynamicConfig,
} from '../core/dynamic/index.ts';
import { overBudget } from '../core/budget.ts';
import { ConfigError } from '../core/errors.ts';
import { MAX_WORLD } from '../ranks/arena.ts';
import { intFlag } from './flags.ts';
import type { CliIo } from './io.ts';

export const SWEEP_FLAGS = {
  ps: { type: 'string' },
  policies: { type: 'string' },
  trials: { type: 'string' },
  runs: { type: 'string' },
  budget: { type: 'string' },
  lr: { type: 'string' },
  html: { type: 'string' },
} as const;

export const SWEEP_USAGE = `sweep flags (with --sweep; --ranks, --per-rank, --k, --max-resample-times, --seed, --json apply too):
  --ps P1,P2,…            success probabilities to try (default 0.02,0.04,0.06,0.08,0.1,0.15,0.2,0.3,0.5)
  --policies A,B,…        policies to compare (default all)
  --trials N              single steps per (policy, p) (default 100)
  --runs N                training runs per (policy, p) for the final reward (default 8)
  --budget B              generations per training run, in global batches (default 20)
  --lr X                  learning rate of the one-parameter policy (default 0.5)
  --html FILE             also write a self-contained chart (theory vs simulation) to FILE`;

function listFlag<T>(value: unknown, name: string, parse: (s: string) => T): T[] | undefined {
  if (value === undefined) return undefined;
  const items = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ConfigError(`--${name} needs a comma-separated list, got '${String(value)}'`);
  return items.map(parse);
}

export async function runSweepCommand(flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const out = (line = '') => io.out(`${line}\n`);
  if (flags.preset !== undefined || flags.p !== undefined || flags['device-fix'] !== undefined || flags.policy !== undefined) {
    throw new ConfigError('--sweep varies p over --ps and compares --policies; --preset, --p, --policy and --device-fix do not apply');
  }
  const ps = listFlag(flags.ps, 'ps', (s) => {
    const n = Number(s);
    if (!Number.isFinite(n) || n <= 0 || n >= 1)
      throw new ConfigError(`--ps values must be probabilities strictly between 0 and 1, got '${s}'`);
    return n;
  }) ?? [0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5];
  const policies = listFlag(flags.policies, 'policies', (s) => {
    if (!POLICIES.includes(s as Policy)) throw new ConfigError(`--policies: '${s}' is not a policy; policies: ${POLICIES.join(', ')}`);
    return s as Policy;
  }) ?? [...POLICIES];
  const lrText = flags.lr === undefined ? '0.5' : String(flags.lr);
  const lr = Number(lrText);
  if (!Number.isFinite(lr) || lr <= 0 || lr > 100) throw new ConfigError(`--lr must be a positive number up to 100, got '${lrText}'`);
  const base: DynamicConfig = {
    ...DEFAULT_CONFIG,
    ranks: intFlag(flags.ranks, 'ranks', 1, MAX_WORLD) ?? DEFAULT_CONFIG.ranks,
    perRank: intFlag(flags['per-rank'], 'per-rank', 1, 4096) ?? DEFAULT_CONFIG.perRank,
    k: intFlag(flags.k, 'k', 2, 256) ?? DEFAULT_CONFIG.k,
    maxResampleTimes: intFlag(flags['max-resample-times'], 'max-resample-times', 0, 100) ?? 3,
    seed: intFlag(flags.seed, 'seed', 0, 2 ** 31 - 1) ?? DEFAULT_CONFIG.seed,
    // The sweep reaches very sparse rewards; stream gives up after 100 batches' worth per step.
    streamCapFactor: 100,
  };
  validateDynamicConfig(base);
  const html = flags.html as string | undefined;
  if (html !== undefined && !/\.html?$/i.test(html)) throw new ConfigError(`--html must name an .html file, got '${html}'`);
  const trials = intFlag(flags.trials, 'trials', 1, 100_000) ?? 100;
  const runs = intFlag(flags.runs, 'runs', 0, 10_000) ?? 8;
  const budgetBatches = intFlag(flags.budget, 'budget', 1, 10_000) ?? 20;

  const settings = { base, policies, ps, trials, runs, budgetBatches, lr };
  // Refuse before any work: the sweep's cost follows from its flags (cells × (trials + runs × budget)).
  const estimate = estimateSweep(settings);
  const tooMuch = overBudget(
    `the sweep (${policies.length * ps.length} policy × p cells, ${trials} steps and ${runs} training runs of ${budgetBatches} batches each)`,
    estimate,
    '--trials, --runs, --budget, or the number of --ps and --policies',
  );
  if (tooMuch) throw tooMuch;

  const t0 = performance.now();
  const progress = sweepProgress(
    (text) => io.err(text),
    io.stderrIsTty,
    estimate.ms,
    () => performance.now() - t0,
  );
  const result = await runSweep(settings, progress.update);
  progress.end();
  if (html) writeFileSync(html, sweepHtml(result));
  if (flags.json) {
    out(JSON.stringify(result, null, 2));
    return 0;
  }
  printTable(result, out);
  out('');
  // No time here: stdout is the same bytes under Node and Deno; the time is stderr's done line.
  out(`${plural(policies.length * ps.length * trials, 'step')} and ${plural(policies.length * ps.length * runs, 'training run')}`);
  if (html) out(`chart written to ${html}`);
  return 0;
}

/** A sweep estimated to take at least this long reports its progress on stderr when stderr is not a terminal. */
export const LONG_SWEEP_MS = 5000;
/** Seconds between two plain progress lines (stderr not a terminal). */
export const PROGRESS_EVERY_MS = 5000;

/**
 * Progress on stderr: on a terminal one line rewritten in place; otherwise (a log, a pipe, CI) plain
 * lines, only for a sweep estimated at LONG_SWEEP_MS or more: one up front, one every
 * PROGRESS_EVERY_MS, one at the end. `elapsed` is in milliseconds.
 */
export function sweepProgress(
  write: (text: string) => void,
  tty: boolean,
  estimateMs: number,
  elapsed: () => number,
): { update: (p: SweepProgress) => void; end: () => void } {
  const plain = !tty && estimateMs >= LONG_SWEEP_MS;
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const status = (p: SweepProgress) =>
    `sweep: ${Math.floor((100 * p.units) / p.totalUnits)}% (${p.cells}/${p.totalCells} policy × p cells done) in ${secs(elapsed())}`;
  let last: SweepProgress | null = null;
  let lastLine = 0;
  let lastDraw = -Infinity;
  if (plain) write(`sweep: estimated at most ${secs(estimateMs)}; progress every ${secs(PROGRESS_EVERY_MS)}\n`);
  return {
    update(p) {
      last = p;
      const now = elapsed();
      if (tty) {
        // Rewriting the line thousands of times a second would cost more than the sweep.
        if (now - lastDraw < 100 && p.units < p.totalUnits) return;
        lastDraw = now;
        write(`\r${status(p)}`);
      } else if (plain && now - lastLine >= PROGRESS_EVERY_MS) {
        lastLine = now;
        write(`${status(p)}\n`);
      }
    },
    end() {
      if (tty) write(last ? `\r${status(last)}\n` : '');
      else if (plain) write(`sweep: done in ${secs(elapsed())}\n`);
    },
  };
}

function printTable(r: SweepResult, out: (line?: string) => void): void {
  const c = r.config;
  out(
    `sparsity sweep: ${plural(c.ranks, 'rank')} × ${c.perRank}, k = ${c.k}, max_resample_times ${c.maxResampleTimes}; ` +
      `${plural(c.trials, 'step')} per cell, ${plural(c.runs, 'training run')} of ${c.budgetBatches} ${c.budgetBatches === 1 ? "batch's" : "batches'"} ` +
      `generations (lr ${c.lr})`,
  );
  out('tie = share of flat groups (theory p^k + (1−p)^k); short = pool still short after the last batch (theory: binomial);');
  out('fail = steps that cannot train (raise, naive uneven gather, stalled stream); eff = distinct samples with signal per step;');
  out('waste = generations per step that gave no such sample; reward = success probability after the budget');
  const head = ['policy', 'p', 'tie th', 'tie sim', 'short th', 'short', 'fail', 'resamples', 'eff', 'waste', 'reward', 'failed runs'];
  const rows = r.rows.map((x) => [
    x.policy,
    String(x.p),
    x.theoryFlat.toFixed(3),
    x.simFlat.toFixed(3),
    x.theoryShortage.toFixed(3),
    x.shortageRate.toFixed(3),
    x.failureRate.toFixed(3),
    x.meanResamples.toFixed(2),
    x.effectiveBatch.toFixed(1),
    x.wastedGenerations.toFixed(1),
    x.finalReward.toFixed(3),
    `${x.failedRuns}/${c.runs}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  out(line(head));
  for (const row of rows) out(line(row));
}

/** Self-contained HTML: uPlot's script and CSS inlined, the data embedded as JSON. */
export function sweepHtml(r: SweepResult): string {
  const dist = new URL('../../node_modules/uplot/dist/', import.meta.url);
  const js = readFileSync(new URL('uPlot.iife.min.js', dist), 'utf8');
  const css = readFileSync(new URL('uPlot.min.css', dist), 'utf8');
  // `</script` inside the embedded JSON would end the script element early.
  const data = JSON.stringify(r).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>grpo-sandbox dynamic sampling: sparsity sweep</title>
<style>${css}
body{font:14px system-ui,sans-serif;margin:24px;max-width:980px}h2{font-size:16px;margin:28px 0 4px}p{color:#444}</style></head>
<body><h1>Dynamic sampling vs reward sparsity</h1>
<p id="about"></p>
<p>Every policy sees the same reward draws (same seeds), so where no pool runs short the policies take identical steps and their lines lie on top
  of each other.</p>
<h2>Share of flat groups: theory p<sup>k</sup> + (1 − p)<sup>k</sup> (line) and simulation (points)</h2><div id="tie"></div>
<h2>Pool still short after the last batch: theory (dashed) and simulation, per policy</h2><div id="short"></div>
<h2>Success probability after a fixed budget of generations, per policy</h2><div id="reward"></div>
<h2>Wasted generations per step, per policy</h2><div id="waste"></div>
<script>${js}</script>
<script>
const R = ${data};
const c = R.config;
document.getElementById('about').textContent = c.ranks + ' ranks × ' + c.perRank + ' samples, k = ' + c.k
  + ', max_resample_times ' + c.maxResampleTimes + '; ' + c.trials + ' steps per point, ' + c.runs + ' training runs of '
  + c.budgetBatches + " batches' generations.";
const colors = ['#1f77b4','#d62728','#2ca02c','#9467bd','#8c564b','#ff7f0e','#17becf'];
const policies = [...new Set(R.rows.map(r => r.policy))];
const ps = [...new Set(R.rows.map(r => r.p))].sort((a, b) => a - b);
const cell = (pol, p) => R.rows.find(r => r.policy === pol && r.p === p);
const axes = (y) => [{ label: 'success probability p' }, { label: y }];
function plot(id, y, series, data) {
  const options = { width: 900, height: 300, scales: { x: { time: false } }, axes: axes(y), series: [{ label: 'p' }, ...series] };
  new uPlot(options, [ps, ...data], document.getElementById(id));
}
const first = policies[0];
plot('tie', 'flat share', [
  { label: 'theory', stroke: '#333', width: 2 },
  { label: 'simulation', stroke: '#d62728', width: 0, points: { show: true, size: 8 } },
], [ps.map(p => cell(first, p).theoryFlat), ps.map(p => cell(first, p).simFlat)]);
plot('short', 'shortage frequency', policies.flatMap((pol, i) => [
  { label: pol, stroke: colors[i % colors.length], width: 2, points: { show: true } },
  { label: pol + ' theory', stroke: colors[i % colors.length], dash: [6, 4], width: 1 },
]), policies.flatMap(pol => [ps.map(p => cell(pol, p).shortageRate), ps.map(p => cell(pol, p).theoryShortage)]));
plot('reward', 'final success probability', policies.map((pol, i) => ({ label: pol, stroke: colors[i % colors.length], width: 2, points: { show: true } })),
  policies.map(pol => ps.map(p => cell(pol, p).finalReward)));
plot('waste', 'generations', policies.map((pol, i) => ({ label: pol, stroke: colors[i % colors.length], width: 2, points: { show: true } })),
  policies.map(pol => ps.map(p => cell(pol, p).wastedGenerations)));
</script></body></html>
`;
}
