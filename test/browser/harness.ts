// Shared harness for every browser test: the production build of the app (app-build.ts) served by
// a plain static server with COOP/COEP, and a real headless Debian Chromium (WebGPU through
// SwiftShader), driven by playwright-core. `withPage` calls of a file navigate one page in turn
// (a fresh document each time, in the same renderer process and HTTP cache), not a fresh context each.
// Under the test runner (scripts/test.js) one build, one server and one browser serve every test
// file: the runner starts them (shared-app.ts) and passes their addresses in GRPO_TEST_APP_URL,
// GRPO_TEST_BROWSER and GRPO_TEST_SITE. A file run alone (`node --import tsx --test file`) builds
// and starts its own on first use and closes them after its last test.
// Other folders' browser tests use it too: keep this API stable (serveApp, launchBrowser, withPage,
// screenshot, chromiumPath).
import { after } from 'node:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Download, type Page } from 'playwright-core';
import { tempDir } from '../helpers/temp-dir.ts';
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
  filePages.clear();
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
  /**
   * A fresh browser context and page (empty cache, a new renderer process) instead of the file's
   * page: for a test of what a first visit does, or of isolation between visits.
   */
  freshContext?: boolean;
}

const defaultViewport = { width: 1280, height: 900 };

/** The file's page, reused by `withPage` calls one after another (one per hasTouch setting); `busy` while a call has it. */
interface FilePage {
  context: BrowserContext;
  page: Page;
  busy: boolean;
}
const filePages = new Map<boolean, Promise<FilePage>>();

/**
 * The file's page for `hasTouch`, or null while another `withPage` call holds it (that call then
 * gets a fresh context). A new page in a fresh context costs about 4 CPU-s of Chromium (a renderer
 * process, the app's scripts compiled afresh); a navigation of a page that has loaded the app about
 * 1.2 (test/README.md).
 */
async function filePage(browser: Browser, hasTouch: boolean): Promise<FilePage | null> {
  let entry = filePages.get(hasTouch);
  if (!entry) {
    entry = (async () => {
      const context = await browser.newContext({ viewport: defaultViewport, hasTouch });
      return { context, page: await context.newPage(), busy: false };
    })();
    filePages.set(hasTouch, entry);
  }
  const held = await entry;
  if (held.busy || held.page.isClosed()) return null;
  held.busy = true;
  return held;
}

/** Page-level settings a test may have made, which the next test must not inherit. */
const testEvents = ['dialog', 'request', 'response', 'requestfinished', 'requestfailed', 'download', 'popup', 'worker', 'filechooser'];

/**
 * Puts the file's page back for the next test: its routes, media emulation, listeners, other pages
 * of its context, and the mouse (a pointer left over a tile would hover it in the next document).
 */
async function release(held: FilePage): Promise<void> {
  const { page, context } = held;
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // A new context's own settings (Playwright emulates these by default).
  await page.emulateMedia({ media: null, colorScheme: 'light', reducedMotion: 'no-preference', forcedColors: 'none' });
  for (const event of testEvents) page.removeAllListeners(event);
  for (const other of context.pages()) if (other !== page) await other.close();
  await page.mouse.move(0, 0);
  held.busy = false;
}

/**
 * Opens `urlPath` (e.g. `/?preset=seed-000` or `/test/browser/pages/x.html`) at `options.viewport`,
 * runs `fn`, and fails if the page threw or logged an error. The page is the file's page, navigated
 * to `urlPath` (a new document: its scripts, workers, rank workers and state are those of a fresh
 * load; the HTTP cache and the renderer process are kept), and put back for the next test after
 * `fn` (routes, media emulation, listeners and popups removed); after a failure, or with
 * `freshContext`, or while the file's page is in use, a fresh context is used and closed after.
 * No test of the app relies on a fresh context: the app keeps no cookies or storage and asks for
 * no permissions.
 */
export async function withPage<T>(urlPath: string, fn: (page: Page) => Promise<T>, options: PageOptions = {}): Promise<T> {
  const { server, browser } = await session();
  const viewport = options.viewport ?? defaultViewport;
  const hasTouch = options.hasTouch ?? false;
  const held = options.freshContext ? null : await filePage(browser, hasTouch);
  const context = held?.context ?? (await browser.newContext({ viewport, hasTouch }));
  const page = held?.page ?? (await context.newPage());
  const errors: string[] = [];
  const onError = (err: Error) => errors.push(`uncaught: ${err.message}`);
  const onConsole = (msg: ConsoleMessage) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  };
  let passed = false;
  try {
    if (held) {
      const now = page.viewportSize();
      if (now?.width !== viewport.width || now?.height !== viewport.height) await page.setViewportSize(viewport);
    }
    page.on('pageerror', onError);
    page.on('console', onConsole);
    // Loading time is not what these tests check: on a loaded 2-core machine a first load can be slow.
    await page.goto(server.url + urlPath, { waitUntil: 'load', timeout: 120_000 });
    const result = await fn(page);
    if (errors.length > 0 && !options.allowErrors) throw new Error(`page errors at ${urlPath}:\n${errors.join('\n')}`);
    passed = true;
    return result;
  } finally {
    page.off('pageerror', onError);
    page.off('console', onConsole);
    if (
      held &&
      passed &&
      (await release(held).then(
        () => true,
        () => false,
      ))
    ) {
      // Put back for the next test.
    } else {
      // A failed test's page may be in any state: the next test gets a new one.
      if (held) filePages.delete(hasTouch);
      await context.close();
    }
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
