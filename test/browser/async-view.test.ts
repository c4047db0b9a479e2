// <grpo-async> in real Chromium: `?view=async` in English and in Chinese (the timeline, its legend and the table of
// every framework the core offers), drops crossed out in the figure and said in words under it, the slider over the
// framework's own bound changing the run (AReaL's max_head_offpolicyness 0 → 2: the trainer waits less), the framework
// picker, the article's figure (the picture and one control), and a phone: no sideways scroll of the page, the figure
// drawn for its column (its time axis scaled: no scrolling), the table scrolling inside its box and saying so. No page errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { RULES } from '../../src/core/async/index.ts';
import { screenshot, withPage } from './harness.ts';

const ready = (page: Page) => page.locator('grpo-async .figure svg.async-figure').waitFor({ timeout: 60_000 });
const text = async (page: Page, selector: string) => (await page.locator(`grpo-async ${selector}`).first().textContent()) ?? '';

test('?view=async in English: the timeline, its words, and every framework of the core side by side', async () => {
  await withPage('/?view=async&framework=trl-async&max-staleness=1', async (page) => {
    await ready(page);
    assert.match(await text(page, 'h2'), /^Asynchronous GRPO/);
    assert.equal(await page.title(), 'grpo-sandbox · asynchronous GRPO');
    // The framework picker and the table list what the core offers, in its order.
    const frameworks = RULES.map((d) => d.framework);
    assert.deepEqual(await page.locator('grpo-async select[name="framework"] option').allTextContents(), frameworks);
    const rows = await page
      .locator('grpo-async table.compare tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-framework')));
    assert.deepEqual(
      rows,
      ['trl-async', ...frameworks],
      'the figure’s own row (its settings are not the shipped ones), then every framework',
    );
    // The slider's label is TRL's own key.
    assert.match(await text(page, 'label.bound'), /max_staleness = 1 \(shipped default 4\)/);
    // Drops: crossed out in the figure, and in words under it (a phone has no hover).
    assert.equal(await page.locator('grpo-async g.completion.dropped').count(), 18 * 4);
    assert.match(await text(page, '.drops-total'), /^Dropped: 18 groups \(red ✕\), none put back in the queue:/);
    assert.match(await text(page, 'ul.drops li[data-why="stale-at-consumption"]'), /18 too stale when the trainer pulled them/);
    assert.match(
      await text(page, '.first-drop'),
      /The first: prompt 10, when the trainer was at v2: dropping stale sample \(staleness > max=1\)/,
    );
    assert.match(await text(page, 'p.bias'), /average 291 tokens against 874 for all finished ones \(−66\.7%\)\. Hard prompts: 0 of 57/);
    // The trainer's waits are drawn, and a completion of two versions has two colours.
    assert.ok((await page.locator('grpo-async g.idle').count()) > 0);
    assert.ok((await page.locator('grpo-async g.completion[data-versions="0 1"] rect').count()) >= 2);
    // A bar's tooltip says its fate.
    const title = await page.locator('grpo-async g.completion.dropped title').first().textContent();
    assert.match(
      title ?? '',
      /^prompt \d+, completion \d: \d+ tokens, .* decoded by v\d.*; dropped at v\d+, too stale when the trainer pulled it: “dropping stale sample/,
    );
    assert.match(await text(page, '.command'), /grpo-sandbox async --framework trl-async --max-staleness 1$/);
    // The export takes the timeline.
    assert.equal(
      await page.evaluate(() => (document.querySelector('grpo-async') as unknown as { figure(): Element }).figure().tagName),
      'svg',
    );
  });
});

test('the slider moves the framework’s own bound and the run follows; the picker starts a framework at its shipped settings', async () => {
  await withPage('/?view=async&framework=areal', async (page) => {
    await ready(page);
    assert.match(await text(page, 'label.bound'), /rollout\.max_head_offpolicyness = 0 \(shipped default 0\)/);
    assert.match(await text(page, '.run'), /8 trainer steps in 349\.0 s .* mean lag of 0\.00 \(max 0\); the trainer waited 269\.0 s/);
    const slider = page.locator('grpo-async input[name="max-staleness"]');
    await slider.evaluate((el: HTMLInputElement) => {
      el.value = '2';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() => document.querySelector('grpo-async')!.getAttribute('max-staleness') === '2');
    await page.waitForFunction(() =>
      /waited 37\.1 s/.test(document.querySelector('grpo-async')!.shadowRoot!.querySelector('.run')?.textContent ?? ''),
    );
    assert.match(await text(page, 'label.bound'), /rollout\.max_head_offpolicyness = 2/);
    assert.match(await text(page, '.run'), /in 117\.1 s .* \(max 4\)/);
    // Another framework: its own bound, at its shipped value (AReaL's setting is not carried over).
    await page.locator('grpo-async select[name="framework"]').selectOption('nemo-rl');
    await page.waitForFunction(() => document.querySelector('grpo-async')!.getAttribute('framework') === 'nemo-rl');
    assert.equal(await page.evaluate(() => document.querySelector('grpo-async')!.getAttribute('max-staleness')), null);
    assert.match(await text(page, 'label.bound'), /async_rl\.sampler\.max_staleness_versions = 1 \(shipped default 1\)/);
    assert.match(await text(page, 'ul.drops'), /17 aborted while still generating.*9 evicted from the buffer/s);
    // slime has no bound to slide, and says so.
    await page.locator('grpo-async select[name="framework"]').selectOption('slime');
    await page.locator('grpo-async .no-bound').waitFor();
    assert.equal(await page.locator('grpo-async input[name="max-staleness"]').count(), 0);
    // A bad value is one line in the view, named by its key, not a thrown error.
    await page.evaluate(() => document.querySelector('grpo-async')!.setAttribute('k', 'five'));
    assert.equal(await page.locator('grpo-async .error').textContent(), "Cannot run this simulation: k must be a whole number, got 'five'");
  });
});

test('?view=async in Chinese: the words are the Chinese catalogue’s, the framework’s own words marked as the original', async () => {
  await withPage('/?view=async&lang=zh-CN&framework=trl-async&max-staleness=1', async (page) => {
    await ready(page);
    assert.match(await text(page, 'h2'), /^异步 GRPO/);
    assert.match(await text(page, '.drops-total'), /^被丢弃：18 个组/);
    assert.match(await text(page, 'ul.drops'), /18 个在训练器取用时已过于陈旧/);
    assert.match(await text(page, 'p.bias'), /平均 291 个词元，而所有生成完毕的平均 874 个（−66\.7%）/);
    assert.match(await text(page, 'table.compare thead'), /平均滞后/);
    assert.equal(await page.locator('grpo-async .first-drop .i18n-original span[lang="en"]').count(), 1);
    assert.match(await text(page, 'svg.async-figure'), /训练器/);
  });
});

test('a phone (390 px): the page does not scroll sideways; the figure fits its column, the table scrolls in its box and says so', async () => {
  // NeMo RL: the framework with the most settings of its own, each labelled by its long key.
  await withPage(
    '/?view=async&framework=nemo-rl',
    async (page) => {
      await ready(page);
      await screenshot(page, 'async-390');
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
      assert.ok(widths.page <= widths.window, `the page is ${widths.page} px wide in ${widths.window}`);
      const figure = await page
        .locator('grpo-async .figure')
        .evaluate((el) => ({ over: el.scrollWidth - el.clientWidth, svgRight: el.querySelector('svg')!.getBoundingClientRect().right }));
      assert.ok(
        figure.over <= 1 && figure.svgRight <= 390,
        `the figure is ${figure.over} px wider than its box, ends at ${figure.svgRight}`,
      );
      await page.waitForFunction(
        () => document.querySelector('grpo-async')!.shadowRoot!.querySelector('.table-scroll')!.getAttribute('data-scrolls') === 'right',
      );
      // The words the figure needs are outside the scrolling box, within the window.
      const legend = await page.locator('grpo-async p.legend').first().boundingBox();
      assert.ok(legend && legend.x + legend.width <= 390);
    },
    { viewport: { width: 390, height: 844 } },
  );
  await withPage(
    '/?view=async',
    async (page) => {
      await ready(page);
      await screenshot(page, 'async-1280');
      assert.equal(await page.locator('grpo-async .figure').getAttribute('data-scrolls'), null, 'the figure fits at 1280 px');
    },
    { viewport: { width: 1280, height: 800 } },
  );
});

test('as an article’s figure: the picture, its words and one control, the slider', async () => {
  await withPage('/test/browser/pages/views.html', async (page) => {
    await page.evaluate(async () => {
      await import('/src/ui/async/async-view.ts' as string);
      const el = document.createElement('grpo-async');
      el.setAttribute('figure', '');
      el.setAttribute('framework', 'trl-async');
      el.setAttribute('max-staleness', '1');
      document.getElementById('host')!.append(el);
    });
    await ready(page);
    assert.deepEqual(
      await page.locator('grpo-async input, grpo-async select').evaluateAll((els) => els.map((e) => e.getAttribute('name'))),
      ['max-staleness'],
    );
    assert.equal(await page.locator('grpo-async table').count(), 0);
    assert.equal(await page.locator('grpo-async h2').count(), 0);
    assert.match(await text(page, '.drops-total'), /Dropped: 18 groups/);
  });
});
