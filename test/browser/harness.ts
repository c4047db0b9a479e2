// Shared harness for every browser test: the production build of the app (app-build.ts) served by
// a plain static server with COOP/COEP, and a real headless Debian Chromium (WebGPU through
// SwiftShader), driven by playwright-core. A fresh browser context per `withPage` call.
// Under the test runner (scripts/test.js) one build, one server and one browser serve every test
// file: the runner starts them (shared-app.ts) and passes their addresses in GRPO_TEST_APP_URL,
// GRPO_TEST_BROWSER and GRPO_TEST_SITE. A file run alone (`node --import tsx --test file`) builds
// and starts its own on first use and closes them after its last test.
// Other folders' browser tests use it too: keep this API stable (serveApp, launchBrowser, withPage,
// screenshot, chromiumPath).
import { after } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Download, type Page } from 'playwright-core';
import { buildSite, buildTestApp } from './app-build.ts';
import { launchChromium } from './chromium.ts';
import { serveDir } from './static-server.ts';

export { chromiumArgs, chromiumPath } from './chromium.ts';

/** Repository root (`/src/...` paths in tests name its sources; the test build serves them under those paths). */
export const root = fileURLToPath(new URL('../..', import.meta.url));
/** Where screenshots and other artifacts go (gitignored; CI keeps it). */
export const resultsDir = join(root, 'test-results');

export interface AppServer {
  /** Base URL without a trailing slash, e.g. `http://localhost:41234`. */
  url: string;
  close(): Promise<void>;
}

/** A temporary directory, removed when this process exits. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The test app (the production build plus the test pages and in-page modules, app-build.ts) on a
 * localhost port with COOP/COEP, so pages are cross-origin isolated (SharedArrayBuffer) and a
 * secure context (WebGPU). `/` is index.html, `/src/...ts` the modules tests import in the page.
 */
export async function serveApp(): Promise<AppServer> {
  const shared = process.env.GRPO_TEST_APP_URL;
  if (shared) return { url: shared, close: async () => {} };
  const dir = tempDir('grpo-app-');
  await buildTestApp(dir);
  return serveDir(dir, { isolated: true, spaFallback: true });
}

/** The directory of `npm run build`'s output (the runner's, or built now), for tests of that artifact. */
export function builtSite(): Promise<string> {
  const shared = process.env.GRPO_TEST_SITE;
  if (shared) return Promise.resolve(shared);
  site ??= (async () => {
    const dir = tempDir('grpo-dist-');
    await buildSite(dir);
    return dir;
  })();
  return site;
}
let site: Promise<string> | null = null;

/**
 * Headless Chromium with the WebGPU/SwiftShader flags: the runner's shared browser (closing it
 * closes this connection's contexts and pages) or, run alone, a fresh one with a temporary profile.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env.GRPO_TEST_BROWSER;
  return shared ? chromium.connect(shared) : launchChromium();
}

let shared: Promise<{ server: AppServer; browser: Browser }> | null = null;

/** The file's server and browser, on first use. */
export function session(): Promise<{ server: AppServer; browser: Browser }> {
  shared ??= (async () => {
    const [server, browser] = await Promise.all([serveApp(), launchBrowser()]);
    return { server, browser };
  })();
  return shared;
}

/** Closes the file's server and browser (registered to run after the file's last test). */
export async function closeSession(): Promise<void> {
  if (!shared) return;
  const s = shared;
  shared = null;
  const { server, browser } = await s;
  await browser.close();
  await server.close();
}
after(closeSession);

export interface PageOptions {
  /** Viewport in CSS pixels (default 1280 × 900). */
  viewport?: { width: number; height: number };
  /** Do not fail when the page throws an uncaught error or logs console.error. */
  allowErrors?: boolean;
  /** A touch screen (page.touchscreen.tap works), as on a phone. */
  hasTouch?: boolean;
}

/**
 * Opens `urlPath` (e.g. `/?preset=seed-000` or `/test/browser/pages/x.html`) in a page of a fresh
 * browser context, runs `fn`, closes the context. Fails if the page threw or logged an error.
 */
export async function withPage<T>(urlPath: string, fn: (page: Page) => Promise<T>, options: PageOptions = {}): Promise<T> {
  const { server, browser } = await session();
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    hasTouch: options.hasTouch ?? false,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  try {
    // Loading time is not what these tests check: on a loaded 2-core machine a first load can be slow.
    await page.goto(server.url + urlPath, { waitUntil: 'load', timeout: 120_000 });
    const result = await fn(page);
    if (errors.length > 0 && !options.allowErrors) throw new Error(`page errors at ${urlPath}:\n${errors.join('\n')}`);
    return result;
  } finally {
    await context.close();
  }
}

/** Saves a PNG as `test-results/<name>.png` (a test artifact: the full page, or with fullPage false the window as a reader sees it); returns its path. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/** A download's bytes (read through Playwright's stream: the shared browser is remote, so `download.path()` is not available). */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
