// The explorer's speed as a reader meets it, on the production build (`npm run build`, served by a
// plain static server with COOP/COEP) in headless Chromium (software rendering on GPU-less machines):
// 1. time from navigation start to the first picture of seed-000 on screen (the `grpo-first-view`
//    mark: the presentation of the frame that holds the drawn canvas, as the browser reports it,
//    Paint Timing's first-contentful-paint), median and worst of 7 loads after one that warms the
//    file cache, with what it waited on: the last script fetched, the explorer's first render, the
//    first canvas draw, the start of the picture's frame (`grpo-first-frame`, the animation frame
//    callback: before that frame is painted, rastered and presented), and the longest main-thread
//    task before the picture;
// 2. the frames of play of seed-000 at its default settings, step by step through the whole story:
//    the interval between animation frames (p50 / p95, ≤ 16.7 ms means no frame was dropped at
//    60 Hz) and the work each frame did (the canvas's draw, p50 / p95);
// 3. from 3 more loads, traced: CPU time (thread time) to the picture on screen: the renderer's
//    main thread, all of it and the task that runs the scripts and draws, which the machine's load
//    affects less; the renderer's other threads (compile, raster, compositor); the browser and GPU
//    processes (the load is CPU-bound across processes on 2 cores).
// Both in two Chromiums: the tests' (WebGPU on SwiftShader, an emulated GPU, in a GPU process; the
// page composited in software) and a reader's on a machine without a GPU (no GPU process at all).
// Figures go to bench/README.md with the load average; no thresholds (the machine is shared).
import { loadavg } from 'node:os';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { buildSite } from '../test/browser/app-build.ts';
import { chromiumArgs, launchChromium, readerChromiumArgs } from '../test/browser/chromium.ts';
import { serveDir } from '../test/browser/static-server.ts';
import { printTable } from './timing.ts';

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

interface Load {
  firstView: number;
  frame: number;
  scripts: number;
  render: number;
  draw: number;
  longest: number;
  bytes: number;
}

/** One load of `url` in a fresh context: when the first picture came and what came before it. */
async function load(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // Long tasks are only reported to an observer registered before they happen.
  await page.addInitScript(() => {
    const w = window as unknown as { grpoLongTasks: number[] };
    w.grpoLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.grpoLongTasks.push(e.startTime + e.duration, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(url);
  // No named functions inside page.evaluate: tsx would wrap them in a helper the page lacks.
  const m = await page.evaluate(async () => {
    while (window.grpoFirstViewMs === undefined) await new Promise((r) => setTimeout(r, 5));
    const firstView = window.grpoFirstViewMs;
    const scripts = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js')) as PerformanceResourceTiming[];
    const tasks = (window as unknown as { grpoLongTasks: number[] }).grpoLongTasks;
    let longest = 0;
    for (let i = 0; i < tasks.length; i += 2) if (tasks[i]! <= firstView) longest = Math.max(longest, tasks[i + 1]!);
    return {
      firstView,
      scripts: Math.max(0, ...scripts.filter((s) => s.responseEnd <= firstView).map((s) => s.responseEnd)),
      bytes: scripts.filter((s) => s.responseEnd <= firstView).reduce((n, s) => n + s.decodedBodySize, 0),
      render: performance.getEntriesByName('grpo-explorer-render')[0]?.startTime ?? Number.NaN,
      draw: performance.getEntriesByName('grpo-first-draw')[0]?.startTime ?? Number.NaN,
      frame: performance.getEntriesByName('grpo-first-frame')[0]?.startTime ?? Number.NaN,
      longest,
    };
  });
  await context.close();
  return m;
}

/** A trace event (Chromium's JSON trace format): `dur` wall and `tdur` thread time, in µs. */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { startTime?: number } };
}

interface Cpu {
  main: number;
  script: number;
  rendererOther: number;
  browserGpu: number;
}

/**
 * One traced load: CPU time (thread time, which the machine's load affects less than wall time) from
 * navigation start to the picture on screen, of the renderer's main thread (all tasks, and the task
 * that evaluates the scripts and draws the picture), of the renderer's other threads, and of the
 * browser and GPU processes. Separate loads: tracing slows the wall-clock figures.
 */
async function cpu(browser: Browser, url: string, path: string): Promise<Cpu> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await browser.startTracing(page, { path, categories: ['devtools.timeline', 'blink.user_timing', 'toplevel', 'v8'] });
  await page.goto(url);
  await page.waitForFunction(() => window.grpoFirstViewMs !== undefined);
  const onScreen = await page.evaluate(() => window.grpoFirstViewMs!);
  await browser.stopTracing();
  await context.close();
  const trace = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  // The canvas's first draw (a mark without a given start time) places navigation start on the trace's clock.
  const draw = events.find((e) => e.name === 'grpo-first-draw' && e.args?.data?.startTime !== undefined);
  if (!draw) throw new Error('the trace has no grpo-first-draw mark');
  const start = draw.ts - draw.args!.data!.startTime! * 1000;
  const end = start + onScreen * 1000;
  const names = new Map<number, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'process_name' && e.args?.name) names.set(e.pid, e.args.name);
  // Top-level tasks only (a nested run loop's tasks lie inside another's), per thread.
  const tasks = events
    .filter((e) => e.ph === 'X' && e.tdur !== undefined && e.name.endsWith('RunTask') && e.ts >= start && e.ts < end)
    .sort((a, b) => a.ts - b.ts);
  const outer: TraceEvent[] = [];
  const busyUntil = new Map<string, number>();
  for (const e of tasks) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ts < (busyUntil.get(thread) ?? 0)) continue;
    busyUntil.set(thread, e.ts + (e.dur ?? 0));
    outer.push(e);
  }
  const onMain = (e: TraceEvent) => e.pid === draw.pid && e.tid === draw.tid;
  const evaluations = events.filter((e) => onMain(e) && e.name === 'v8.evaluateModule' && e.ts >= start && e.ts < end);
  const runsScripts = (t: TraceEvent) => evaluations.some((e) => e.ts >= t.ts && e.ts < t.ts + (t.dur ?? 0));
  const thread = (list: TraceEvent[]) => list.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;
  const main = outer.filter(onMain);
  return {
    main: thread(main),
    script: thread(main.filter(runsScripts)),
    rendererOther: thread(outer.filter((e) => e.pid === draw.pid && !onMain(e))),
    browserGpu: thread(outer.filter((e) => names.get(e.pid) === 'Browser' || names.get(e.pid) === 'GPU Process')),
  };
}

/** Plays seed-000's story at its default settings to the end; frame intervals and draw times. */
async function play(browser: Browser, base: string): Promise<{ intervals: number[]; draws: number[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${base}/?preset=seed-000&speed=4`);
  await page.waitForFunction(() => window.grpoFirstViewMs !== undefined);
  await page.locator('grpo-story-controls button.play').click();
  await page.waitForFunction(
    () => {
      const app = document.querySelector('grpo-explorer') as HTMLElement;
      return app.dataset.phase === 'slice' && app.dataset.stage === 'idle';
    },
    undefined,
    { timeout: 300_000, polling: 200 },
  );
  const m = await page.evaluate(() => {
    const app = document.querySelector('grpo-explorer') as unknown as { story: { frameDeltas: number[] }; shadowRoot: ShadowRoot };
    const canvas = app.shadowRoot.querySelector('grpo-layout-canvas') as unknown as { drawTimes: number[] };
    return { intervals: app.story.frameDeltas, draws: canvas.drawTimes };
  });
  await context.close();
  return m;
}

/** The two Chromiums: the tests' (WebGPU flags: a GPU process with SwiftShader) and a reader's on a GPU-less machine (no GPU process). */
const BROWSERS = [
  { name: 'test Chromium (WebGPU flags)', args: chromiumArgs },
  { name: "reader's Chromium (no flags)", args: readerChromiumArgs },
];

interface Measured {
  loads: Load[];
  cpu: Cpu[];
  frames: { intervals: number[]; draws: number[] };
}

export default async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'grpo-bench-site-'));
  try {
    await buildSite(dir);
    const server = await serveDir(dir, { isolated: true, spaFallback: true });
    const measured: Measured[] = [];
    let version = '';
    try {
      const url = `${server.url}/?preset=seed-000`;
      for (const b of BROWSERS) {
        const browser = await launchChromium(b.args);
        try {
          version = browser.version();
          await load(browser, url); // warms the file cache and Chromium's code cache
          const loads: Load[] = [];
          for (let i = 0; i < 7; i++) loads.push(await load(browser, url));
          const cpus = [];
          for (let i = 0; i < 3; i++) cpus.push(await cpu(browser, url, join(dir, 'trace.json')));
          measured.push({ loads, cpu: cpus, frames: await play(browser, server.url) });
        } finally {
          await browser.close();
        }
      }
    } finally {
      await server.close();
    }
    console.log(
      `headless Chromium ${version}, no GPU; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const col = (f: (l: Load) => number) =>
      measured.flatMap((m) => [quantile(m.loads.map(f), 0.5).toFixed(0), Math.max(...m.loads.map(f)).toFixed(0)]);
    printTable(
      ['first picture of seed-000, production build (7 loads)', ...BROWSERS.flatMap((b) => [`${b.name} median ms`, 'max ms'])],
      [
        ['scripts it runs fetched (after navigation start)', ...col((l) => l.scripts)],
        ['explorer rendered its first frame of HTML', ...col((l) => l.render)],
        ['canvas drew the first picture', ...col((l) => l.draw)],
        ["the picture's frame began (grpo-first-frame, before its paint)", ...col((l) => l.frame)],
        ['picture on screen (grpo-first-view: that frame presented)', ...col((l) => l.firstView)],
        ['longest main-thread task before it', ...col((l) => l.longest)],
        ['JavaScript fetched before it, kB', ...col((l) => l.bytes / 1000)],
      ],
    );
    const cpuCol = (f: (c: Cpu) => number) =>
      measured.flatMap((m) => [quantile(m.cpu.map(f), 0.5).toFixed(0), Math.max(...m.cpu.map(f)).toFixed(0)]);
    printTable(
      ['CPU time to the picture on screen (3 traced loads)', ...BROWSERS.flatMap((b) => [`${b.name} median ms`, 'max ms'])],
      [
        ["renderer's main thread, all tasks from navigation start", ...cpuCol((c) => c.main)],
        ['  of which the task that runs the scripts and draws the picture', ...cpuCol((c) => c.script)],
        ["renderer's other threads (compile, compositor, raster)", ...cpuCol((c) => c.rendererOther)],
        ['browser and GPU processes', ...cpuCol((c) => c.browserGpu)],
      ],
    );
    const row = (what: string, values: number[], digits: number) => [
      what,
      values.length,
      quantile(values, 0.5).toFixed(digits),
      quantile(values, 0.95).toFixed(digits),
      Math.max(...values).toFixed(digits),
    ];
    printTable(
      ['play of seed-000, whole story', 'frames', 'p50 ms', 'p95 ms', 'max ms'],
      measured.flatMap((m, i) => [
        row(`${BROWSERS[i]!.name}: interval between animation frames`, m.frames.intervals, 1),
        row(`${BROWSERS[i]!.name}: canvas draw per frame`, m.frames.draws, 2),
      ]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
