// Shared harness for every browser test: a real Vite server over the repository and a real
// headless Debian Chromium (WebGPU through SwiftShader), driven by playwright-core.
// One server and one browser per test file (started on first use, closed after the file's
// last test), a fresh page per `withPage` call. Other folders' browser tests use it too:
// keep this API stable (serveApp, launchBrowser, withPage, screenshot, chromiumPath).
import { after } from 'node:test';
import { mkdirSync, mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';

/** Repository root (the Vite root: `/` is index.html, `/src/...` serves the TypeScript sources). */
export const root = fileURLToPath(new URL('../..', import.meta.url));
/** Where screenshots and other artifacts go (gitignored; CI keeps it). */
export const resultsDir = join(root, 'test-results');
/** Debian's Chromium, as `.ci/run` installs it; override with GRPO_CHROMIUM. */
export const chromiumPath = process.env.GRPO_CHROMIUM ?? '/usr/bin/chromium';

/** Flags that give headless Chromium a WebGPU adapter without a GPU (docs/runtimes.md). */
export const chromiumArgs = [
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-angle=swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface AppServer {
  /** Base URL without a trailing slash, e.g. `http://localhost:41234`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the Vite dev server over the repository on a free port of localhost (a secure
 * context, so WebGPU and, with the config's COOP/COEP headers, SharedArrayBuffer work).
 */
export async function serveApp(): Promise<AppServer> {
  // A private dep-optimizer cache: test files run in parallel and must not share node_modules/.vite.
  const cacheDir = mkdtempSync(join(tmpdir(), 'grpo-vite-'));
  const server: ViteDevServer = await createServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    cacheDir,
    logLevel: 'error',
    clearScreen: false,
    // No HMR and no file watching: tests load pages, they do not edit them.
    server: { host: 'localhost', port: 0, strictPort: true, hmr: false, watch: null },
    // No dependency discovery at run time: a late discovery reloads the page mid-test.
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite server has no TCP address');
  return {
    url: `http://localhost:${address.port}`,
    async close() {
      await server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Chromium with the WebGPU/SwiftShader flags and a fresh temporary profile. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: install Debian's chromium (apt-get install chromium, as .ci/run does) or set GRPO_CHROMIUM`,
    );
  }
  // A writable XDG_RUNTIME_DIR silences harmless Mesa/Vulkan warnings.
  const runtimeDir = mkdtempSync(join(tmpdir(), 'grpo-xdg-'));
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    env: { ...process.env, XDG_RUNTIME_DIR: runtimeDir },
  });
}

/** Console errors of Vite's dev client (its HMR WebSocket), which are not the page's. */
const devServerNoise = /^\[vite\]|WebSocket connection to 'ws:\/\/localhost/;

let shared: Promise<{ server: AppServer; browser: Browser }> | null = null;

/** The file's shared server and browser, started on first use. */
export function session(): Promise<{ server: AppServer; browser: Browser }> {
  shared ??= (async () => {
    const [server, browser] = await Promise.all([serveApp(), launchBrowser()]);
    return { server, browser };
  })();
  return shared;
}

/** Closes the shared server and browser (registered to run after the file's last test). */
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
 * Opens `urlPath` (e.g. `/?preset=seed-000` or `/test/browser/pages/x.html`) in a fresh page
 * of the shared browser, runs `fn`, closes the page. Fails if the page threw or logged an error.
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
    // The dev server's own client may complain about its WebSocket (e.g. when a test re-routes
    // requests); that is the test server's plumbing, not the page under test.
    if (msg.type() === 'error' && !devServerNoise.test(msg.text())) errors.push(`console.error: ${msg.text()}`);
  });
  try {
    // Vite's dev server compiles modules on first request; on a loaded 2-core machine the first
    // page of a test file can take more than Playwright's default 30 s to load (seen in the full
    // suite: the ranks page timed out at 30 s). Loading time is not what these tests check.
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
