// <grpo-dynamic> in real Chromium (cross-origin isolated, so the train step runs on rank Web
// Workers): seed-002 step by step (groups valid or flat, pool 48 → 56 → 60 → 62 of 64, slices
// coloured by origin rank), the naive policy's shape mismatch as the rank world prints it, a
// policy switch, seed-004's device error then success with the fix, the sweep chart (theory and
// simulation) drawn from a worker, and the notice a page without isolation gets. No page errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { withPage } from './harness.ts';

const PAGE = '/test/browser/pages/views.html';

async function mount(page: Page, attrs: Record<string, string> = {}): Promise<void> {
  await page.evaluate(async (a) => {
    await import('/src/ui/dynamic/dynamic-view.ts' as string);
    const el = document.createElement('grpo-dynamic');
    for (const [k, v] of Object.entries(a)) el.setAttribute(k, v);
    document.getElementById('host')!.append(el);
  }, attrs);
  await page.locator('grpo-dynamic svg.dynamic-figure, grpo-dynamic .error').first().waitFor({ timeout: 30_000 });
}

const text = async (page: Page, selector: string) => (await page.locator(`grpo-dynamic ${selector}`).first().textContent()) ?? '';
/** The train step's output once the workers are done. */
const runs = async (page: Page) => {
  await page.locator('grpo-dynamic pre.run').first().waitFor({ timeout: 60_000 });
  return page.locator('grpo-dynamic pre.run').allTextContents();
};

test('seed-002 step by step: groups valid or flat, pool 48 → 56 → 60 → 62 of 64, slices by origin, the naive gather fails on real ranks', async () => {
  await withPage(PAGE, async (page) => {
    await mount(page);
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    // The view says why this preset uses k = 2 where the document speaks of 4 prompts × 4.
    assert.match(
      await page
        .locator('grpo-dynamic p.about')
        .allTextContents()
        .then((t) => t.join(' ')),
      /k = 2 \(8 prompts × 2 per rank\)/,
    );
    // Step 1: the initial batch, 4 ranks × 8 groups, 6 of each rank's valid.
    assert.equal(await page.locator('grpo-dynamic g.group').count(), 32);
    assert.equal(await page.locator('grpo-dynamic g.group.valid').count(), 24);
    assert.equal(await page.locator('grpo-dynamic g.group.flat').count(), 8);
    const pools: string[] = [];
    for (let i = 0; i < 4; i++) {
      pools.push((await page.locator('grpo-dynamic .pool-label').getAttribute('data-pool')) ?? '');
      await page.locator('grpo-dynamic button[name="next"]').click();
    }
    assert.deepEqual(pools, ['48', '56', '60', '62']);
    const log = await text(page, 'pre.log');
    assert.match(log, /initial batch: 64 generated, 32 groups, 8 flat → 48 valid \(by rank: 12 12 12 12\) → pool 48\/64/);
    assert.match(log, /resample 3: 64 generated, 32 groups, 31 flat → \+2 \(by rank: 0 0 2 0\) → pool 62\/64/);
    assert.match(log, /Shortage: 2\/64/);
    // Slices: rank 3 holds 14 of 16, samples from ranks 0, 1, 2, 3 (each cell coloured by its origin).
    assert.deepEqual(await page.locator('grpo-dynamic g.slice').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-size'))), [
      '16',
      '16',
      '16',
      '14',
    ]);
    assert.match(await text(page, 'g.slice[data-rank="3"]'), /\[48:62\] 14 of 16/);
    const fills = await page
      .locator('grpo-dynamic g.slice[data-rank="3"] rect[fill]')
      .evaluateAll((rs) => new Set(rs.map((r) => r.getAttribute('fill'))).size);
    assert.equal(fills, 4, "rank 3's slice holds samples of all four origin ranks");
    await page.locator('grpo-dynamic button[name="next"]').click();
    const [naive] = await runs(page);
    assert.match(naive!, /check: all 4 worker ranks made identical decisions, the same as the in-page protocol/);
    assert.match(naive!, /the simulated run failed; every worker is stopped\. In the sandbox's own words, at once/);
    assert.match(naive!, /ShapeMismatchError: allGather #5: shape mismatch: ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/);
    // Switch to rebalance: 16, 16, 15, 15 and allGatherVariable trains.
    await page.locator('grpo-dynamic button[data-policy="rebalance"]').click();
    await page.waitForFunction(
      () => /ok: the step trained/.test(document.querySelector('grpo-dynamic')!.shadowRoot!.querySelector('pre.run')?.textContent ?? ''),
      null,
      {
        timeout: 60_000,
      },
    );
    assert.deepEqual(await page.locator('grpo-dynamic g.slice').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-size'))), [
      '16',
      '16',
      '15',
      '15',
    ]);
    assert.match((await runs(page))[0]!, /allGatherVariable/);
    // raise: verl's ValueError in the generation loop, no slice.
    await page.locator('grpo-dynamic button[data-policy="raise"]').click();
    await page.waitForFunction(
      () => /ValueError/.test(document.querySelector('grpo-dynamic')!.shadowRoot!.querySelector('pre.run')?.textContent ?? ''),
      null,
      {
        timeout: 60_000,
      },
    );
    assert.match((await runs(page))[0]!, /ranks 0–3: ValueError: num_gen_batches=4 >= max_num_gen_batches=4\. Generated too many\./);
    const fig = await page.evaluate(() => document.querySelector('grpo-dynamic')!.figure()?.tagName);
    assert.equal(fig, 'svg');
  });
});

test('seed-004: the device error without .to(device), then success with the fix', async () => {
  await withPage(PAGE, async (page) => {
    await mount(page, { preset: 'seed-004', step: '99' });
    await page.waitForFunction(() => document.querySelector('grpo-dynamic')!.shadowRoot!.querySelectorAll('pre.run').length === 2, null, {
      timeout: 60_000,
    });
    const [off, on] = await runs(page);
    assert.match(off!, /— run 1: device fix off —/);
    assert.match(
      off!,
      new RegExp(
        'rank 0: DeviceMismatchError: Expected all tensors to be on the same device, but found tensors on sim:1 and sim:0 ' +
          '\\(stack: tensor 0 is on sim:0, tensor 8 on sim:1\\)',
      ),
    );
    assert.match(on!, /— run 2: device fix on —/);
    assert.match(on!, /rank 3: stacked \[16, 1\] on sim:3 \(slice was on sim:3, sim:1\); gathered 64 rows/);
    assert.match(on!, /ok: the step trained on all 4 ranks/);
    assert.equal(await page.locator('grpo-dynamic pre.run.failure[data-fix="off"]').count(), 1);
    assert.equal(await page.locator('grpo-dynamic pre.run.success[data-fix="on"]').count(), 1);
    // The pool after the one resample: 64 of 64.
    assert.match(await text(page, 'pre.log'), /resample 1: 64 generated, 8 groups, 7 flat → \+8 \(by rank: 0 8 0 0\) → pool 64\/64/);
  });
});

test('the sparsity sweep runs in a worker and draws theory p^G + (1−p)^G against simulation with uPlot', async () => {
  await withPage(PAGE, async (page) => {
    await mount(page, { preset: 'none', policy: 'fallback', trials: '60', ps: '0.05,0.2,0.5' });
    await page.locator('grpo-dynamic button[name="sweep"]').click();
    await page.locator('grpo-dynamic .sweep-chart canvas').waitFor({ timeout: 60_000 });
    const legend = await text(page, '.sweep-chart .u-legend');
    assert.match(legend, /flat share theory p\^G \+ \(1−p\)\^G/);
    assert.match(legend, /flat share simulation/);
    assert.match(legend, /short \(fallback\) theory/);
    assert.match(await text(page, '.sweep-status'), /^180 steps in \d+\.\d s \(in a worker/);
  });
});

test('without cross-origin isolation: the picture from the in-page protocol, and a notice naming the missing headers instead of the train step', async () => {
  await withPage(PAGE, async (page) => {
    // Serve the same page without COOP/COEP (as a plain static host would).
    await page.route('**/*', async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    });
    await page.reload();
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    await mount(page, { step: '99' });
    assert.match(await text(page, '.label'), /the protocol run in this page \(one thread/);
    assert.match(
      await text(page, '.notice'),
      new RegExp(
        '^The train step did not run on real ranks\\. This view needs SharedArrayBuffer, but this page is not cross-origin isolated: ' +
          'serve it with the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp',
      ),
    );
    assert.equal(await page.locator('grpo-dynamic g.slice').count(), 4);
  });
});

test('under a lazy loader no rank worker starts before start(); play walks the steps; pause stops', async () => {
  await withPage(PAGE, async (page) => {
    await mount(page, { 'data-grpo-lazy': 'waiting', step: '99' });
    await page.waitForFunction(() =>
      /the rank workers start when this view is scrolled into sight/.test(
        document.querySelector('grpo-dynamic')!.shadowRoot!.textContent ?? '',
      ),
    );
    const liveRankWorkers = () => page.evaluate(async () => (await import('/src/ranks/spawn.ts' as string)).liveRankWorkers() as number);
    await page.waitForTimeout(1000);
    assert.equal(await liveRankWorkers(), 0);
    assert.equal(await page.locator('grpo-dynamic pre.run').count(), 0, 'no run before start()');
    await page.evaluate(() => {
      const el = document.querySelector('grpo-dynamic')!;
      el.dataset.grpoLazy = 'started';
      el.start();
    });
    assert.match((await runs(page))[0]!, /ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/);
    assert.equal(await liveRankWorkers(), 0, 'every worker stopped after the run');
    // Play from the first step: it advances on its own, and pause() stops it.
    await page.evaluate(() => document.querySelector('grpo-dynamic')!.setAttribute('step', '0'));
    await page.locator('grpo-dynamic button[name="play"]').click();
    await page.waitForFunction(() => document.querySelector('grpo-dynamic')!.getAttribute('step') === '2', null, { timeout: 10_000 });
    await page.evaluate(() => document.querySelector('grpo-dynamic')!.pause());
    const at = await page.evaluate(() => document.querySelector('grpo-dynamic')!.getAttribute('step'));
    await page.waitForTimeout(2000);
    assert.equal(await page.evaluate(() => document.querySelector('grpo-dynamic')!.getAttribute('step')), at);
  });
});
