// <grpo-framework> in real Chromium: `?view=framework` for every framework of the registry in English and in
// Chinese (drawn, or the framework's refusal in its own words inline), a shipped preset as a button, a config
// pasted in the framework's own format, the packing switch moving the bars (NeMo RL's
// policy.sequence_packing.enabled), a tap on a phone lighting up a prompt's copies and saying where they sit,
// the padding micro-batches marked, the explorer's links into the view, and no sideways scroll of the page at
// 390 px (the figures are drawn for their column: steps and ranks wrap onto new lines, nothing scrolls). No page errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { FRAMEWORK_HOMES } from '../../src/core/frameworks/index.ts';
import { screenshot, withPage } from './harness.ts';

const drawnOrRefused = (page: Page) =>
  page.locator('grpo-framework .figure.layout svg, grpo-framework p.error').first().waitFor({ timeout: 60_000 });
const text = async (page: Page, selector: string) => (await page.locator(`grpo-framework ${selector}`).first().textContent()) ?? '';
const attr = (page: Page, name: string) => page.evaluate((n) => document.querySelector('grpo-framework')!.getAttribute(n), name);
/** The micro-batch strips of the packing figure: rank, micro-batch and the samples in it. */
const strips = (page: Page) =>
  page
    .locator('grpo-framework .figure.packing svg g.mb')
    .evaluateAll((gs) => gs.map((g) => [...g.querySelectorAll('[data-sample]')].map((b) => `${b.getAttribute('data-prompt')}`).join(' ')));

test('every framework of the registry, in English and in Chinese: its layout drawn, or its refusal in its own words', async () => {
  for (const lang of ['en', 'zh-CN']) {
    for (const home of FRAMEWORK_HOMES) {
      await withPage(`/?view=framework&framework=${home.name}${lang === 'en' ? '' : '&lang=zh-CN'}`, async (page) => {
        await drawnOrRefused(page);
        assert.match(await text(page, 'h2'), lang === 'en' ? /^A framework read from its own config/ : /^按框架自己的配置文件读取/);
        // The picker is the registry, in its order.
        const options = await page
          .locator('grpo-framework select[name="framework"] option')
          .evaluateAll((os) => os.map((o) => o.getAttribute('value')));
        assert.deepEqual(
          options,
          FRAMEWORK_HOMES.map((h) => h.name),
        );
        assert.equal(await page.locator('grpo-framework select[name="framework"]').inputValue(), home.name);
        // Every key of the home is a field labelled by the framework's own key, with its shipped default.
        assert.equal(await page.locator('grpo-framework .keys label.key').count(), home.keys.length);
        assert.equal(await text(page, '.keys label.key code'), home.keys[0]!.key);
        assert.match(await text(page, '.keys label.key small'), lang === 'en' ? /^default / : /^默认 /);
        if (await page.locator('grpo-framework p.error').count()) {
          // The framework's own words stay as written (marked as the original in Chinese).
          assert.match(await text(page, 'p.error'), /\(.*[0-9a-f]{7}\)/);
          if (lang !== 'en') assert.equal(await page.locator('grpo-framework p.error span[lang="en"]').count(), 1);
        } else {
          assert.ok((await page.locator('grpo-framework g.tile').count()) > 0);
          assert.ok((await page.locator('grpo-framework ul.counts li').count()) > 0);
        }
      });
    }
  }
});

test('a shipped preset is a button, and a config pasted in the framework’s own format is read as the CLI reads it', async () => {
  await withPage('/?view=framework&framework=prime-rl', async (page) => {
    await drawnOrRefused(page);
    await page.locator('grpo-framework button.preset[data-preset="prime-rl-hendrycks-sanity"]').click();
    await page.waitForFunction(() => document.querySelector('grpo-framework')!.getAttribute('preset') === 'prime-rl-hendrycks-sanity');
    assert.match(await text(page, 'p.read'), /--preset prime-rl-hendrycks-sanity \(.*\): read \d+ keys: /);
    // The pasted TOML: the page's reading (its origin says "from the config").
    await page.locator('grpo-framework details.paste-box summary').click();
    await page.locator('grpo-framework textarea[name="config"]').fill('[orchestrator]\nbatch_size = 64\ngroup_size = 8\n');
    await page.locator('grpo-framework button.read-config').click();
    await page.waitForFunction(() =>
      /the pasted config: read/.test(document.querySelector('grpo-framework')!.shadowRoot!.querySelector('p.read')?.textContent ?? ''),
    );
    assert.equal(await attr(page, 'preset'), null);
    assert.match(await text(page, 'p.read'), /read 2 keys: orchestrator\.batch_size, orchestrator\.group_size\.\s*$/);
    // A pasted file that is not TOML: the reader's words, inline.
    await page.locator('grpo-framework textarea[name="config"]').fill('seed = [1, 2');
    await page.locator('grpo-framework button.read-config').click();
    await page.locator('grpo-framework p.error').waitFor();
    assert.match(await text(page, 'p.error'), /pasted config is not valid TOML/);
  });
});

test('the packing switch (NeMo RL’s policy.sequence_packing.enabled) moves the bars: the copies of P82 leave their micro-batch', async () => {
  await withPage('/?view=framework&framework=nemo-rl&ranks=2&train-batch-size=4&k=4&sequence-packing=false', async (page) => {
    await page.locator('grpo-framework .figure.packing svg').waitFor({ timeout: 60_000 });
    const off = await strips(page);
    assert.equal(await page.locator('grpo-framework .figure.packing line.budget').count(), 0);
    assert.match(await text(page, '.budget-text'), /No token budget/);
    const box = page.locator('grpo-framework input[name="switch-sequence-packing"]');
    assert.equal(await box.isChecked(), false);
    assert.match(await text(page, '.switches'), /policy\.sequence_packing\.enabled off/);
    await box.check();
    await page.waitForFunction(() => document.querySelector('grpo-framework')!.getAttribute('sequence-packing') === 'true');
    const on = await strips(page);
    assert.notDeepEqual(on, off);
    // Off: one strip holds all four copies of the first prompt; on: they spread over several.
    const holding = (s: string[], p: string) => s.filter((strip) => strip.split(' ').includes(p)).length;
    const first = off[0]!.split(' ')[0]!;
    assert.equal(holding(off, first), 1);
    assert.ok(holding(on, first) > 1, JSON.stringify(on));
    assert.equal(await page.locator('grpo-framework .figure.packing line.budget').count(), 2);
    assert.match(await text(page, '.budget-text'), /Budget: 2048 tokens per micro-batch \(policy\.sequence_packing\.train_mb_tokens unset/);
    await screenshot(page, 'framework-packing-1280');
  });
});

test('prime-rl on 8 ranks: the ranks that step on padding are marked and said', async () => {
  await withPage('/?view=framework&framework=prime-rl&ranks=8&train-batch-size=4&k=4', async (page) => {
    await page.locator('grpo-framework .figure.packing svg').waitFor({ timeout: 60_000 });
    const marked = await page
      .locator('grpo-framework .figure.packing g.rank-head.pads')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-rank')));
    assert.ok(marked.length > 0);
    assert.equal(await page.locator('grpo-framework .figure.packing g.pad-mb').count(), marked.length);
    assert.match(await text(page, '.synced'), new RegExp(`${marked.length === 1 ? 'rank' : 'ranks'} ${marked[0]}.* step on padding\\.$`));
  });
});

test('a phone (390 px): a tap lights up a prompt’s copies and says where they sit; the page never scrolls sideways', async () => {
  await withPage(
    '/?view=framework&framework=nemo-rl&ranks=2&train-batch-size=4&k=4&sequence-packing=false',
    async (page) => {
      await page.locator('grpo-framework .figure.packing svg').waitFor({ timeout: 60_000 });
      assert.match(await text(page, 'p.copies'), /^\s*Tap or hover a tile/);
      const tile = page.locator('grpo-framework .figure.layout g.tile').first();
      const prompt = await tile.getAttribute('data-prompt');
      await tile.tap();
      await page.waitForFunction((p) => document.querySelector('grpo-framework')!.getAttribute('prompt') === p, prompt);
      assert.match(await text(page, 'p.copies'), new RegExp(`P${prompt}'s 4 copies in step 0 sit on rank 0\\.`));
      // Its tiles and bars stay lit, the others fade.
      const opacity = (sel: string) =>
        page
          .locator(sel)
          .first()
          .evaluate((el) => getComputedStyle(el).opacity);
      assert.equal(await opacity(`grpo-framework .figure.layout g.tile[data-prompt="${prompt}"]`), '1');
      assert.equal(await opacity(`grpo-framework .figure.layout g.tile:not([data-prompt="${prompt}"])`), '0.28');
      assert.equal(await opacity(`grpo-framework .figure.packing g.bar:not([data-prompt="${prompt}"])`), '0.28');
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
      assert.ok(widths.page <= widths.window, `the page is ${widths.page} px wide in ${widths.window}`);
      // Both figures are drawn for the column: neither scrolls in its box.
      const over = await page.locator('grpo-framework .figure').evaluateAll((els) => els.map((el) => el.scrollWidth - el.clientWidth));
      assert.ok(over.length === 2 && over.every((o) => o <= 1), `the figures are ${over.join(', ')} px wider than their boxes`);
      // What the caption speaks of is within the window.
      const copies = await page.locator('grpo-framework p.copies').boundingBox();
      assert.ok(copies && copies.x >= 0 && copies.x + copies.width <= 390);
      await screenshot(page, 'framework-390');
    },
    { viewport: { width: 390, height: 844 }, hasTouch: true },
  );
});

test('the explorer’s sampler choice links to each framework’s view', async () => {
  await withPage('/?preset=seed-000', async (page) => {
    const links = page.locator('grpo-config-panel p.frameworks a');
    await links.first().waitFor({ timeout: 60_000 });
    assert.deepEqual(
      await links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      FRAMEWORK_HOMES.map((h) => `?view=framework&framework=${h.name}`),
    );
  });
});
