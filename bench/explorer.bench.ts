// The explorer's speed in headless Chromium (software rendering on GPU-less machines):
// 1. frame interval and draw time while 64 ranks × 32 slots × 8 steps (16,384 tiles in one
//    gather) move through the whole story (dev server);
// 2. a 10^6-tile link (1,000 ranks × 1,000): time to the answer in words and to the overview
//    (the worker's rank × prompt heatmap) on screen, from navigation start.
// The first picture of seed-000 on the production build, and play at its default size: ui-first-picture.bench.ts.
// Figures go to the README; no thresholds here (the machine is shared and noisy).
import { loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import { launchBrowser, serveApp } from '../test/browser/harness.ts';
import { printTable } from './timing.ts';

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function frames(browser: Browser, base: string): Promise<(string | number)[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const url = '/?sampler=flow-grpo&ranks=64&batch=32&k=4&batches=8&epochs=1&dataset=2048&seed=42&speed=2';
  await page.goto(base + url);
  await page.waitForFunction(() => window.grpoFirstViewMs !== undefined);
  await page.locator('grpo-story-controls button.play').click();
  await page.waitForFunction(
    () => {
      const app = document.querySelector('grpo-explorer') as HTMLElement;
      return app.dataset.phase === 'slice' && app.dataset.stage === 'idle';
    },
    undefined,
    { timeout: 120_000 },
  );
  const m = await page.evaluate(() => {
    const app = document.querySelector('grpo-explorer') as unknown as { story: { frameDeltas: number[] }; shadowRoot: ShadowRoot };
    const canvas = app.shadowRoot.querySelector('grpo-layout-canvas') as unknown as { drawTimes: number[]; tileRects(): unknown[] };
    return { frames: app.story.frameDeltas, draws: canvas.drawTimes, tiles: canvas.tileRects().length };
  });
  await page.close();
  return [
    `story at 64×32×8 (${m.tiles} tiles)`,
    m.frames.length,
    quantile(m.frames, 0.5).toFixed(1),
    quantile(m.frames, 0.95).toFixed(1),
    quantile(m.draws, 0.5).toFixed(2),
    quantile(m.draws, 0.95).toFixed(2),
  ];
}

/** A 10^6-tile link: ms from navigation start to the refusal with its arithmetic, and to the overview on screen. */
async function giantLink(browser: Browser, base: string): Promise<{ answered: number; overview: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/?ranks=1000&batch=1000&k=4&batches=1&dataset=250000`);
  const answered = await page.evaluate(async () => {
    while (document.querySelector('grpo-explorer')?.shadowRoot?.querySelector('.stale-label') == null)
      await new Promise((r) => setTimeout(r, 5));
    return performance.now();
  });
  await page.waitForFunction(
    () =>
      (document.querySelector('grpo-explorer')?.shadowRoot?.querySelector('grpo-overview') as HTMLElement | null)?.dataset.ready !==
      undefined,
    undefined,
    { timeout: 300_000 },
  );
  const overview = await page.evaluate(() => performance.now());
  await page.close();
  return { answered, overview };
}

export default async function run(): Promise<void> {
  const [server, browser] = await Promise.all([serveApp(), launchBrowser()]);
  try {
    const chromium = browser.version();
    const frameRow = await frames(browser, server.url);
    // The figures depend on what else runs: the load average says how shared the cores were.
    console.log(
      `headless Chromium ${chromium}, software 2D canvas; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    printTable(['what', 'frames', 'interval median ms', 'interval p95 ms', 'draw median ms', 'draw p95 ms'], [frameRow]);
    const giant = await giantLink(browser, server.url);
    printTable(
      ['what', 'median ms', 'max ms'],
      [
        ['10^6-tile link: the arithmetic in words', giant.answered.toFixed(0), ''],
        ['10^6-tile link: overview on screen (worker)', giant.overview.toFixed(0), ''],
      ],
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
