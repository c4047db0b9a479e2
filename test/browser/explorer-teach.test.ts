// The explorer as a teacher's instrument, in real Chromium: each sampler starts from its
// framework's regrouping, any other choice is marked as a "what if", and an embed in a
// course page (a cross-origin iframe) draws without a false banner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath, screenshot, session, withPage } from './harness.ts';
import { coreCopies, firstView, jump, settled } from './explorer-page.ts';

const regroupValue = (page: import('playwright-core').Page) => page.locator('grpo-explorer select#regroup').inputValue();

test("each sampler starts from its framework's regrouping; another is marked as a what-if with the real framework's", async () => {
  const expected: [string, string][] = [
    ['/?preset=seed-000', 'prompt-id'],
    ['/?preset=seed-002', 'view'],
    ['/?sampler=dance-grpo&ranks=4&batch=4&k=2&dataset=32', 'local'],
    ['/?sampler=contiguous&ranks=4&batch=4&k=4&batches=1&dataset=16', 'local'],
  ];
  for (const [link, regroup] of expected) {
    await withPage(link, async (page) => {
      await firstView(page);
      assert.equal(await regroupValue(page), regroup, link);
      assert.equal(await page.locator('grpo-explorer .whatif').count(), 0, `${link}: the framework's own choice is no what-if`);
      await jump(page, 'regroup');
      assert.doesNotMatch((await page.locator('grpo-explorer .caption').textContent()) ?? '', /What if/);
    });
  }
  await withPage('/?preset=seed-000', async (page) => {
    await firstView(page);
    // Switching the sampler brings TRL's view(-1, k).
    await page.locator('grpo-config-panel select#sampler').selectOption('trl');
    await page.waitForFunction(() => location.search.includes('regroup=view'));
    assert.equal(await regroupValue(page), 'view');
    // flow_grpo's regrouping on TRL's layout is a what-if, in the panel and in the caption.
    await page.locator('grpo-explorer select#regroup').selectOption('prompt-id');
    const note = page.locator('grpo-explorer .whatif');
    await note.waitFor();
    assert.match(
      (await note.textContent()) ?? '',
      /not what TRL does: it gathers each generation batch and groups with rewards.view\(-1, k\)/,
    );
    await jump(page, 'advantages');
    assert.match((await page.locator('grpo-explorer .caption').textContent()) ?? '', /What if: .* on a TRL layout; TRL itself gathers/);
    await screenshot(page, 'explorer-whatif-trl-by-prompt');
    await note.locator('button.use-default').click();
    await note.waitFor({ state: 'detached' });
    assert.equal(await regroupValue(page), 'view');
  });
});

test('an embed in a cross-origin iframe draws the layout and shows no isolation banner', async () => {
  // A course page on another origin (127.0.0.1 vs localhost) served like an ordinary site, without
  // COOP/COEP. Chromium's local-network checks would block a loopback page framing another loopback
  // origin; a real course page and explorer are both public, so this browser turns that check off.
  const { server } = await session();
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs, '--disable-features=LocalNetworkAccessChecks'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const explorer = server.url;
    const port = new URL(explorer).port;
    await page.route(`http://127.0.0.1:${port}/**`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    });
    const src = encodeURIComponent(`${explorer}/?preset=seed-000&embed=1&phase=scatter`);
    await page.goto(`http://127.0.0.1:${port}/test/browser/pages/course.html?src=${src}`);
    const frame = page.frameLocator('#x');
    await frame.locator('grpo-layout-canvas canvas').waitFor();
    const inner = page.frames().find((f) => f.url().startsWith(explorer))!;
    await inner.waitForFunction(() => window.grpoFirstViewMs !== undefined);
    assert.equal(await inner.evaluate(() => window.top !== window && !crossOriginIsolated), true, 'framed, not isolated');
    assert.equal(await frame.locator('grpo-explorer .isolation').count(), 0);
    const count = await inner.evaluate(() => {
      const app = document.querySelector('grpo-explorer')!;
      return (app.shadowRoot!.querySelector('grpo-layout-canvas') as unknown as { tileRects(): unknown[] }).tileRects().length;
    });
    assert.equal(count, 32);
    await screenshot(page, 'explorer-embed-cross-origin');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  } finally {
    await browser.close();
  }
});

test("compare side by side: TRL's view(-1, k) beside flow_grpo's grouping on the same draws, the difference named from the core", async () => {
  await withPage('/?preset=seed-000&phase=scatter', async (page) => {
    await firstView(page);
    await page.locator('grpo-explorer select#compare').selectOption('view');
    await page.waitForFunction(() => location.search.includes('compare=view'));
    await jump(page, 'advantages');
    assert.equal(await page.locator('grpo-explorer grpo-layout-canvas').count(), 2, 'two pictures');
    const expected = await page.evaluate(async () => {
      const samplers = await import('/src/core/samplers/index.ts' as string);
      const presets = await import('/src/core/presets.ts' as string);
      const g = await import('/src/core/layout/gather.ts' as string);
      const r = await import('/src/core/layout/regroup.ts' as string);
      const adv = await import('/src/core/grpo/advantages.ts' as string);
      const toy = await import('/src/core/grpo/toy-rewards.ts' as string);
      const layout = samplers.buildLayout(presets.presets['seed-000'].config);
      const gather = g.gathers(layout)[0];
      const rows = r.regroup(gather, 'view', 4);
      const rewards = toy.toyRewards(
        'random',
        42,
        0,
        gather.samples.map((s: { promptId: number }) => s.promptId),
      );
      const a = adv.advantagesOfRegroup('prompt-id', gather, rewards, 4);
      const b = adv.advantagesOfRegroup('view', gather, rewards, 4, 'group');
      return {
        mixed: rows.filter((x: { mixed: boolean }) => x.mixed).length as number,
        rows: rows.length as number,
        differ: a.filter((v: number, i: number) => Math.abs(v - b[i]) > 1e-9).length as number,
      };
    });
    const text = (await page.locator('grpo-explorer .compare-text').textContent()) ?? '';
    assert.match(
      text,
      new RegExp(
        `TRL's view\\(-1, k\\) on flow_grpo's gather mixes prompts in ${expected.mixed} of ${expected.rows} rows; ${expected.differ} of 32 advantages differ`,
      ),
    );
    assert.ok(expected.mixed > 0 && expected.differ > 0);
    await screenshot(page, 'explorer-compare-view');
    // The second picture carries the compared advantages: its tiles sit in view(-1, k) rows.
    const rowsOfSecond = await page.evaluate(() => {
      const canvases = document.querySelector('grpo-explorer')!.shadowRoot!.querySelectorAll('grpo-layout-canvas');
      return (canvases[1] as unknown as { rows: { key: string }[] }).rows.map((x) => x.key);
    });
    assert.deepEqual(rowsOfSecond, ['0', '1', '2', '3', '4', '5', '6', '7']);
  });
});

test('predict, then reveal (quiz=1): the scatter waits for the answer, which is the core’s', async () => {
  await withPage('/?preset=seed-000&quiz=1&speed=4', async (page) => {
    await firstView(page);
    await page.locator('grpo-story-controls button.forward').click();
    const quiz = page.locator('grpo-quiz');
    await quiz.waitFor();
    // Held in the caption: the tiles do not move before the reveal.
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => (document.querySelector('grpo-explorer') as HTMLElement).dataset.stage), 'caption');
    const question = (await quiz.locator('p').first().textContent()) ?? '';
    const prompt = Number(question.match(/copies of P(\d+)/)![1]);
    const copies = await coreCopies(page, 'seed-000', prompt);
    const ranks = [...new Set(copies.map((c) => c.rank))].sort((a, b) => a - b);
    await quiz
      .locator('button', { hasText: `rank ${ranks[0]}` })
      .first()
      .click();
    await quiz.locator('button.reveal').click();
    await settled(page, 'scatter');
    const result = (await quiz.locator('.result').textContent()) ?? '';
    for (const r of ranks) assert.match(result, new RegExp(`rank ${r}\\b`));
    assert.match(result, new RegExp(`You picked 1 of those ${ranks.length} ranks`));
    assert.match(page.url(), /quiz=1/);
    await screenshot(page, 'explorer-quiz-revealed');
  });
});
