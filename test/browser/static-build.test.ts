// `npm run build` output served by a plain static file server that sends the COOP/COEP headers
// (as a static host configured per the README would): the explorer works, isolated, no Vite.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import { launchBrowser, root } from './harness.ts';
import { firstView, tiles } from './explorer-page.ts';

const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
};

test('the static build works from a plain file server that sends COOP/COEP', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'grpo-dist-'));
  after(() => rmSync(outDir, { recursive: true, force: true }));
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
  assert.ok(existsSync(join(outDir, 'index.html')));
  assert.match(readFileSync(join(outDir, '_headers'), 'utf8'), /Cross-Origin-Embedder-Policy: require-corp/);

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
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const browser = await launchBrowser();
  after(() => browser.close());

  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://localhost:${(server.address() as AddressInfo).port}/?preset=seed-000&phase=gather`);
  const first = await firstView(page);
  console.log(`static build: first view ${first.toFixed(0)} ms after navigation start`);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.equal((await tiles(page)).length, 32);
  assert.equal(await page.locator('grpo-explorer .isolation').count(), 0);
  assert.deepEqual(errors, []);
});
