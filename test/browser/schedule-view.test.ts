// <grpo-schedule> in real Chromium: seed-001 as Gantt charts side by side (20T serially, 5T per
// rank, 4× speed-up), configuration ids on hover, the settings form, the controller latency and
// a trained run's checkpoint given through the file input, a figure for export, no page errors.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatTime } from '../../src/core/schedule/index.ts';
import { runCli } from '../helpers/cli.ts';
import { withPage } from './harness.ts';

const PAGE = '/test/browser/pages/views.html';

/** Adds <grpo-schedule> with `attrs` to the page and waits for its table. */
async function mount(page: Page, attrs: Record<string, string> = {}): Promise<void> {
  await page.evaluate(async (a) => {
    await import('/src/ui/schedule/schedule-view.ts' as string);
    const el = document.createElement('grpo-schedule');
    for (const [k, v] of Object.entries(a)) el.setAttribute(k, v);
    document.getElementById('host')!.append(el);
  }, attrs);
  await page.locator('grpo-schedule table, grpo-schedule .error').first().waitFor({ timeout: 30_000 });
}

const cell = (page: Page, scheme: string, what: string) =>
  page.locator(`grpo-schedule tr[data-scheme="${scheme}"] td.${what}`).textContent();

test('seed-001: five Gantt charts on one time scale, serial-dp 20T against 5T per rank, 4× speed-up, ids on hover', async () => {
  await withPage(PAGE, async (page) => {
    await mount(page);
    assert.equal(await cell(page, 'serial-dp', 'makespan'), '20T');
    assert.equal(await cell(page, 'per-rank-serial', 'makespan'), '5T');
    assert.equal(await cell(page, 'per-rank-serial', 'speedup'), '4.00×');
    assert.equal(await cell(page, 'per-rank-batched', 'makespan'), '5T');
    assert.equal(await cell(page, 'serial-dp', 'launches'), '20');
    assert.match((await cell(page, 'serial-dp', 'idle')) ?? '', /r0 0% · r1 100% · r2 100% · r3 100%/);
    assert.equal(await cell(page, 'per-rank-batched', 'peak'), '5');
    assert.equal(await page.locator('grpo-schedule svg.gantt g.panel').count(), 5);
    assert.match(
      (await page.locator('grpo-schedule .caption[data-scheme="serial-dp"]').textContent()) ?? '',
      /all 20 configurations run one after another on rank 0: 20T/,
    );
    assert.match((await page.locator('grpo-schedule .conclusion').textContent()) ?? '', /against serial-dp's 20T \(4\.00×\)/);
    // Hover the first launch of serial-dp: its configuration id appears in the readout.
    await page.locator('grpo-schedule g.panel[data-scheme="serial-dp"] g.launch').first().hover();
    assert.match((await page.locator('grpo-schedule .readout').textContent()) ?? '', /^Config1-1 \(batch 1\), 0T – T$/);
    const ids = await page
      .locator('grpo-schedule g.panel[data-scheme="per-rank-batched"] g.launch')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-configs')));
    assert.deepEqual(ids, ['1-1 1-2 1-3 1-4 1-5', '2-1 2-2 2-3 2-4 2-5', '3-1 3-2 3-3 3-4 3-5', '4-1 4-2 4-3 4-4 4-5']);
    const fig = await page.evaluate(() => {
      const f = document.querySelector('grpo-schedule')!.figure();
      return f ? `${f.tagName}:${f.querySelectorAll('g.launch').length}` : 'none';
    });
    assert.equal(fig, `svg:${20 + 20 + 4 + 4 + 20}`, 'figure() is the one SVG with every launch of the five schemes');
  });
});

test('the form writes the attributes (alpha, ranks) and the controller latency draws from the uniform policy', async () => {
  await withPage(PAGE, async (page) => {
    await mount(page, { alpha: '0.5', ranks: '2' });
    // α = 0.5: a batch of 5 takes T·(0.5 + 0.5·5) = 3T; 2 ranks, 2 samples each: 6T, 20T/6T = 3.33×.
    assert.equal(await cell(page, 'per-rank-batched', 'makespan'), '6T');
    assert.equal(await cell(page, 'per-rank-batched', 'speedup'), '3.33×');
    await page.locator('grpo-schedule input[name="ranks"]').fill('4');
    await page.locator('grpo-schedule input[name="ranks"]').dispatchEvent('change');
    await page.waitForFunction(() => document.querySelector('grpo-schedule')!.getAttribute('ranks') === '4');
    assert.equal(await cell(page, 'per-rank-batched', 'makespan'), '3T');
    await page.locator('grpo-schedule select[name="latency"]').selectOption('controller');
    await page.waitForFunction(() =>
      /ms$/.test(
        document.querySelector('grpo-schedule')!.shadowRoot!.querySelector('tr[data-scheme="serial-dp"] td.makespan')?.textContent ?? '',
      ),
    );
    assert.match(
      (await page.locator('grpo-schedule .headline').textContent()) ?? '',
      /prefill latency of configurations drawn from the uniform policy \(seed 0\)/,
    );
    // A bad value is one line in the view, not a thrown error.
    await page.evaluate(() => document.querySelector('grpo-schedule')!.setAttribute('k', 'five'));
    assert.equal(
      await page.locator('grpo-schedule .error').textContent(),
      "Cannot draw this schedule: k must be a whole number, got 'five'",
    );
  });
});

test('a trained run given through the file input: the same schedule as `grpo-sandbox schedule --policy RUN`', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-view-'));
  try {
    const run = join(dir, 'run');
    const train = await runCli(['train', '--ranks', '1', '--batch', '32', '--k', '8', '--steps', '40', '--out', run]);
    assert.equal(train.status, 0, train.stderr);
    const cli = JSON.parse(
      (await runCli(['schedule', '--batch', '8', '--k', '8', '--alpha', '0.5', '--json', '--policy', run])).stdout,
    ) as {
      schemes: { scheme: string; makespan: number; launches: number; peakBatch: number }[];
    };
    await withPage(PAGE, async (page) => {
      await mount(page, { batch: '8', k: '8', alpha: '0.5' });
      await page.locator('grpo-schedule input[name="run"]').setInputFiles([join(run, 'checkpoint.json'), join(run, 'config.json')]);
      await page.waitForFunction(
        () => /step 40/.test(document.querySelector('grpo-schedule')!.shadowRoot!.querySelector('.headline')?.textContent ?? ''),
        null,
        {
          timeout: 60_000,
        },
      );
      assert.equal(await page.evaluate(() => document.querySelector('grpo-schedule')!.getAttribute('policy')), 'trained');
      for (const s of cli.schemes) {
        assert.equal(await cell(page, s.scheme, 'launches'), String(s.launches), s.scheme);
        assert.equal(await cell(page, s.scheme, 'peak'), String(s.peakBatch), s.scheme);
        assert.equal(await cell(page, s.scheme, 'makespan'), formatTime(Number(s.makespan.toPrecision(6)), 'ms'), s.scheme);
      }
      // Only one of the two files: one line saying what a run is.
      await page.locator('grpo-schedule input[name="run"]').setInputFiles([join(run, 'config.json')]);
      assert.match(
        (await page.locator('grpo-schedule .error').textContent()) ?? '',
        /a trained run is two files of its --out directory, checkpoint\.json and config\.json; got config\.json$/,
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the Gantt panels a row follow the width: 3 on a desktop, 2 at 860 px, 1 on a phone, with labels of at least 9 px', async () => {
  for (const [width, columns] of [
    [1280, 3],
    [860, 2],
    [390, 1],
  ] as const) {
    await withPage(
      PAGE,
      async (page) => {
        await mount(page);
        // The panels' left edges: as many distinct ones as panels a row.
        await page.waitForFunction(
          (n) => {
            const panels = document.querySelector('grpo-schedule')?.shadowRoot?.querySelectorAll('svg.gantt g.panel') ?? [];
            return new Set([...panels].map((p) => Math.round(p.getBoundingClientRect().left))).size === n;
          },
          columns,
          { timeout: 10_000 },
        );
        // The smallest label as drawn: its font size times the SVG's scale on screen.
        const smallest = await page.evaluate(() => {
          const svg = document.querySelector('grpo-schedule')!.shadowRoot!.querySelector('svg.gantt') as SVGSVGElement;
          const scale = svg.getScreenCTM()!.a;
          return Math.min(...[...svg.querySelectorAll('text')].map((t) => scale * Number.parseFloat(getComputedStyle(t).fontSize)));
        });
        assert.ok(smallest >= 9, `${width} px: the smallest Gantt label is ${smallest.toFixed(1)} px`);
      },
      { viewport: { width, height: 900 } },
    );
  }
});
