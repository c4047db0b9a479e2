// `npm run build` output served by a plain static file server that sends the COOP/COEP headers
// (as a static host configured per the README would): the explorer works, isolated, no Vite.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { builtSite, launchBrowser } from './harness.ts';
import { firstView, tileCount } from './explorer-page.ts';
import { serveDir } from './static-server.ts';

test('the static build works from a plain file server that sends COOP/COEP', async () => {
  // `npm run build`'s output, built once per run by the test runner (or now, when this file runs alone).
  const outDir = await builtSite();
  assert.ok(existsSync(join(outDir, 'index.html')));
  assert.match(readFileSync(join(outDir, '_headers'), 'utf8'), /Cross-Origin-Embedder-Policy: require-corp/);

  const server = await serveDir(outDir, { isolated: true, spaFallback: true });
  after(() => server.close());
  const browser = await launchBrowser();
  after(() => browser.close());

  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/?preset=seed-000&phase=gather`);
  const first = await firstView(page);
  console.log(`static build: first view ${first.toFixed(0)} ms after navigation start`);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.equal(await tileCount(page), 32);
  assert.equal(await page.locator('grpo-explorer .isolation').count(), 0);
  assert.deepEqual(errors, []);
});
