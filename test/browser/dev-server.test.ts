// `npm start` and `npm run preview`: every other browser test loads the production build
// (harness.ts), so this file is what checks Vite's own servers with vite.config.ts: both send the
// COOP/COEP headers, the dev server maps /grpo-sandbox.js to the library's source (so
// public/embed.html works under `npm start`), and the explorer draws from the dev server's
// on-demand compilation, cross-origin isolated. One dev server, for this file only.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { builtSite, launchBrowser, root } from './harness.ts';
import { tileCount } from './explorer-page.ts';

let dev: ViteDevServer;
let devUrl = '';
const cacheDir = mkdtempSync(join(tmpdir(), 'grpo-vite-'));
// A training run's output in runs/ (git-ignored), so the watcher test has one to leave alone wherever it runs.
const runs = join(root, 'runs');
const hadRuns = existsSync(runs);
const probeRun = join(runs, `watch-probe-${process.pid}`);

before(async () => {
  mkdirSync(probeRun, { recursive: true });
  writeFileSync(join(probeRun, 'metrics.jsonl'), '');
  dev = await createServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    cacheDir,
    logLevel: 'error',
    clearScreen: false,
    // The file watcher is vite.config.ts's, as under `npm start` (an inline `watch: null` would be
    // dropped by Vite's config merge, which skips null values; the config keeps .venv out of it).
    server: { host: 'localhost', port: 0, strictPort: true, hmr: false },
    // No dependency discovery at run time: a late discovery reloads the page mid-test.
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await dev.listen();
  const address = dev.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite server has no TCP address');
  devUrl = `http://localhost:${address.port}`;
});
after(async () => {
  await dev?.close();
  rmSync(cacheDir, { recursive: true, force: true });
  rmSync(hadRuns ? probeRun : runs, { recursive: true, force: true });
});

const isolated = (res: Response) => [res.headers.get('cross-origin-opener-policy'), res.headers.get('cross-origin-embedder-policy')];

test('npm start: the dev server sends COOP/COEP and serves the library source at /grpo-sandbox.js', async () => {
  const page = await fetch(`${devUrl}/?preset=seed-000`);
  assert.equal(page.status, 200);
  assert.deepEqual(isolated(page), ['same-origin', 'require-corp']);
  const lib = await fetch(`${devUrl}/grpo-sandbox.js`);
  assert.equal(lib.status, 200);
  assert.match(lib.headers.get('content-type') ?? '', /javascript/);
  assert.match(await lib.text(), /setExplorerBase/);
});

/**
 * The dev server's file watcher leaves the bridge's Python environment and training runs alone:
 * walking .venv (~35 000 files of torch and transformers, where CI and the README's setup put it)
 * kept the first page load waiting ~20 s. Read after a page load (the watcher adds what the page's
 * modules import) and the watcher's first scan (chokidar's `ready`; `_readyEmitted`, its own flag,
 * for a scan that ended before this).
 */
async function assertWatcherSkipsVenvAndRuns(): Promise<void> {
  const watcher = dev.watcher as typeof dev.watcher & { _readyEmitted?: boolean };
  if (!watcher._readyEmitted)
    await Promise.race([new Promise((ready) => watcher.once('ready', ready)), new Promise((later) => setTimeout(later, 60_000))]);
  assert.ok(existsSync(probeRun), 'a training run in runs/ for the watcher to leave alone');
  const watched = Object.keys(dev.watcher.getWatched()).map((dir) => relative(root, dir));
  assert.ok(watched.includes('src'), `the watcher watches the sources (${watched.length} directories)`);
  assert.deepEqual(
    watched.filter((dir) => /^(\.venv|runs)(\/|$)/.test(dir)),
    [],
  );
}

test('npm start: the explorer draws seed-000 from the dev server, cross-origin isolated; the watcher leaves .venv and runs/ alone', async () => {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The dev server compiles modules on first request: loading time is not what this checks.
    await page.goto(`${devUrl}/?preset=seed-000&phase=gather`, { timeout: 120_000 });
    await page.waitForFunction(() => window.grpoFirstViewMs !== undefined, undefined, { timeout: 120_000 });
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    assert.equal(await tileCount(page), 32);
    assert.deepEqual(errors, []);
    await assertWatcherSkipsVenvAndRuns();
  } finally {
    await browser.close();
  }
});

test('npm run preview: the preview server sends COOP/COEP over the build', async () => {
  const server: PreviewServer = await preview({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: await builtSite() },
    preview: { host: 'localhost', port: 0, strictPort: true, open: false },
  });
  try {
    const url = server.resolvedUrls?.local[0];
    assert.ok(url, 'the preview server has a local URL');
    const page = await fetch(`${url}?preset=seed-000`);
    assert.equal(page.status, 200);
    assert.deepEqual(isolated(page), ['same-origin', 'require-corp']);
    assert.match(await page.text(), /<grpo-explorer|<script type="module"/);
  } finally {
    await server.close();
  }
});
