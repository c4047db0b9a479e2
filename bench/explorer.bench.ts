// The explorer's speed in headless Chromium (software rendering on GPU-less machines):
// 1. frame interval and draw time while 64 ranks × 32 slots × 8 steps (16,384 tiles in one
//    gather) move through the whole story (dev server);
// 2. time to the first picture of seed-000 from the static build (`vite build`, plain file server
//    with COOP/COEP), median of 5 loads;
// 3. a 10^6-tile link (1,000 ranks × 1,000): time to the answer in words and to the overview
//    (the worker's rank × prompt heatmap) on screen, from navigation start.
// Figures go to the README; no thresholds here (the machine is shared and noisy).
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
import type { Browser } from 'playwright-core';
import { launchBrowser, root, serveApp } from '../test/browser/harness.ts';
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

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

async function staticFirstPicture(browser: Browser): Promise<number[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'grpo-bench-dist-'));
  try {
    await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
    const server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      let file = join(outDir, path);
      if (!file.startsWith(outDir) || !existsSync(file) || statSync(file).isDirectory()) file = join(outDir, 'index.html');
      res.writeHead(200, {
        'Content-Type': types[extname(file)] ?? 'application/octet-stream',
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      });
      res.end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
    const base = `http://localhost:${(server.address() as AddressInfo).port}`;
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const page = await browser.newPage();
      await page.goto(`${base}/?preset=seed-000`);
      const ms = await page.evaluate(async () => {
        while (window.grpoFirstViewMs === undefined) await new Promise((r) => setTimeout(r, 5));
        return window.grpoFirstViewMs;
      });
      if (i > 0) times.push(ms); // the first load warms the file cache
      await page.close();
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return times;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
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
    const first = await staticFirstPicture(browser);
    const giant = await giantLink(browser, server.url);
    printTable(
      ['what', 'median ms', 'max ms'],
      [
        ['first picture, static build, seed-000 (5 loads)', quantile(first, 0.5).toFixed(0), Math.max(...first).toFixed(0)],
        ['10^6-tile link: the arithmetic in words', giant.answered.toFixed(0), ''],
        ['10^6-tile link: overview on screen (worker)', giant.overview.toFixed(0), ''],
      ],
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
