// The sweep's HTML chart in real Chromium, opened from a file: uPlot (inlined) draws the four
// charts, the page throws nothing and requests nothing from the network.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { DEFAULT_CONFIG, runSweep } from '../../src/core/dynamic/index.ts';
import { sweepHtml } from '../../src/cli/dynamic-sweep.ts';
import { launchBrowser } from './harness.ts';

test('dynamic --sweep HTML: four uPlot charts render offline with theory and simulation series', async () => {
  const result = await runSweep({
    base: DEFAULT_CONFIG,
    policies: ['fallback', 'stream'],
    ps: [0.05, 0.2, 0.5],
    trials: 3,
    runs: 1,
    budgetBatches: 1,
    lr: 0.5,
  });
  const dir = mkdtempSync(join(tmpdir(), 'dyn-chart-'));
  const file = join(dir, 'sweep.html');
  writeFileSync(file, sweepHtml(result));
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) problems.push(`request: ${r.url()}`);
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('#waste canvas');
    assert.equal(await page.locator('.uplot canvas').count(), 4);
    const legend = (await page.locator('#tie .u-legend').textContent()) ?? '';
    assert.match(legend, /theory/);
    assert.match(legend, /simulation/);
    assert.match((await page.locator('#short .u-legend').textContent()) ?? '', /stream theory/);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
