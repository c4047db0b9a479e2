// The README's picture, docs/img/explorer.png, from the current build: `npm run screenshot`.
// Builds the site as `npm run build` does (into a temporary directory; `--dist DIR` reuses a build
// already made, e.g. `npm run build && npm run screenshot -- --dist dist`), serves it with the
// browser tests' static server (COOP/COEP, test/browser/static-server.ts), opens the explorer at
// the README's state in Debian's headless Chromium as a reader's machine without a GPU runs it
// (test/browser/chromium.ts), waits until the story rests there with the whole page rendered, and
// writes the window as a reader sees it. Prints the caption on screen, which the README's alt
// text describes.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildSite } from '../test/browser/app-build.ts';
import { launchChromium, readerChromiumArgs } from '../test/browser/chromium.ts';
import { serveDir } from '../test/browser/static-server.ts';
import { tempDir } from '../test/helpers/temp-dir.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The README's picture: seed-000 as flow_grpo's published script runs it, at the regroup (4 groups of 2k, flagged), 1280 × 800. */
const README_PICTURE = {
  urlPath: '/?preset=seed-000&phase=regroup',
  phase: 'regroup',
  viewport: { width: 1280, height: 800 },
  file: join(root, 'docs/img/explorer.png'),
};

const { values } = parseArgs({ options: { dist: { type: 'string' }, out: { type: 'string' } } });

let dist: string;
if (values.dist) {
  dist = resolve(values.dist);
} else {
  dist = tempDir('grpo-screenshot-');
  await buildSite(dist);
}
const out = values.out ? resolve(values.out) : README_PICTURE.file;
const server = await serveDir(dist, { isolated: true, spaFallback: true });
const browser = await launchChromium(readerChromiumArgs);
try {
  const context = await browser.newContext({ viewport: README_PICTURE.viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.goto(server.url + README_PICTURE.urlPath, { waitUntil: 'load', timeout: 120_000 });
  // The first picture drawn, the rest of the page after it, and the story resting at the phase.
  await page.waitForFunction(
    (phase) => {
      const app = document.querySelector('grpo-explorer') as HTMLElement | null;
      return app?.dataset.complete !== undefined && app.dataset.phase === phase && app.dataset.stage === 'idle';
    },
    README_PICTURE.phase,
    { timeout: 120_000 },
  );
  await page.evaluate(() =>
    document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))),
  );
  if (errors.length > 0) throw new Error(`the page reported errors:\n${errors.join('\n')}`);
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out, animations: 'disabled', caret: 'hide' });
  const caption = (await page.locator('p.caption').first().textContent())?.replace(/\s+/g, ' ').trim();
  console.log(`${out}: ${README_PICTURE.urlPath} at ${README_PICTURE.viewport.width} × ${README_PICTURE.viewport.height}`);
  console.log(`caption: ${caption}`);
} finally {
  await browser.close();
  await server.close();
}
