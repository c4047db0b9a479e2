// The page in Simplified Chinese (lang=zh-CN) in real Chromium: every view is opened in Chinese and
// every visible text node and every title / aria-label / placeholder / alt (through shadow roots,
// SVG <title> tooltips and <option>s included) is searched for English words left untranslated.
// What may stay English: technical terms practitioners keep in English (ALLOWED), identifiers
// (flag and URL names, code: anything with - _ . = ( / or a digit, camelCase, ACRONYMS), text in
// <code>/<pre><code>, names marked translate="no" (the CLI's values in a select), and text marked lang="en" (what the core says only in English,
// shown behind a Chinese lead-in that says it is the original; the English button of the switch).
// Also: the switch changes the URL and the words, and back; an unknown lang= gets a notice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { firstView, jump, settled } from './explorer-page.ts';
import { withPage } from './harness.ts';
import { untranslatedWords } from '../helpers/untranslated.ts';

interface Found {
  text: string;
  where: string;
}

/** Every visible text and text attribute of the page, through shadow roots; deliberate English (lang="en", code) left out. */
async function collectTexts(page: Page): Promise<Found[]> {
  // tsx keeps function names with a __name helper, which the page does not have.
  await page.evaluate('window.__name ??= (f) => f');
  return page.evaluate(() => {
    const out: { text: string; where: string }[] = [];
    const path = (el: Element) => {
      const parts: string[] = [];
      for (
        let e: Element | null = el;
        e && parts.length < 4;
        e = e.parentElement ?? ((e.getRootNode() as ShadowRoot).host as Element | null)
      ) {
        parts.unshift(e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') + (e.classList.length ? `.${[...e.classList].join('.')}` : ''));
      }
      return parts.join(' > ');
    };
    const skipTags = new Set(['STYLE', 'SCRIPT', 'TEMPLATE', 'CODE', 'KBD', 'SAMP', 'NOSCRIPT']);
    const visible = (el: Element) => {
      // <option>s and SVG <title> tooltips are words a person reads even when not laid out.
      if (el.tagName === 'OPTION' || el.tagName.toLowerCase() === 'title') return true;
      return (el as HTMLElement).checkVisibility?.({ checkOpacity: false, checkVisibilityCSS: true }) ?? true;
    };
    const walk = (node: Node) => {
      for (const child of node.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) {
          const parent = child.parentElement;
          const text = child.textContent?.trim() ?? '';
          if (text && parent && visible(parent)) out.push({ text, where: path(parent) });
          continue;
        }
        if (!(child instanceof Element)) continue;
        if (skipTags.has(child.tagName)) continue;
        // Marked English on purpose (lang="en"), or a name not to translate (translate="no": the CLI's values in a select).
        const lang = child.getAttribute('lang');
        if (lang !== null && /^en\b/i.test(lang)) continue;
        if (child.getAttribute('translate') === 'no') continue;
        if (child instanceof HTMLElement && child.hidden) continue;
        for (const attr of ['title', 'aria-label', 'placeholder', 'alt']) {
          const v = child.getAttribute(attr);
          if (v?.trim()) out.push({ text: v, where: `${path(child)} [${attr}]` });
        }
        if (child.shadowRoot) walk(child.shadowRoot);
        walk(child);
      }
    };
    walk(document.body);
    out.push({ text: document.title, where: 'document.title' });
    return out;
  });
}

/** Fails with every untranslated string and where it sits. */
async function assertChinese(page: Page, label: string): Promise<number> {
  const texts = await collectTexts(page);
  const bad = texts
    .map((t) => ({ ...t, words: untranslatedWords(t.text) }))
    .filter((t) => t.words.length > 0)
    .map((t) => `${t.where}: "${t.text.slice(0, 160)}" (${t.words.join(', ')})`);
  assert.deepEqual(bad, [], `${label}: untranslated strings`);
  // Not vacuous: the page holds Chinese text.
  assert.ok(texts.filter((t) => /[\u4e00-\u9fff]/.test(t.text)).length > 10, `${label}: too little Chinese text (${texts.length} strings)`);
  return texts.length;
}

test('untranslatedWords: English words fail; terms, identifiers, code-like names and numbers pass', () => {
  assert.deepEqual(untranslatedWords('每个 rank 的 batch：k=4，flow_grpo，rewards.view(-1, k)，P13，--fix，WebGPU，TRL'), []);
  assert.deepEqual(untranslatedWords('Showing the last valid layout'), ['Showing', 'the', 'last', 'valid', 'layout']);
  assert.deepEqual(untranslatedWords('第 3 步：reward 0.5, of optimum'), ['optimum']);
});

test('the explorer in Chinese: every phase with a question, the compare text, the copies table, the notices', async () => {
  await withPage('/?lang=zh-CN&preset=seed-000&quiz=1&compare=view&prompt=3&speed=9', async (page) => {
    await firstView(page);
    await assertChinese(page, 'explorer, sample');
    for (const phase of ['scatter', 'accumulate', 'gather'] as const) {
      await page.locator('grpo-story-controls button[data-phase="' + phase + '"]').click();
      await page.locator('grpo-quiz .question').waitFor();
      await assertChinese(page, `explorer, ${phase} question`);
      await page.locator('grpo-quiz button.reveal').click();
      await page.locator('grpo-quiz .result').waitFor();
      await assertChinese(page, `explorer, ${phase} answer`);
    }
    for (const phase of ['regroup', 'advantages', 'slice'] as const) {
      await jump(page, phase);
      await assertChinese(page, `explorer, ${phase}`);
    }
    // The table view of the gather, opened.
    await page.locator('details.table-view summary').click();
    await page.locator('details.table-view table').waitFor();
    await assertChinese(page, 'explorer, table');
  });
});

test('an error state in Chinese: the core ConfigError said from its facts, its fixes in Chinese labels; a what-if note', async () => {
  await withPage('/?lang=zh-CN&preset=seed-000&k=3&regroup=uid', async (page) => {
    await firstView(page);
    const message = (await page.locator('grpo-config-panel .error .message').textContent()) ?? '';
    assert.match(message, /k=3 必须整除 ranks×batch=16/);
    assert.match((await page.locator('grpo-config-panel .suggestion').first().textContent()) ?? '', /每个 prompt 的副本数（k） = \d+/);
    await assertChinese(page, 'error state');
  });
  // A view's settings error: the core's message in the view's Chinese words (from its facts, or the marked original).
  await withPage('/?view=train&lang=zh-CN&k=1', async (page) => {
    await page.locator('grpo-train .error').waitFor({ timeout: 60_000 });
    await assertChinese(page, 'train settings error');
  });
});

test('the overview of a layout too big for tiles, in Chinese', async () => {
  await withPage('/?lang=zh-CN&ranks=1000&batch=1000&k=4&batches=1&dataset=250000', async (page) => {
    await firstView(page);
    await page.waitForFunction(
      () =>
        (document.querySelector('grpo-explorer')?.shadowRoot?.querySelector('grpo-overview') as HTMLElement | null)?.dataset.ready !==
        undefined,
      undefined,
      { timeout: 120_000 },
    );
    await assertChinese(page, 'overview');
  });
});

test('the views in Chinese: ?view=schedule, ?view=dynamic (to the rank workers), ?view=steps and ?view=train', async () => {
  await withPage('/?view=schedule&lang=zh-CN', async (page) => {
    await page.locator('grpo-schedule table').waitFor({ timeout: 60_000 });
    await page.locator('grpo-schedule g.launch').first().hover();
    await assertChinese(page, 'schedule');
  });
  await withPage('/?view=dynamic&lang=zh-CN&step=1', async (page) => {
    await page.locator('grpo-dynamic svg.dynamic-figure').waitFor({ timeout: 60_000 });
    await assertChinese(page, 'dynamic, a resample');
    // The policy's button jumps to the last step: the train step on the rank workers, its failure printed as a real run prints it.
    await page.locator('grpo-dynamic .policies button[aria-pressed="true"]').click();
    await page.locator('grpo-dynamic pre.run').first().waitFor({ timeout: 90_000 });
    await assertChinese(page, 'dynamic, the train step');
  });
  await withPage('/?view=steps&lang=zh-CN&sampler=trl&ga=3', async (page) => {
    await page.locator('grpo-steps .figure svg').waitFor({ timeout: 60_000 });
    await assertChinese(page, 'steps, its figure, findings and notes');
  });
  await withPage('/?view=async&lang=zh-CN&framework=nemo-rl', async (page) => {
    await page.locator('grpo-async .figure svg').waitFor({ timeout: 60_000 });
    await assertChinese(page, 'async, its timeline, drops and table');
  });
  await withPage('/?view=framework&lang=zh-CN&framework=nemo-rl&ranks=2&train-batch-size=4&k=4&prompt=82', async (page) => {
    await page.locator('grpo-framework .figure.packing svg').waitFor({ timeout: 60_000 });
    await assertChinese(page, 'framework, its layout, packing, keys and counts');
  });
  await withPage('/?view=train&lang=zh-CN', async (page) => {
    await page.locator('grpo-train .u-title').first().waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('grpo-train')?.shadowRoot?.querySelectorAll('.u-title').length === 10);
    await assertChinese(page, 'train');
  });
});

test('the switch: 中文 sets lang=zh-CN in the URL and changes the words in place; English removes it and restores them', async () => {
  await withPage('/?preset=seed-000', async (page) => {
    await firstView(page);
    await settled(page, 'sample');
    const caption = page.locator('p.caption');
    const before = (await caption.textContent())!;
    const title = (await page.locator('grpo-config-panel h2').textContent())!;
    assert.equal(title, 'Configuration');
    await page.locator('grpo-lang-switch button[data-lang="zh-CN"]').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('lang') === 'zh-CN');
    assert.equal(await page.locator('grpo-config-panel h2').textContent(), '配置');
    const after = (await caption.textContent())!;
    assert.notEqual(after, before);
    assert.match(after, /每个 step，sampler 抽取 prompt/);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    // The explorer's own URL writes (a step of the story) keep the language.
    await jump(page, 'scatter');
    assert.equal(new URL(page.url()).searchParams.get('lang'), 'zh-CN');
    await assertChinese(page, 'explorer after the switch');
    await page.locator('grpo-lang-switch button[data-lang="en"]').click();
    await page.waitForFunction(() => !new URLSearchParams(location.search).has('lang'));
    assert.equal(await page.locator('grpo-config-panel h2').textContent(), 'Configuration');
    await jump(page, 'sample');
    assert.equal(await caption.textContent(), before);
  });
  await withPage('/?view=schedule', async (page) => {
    await page.locator('grpo-schedule table').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('grpo-schedule h2').textContent(), 'How the expanded batch runs on the ranks');
    await page.locator('grpo-lang-switch button[data-lang="zh-CN"]').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('lang') === 'zh-CN');
    assert.equal(await page.locator('grpo-schedule h2').textContent(), '扩展后的 batch 如何在各 rank 上运行');
    await assertChinese(page, 'schedule after the switch');
  });
  // The training dashboard's uPlot charts (built outside Lit's templates) are relabelled by the switch too.
  await withPage('/?view=train', async (page) => {
    await page.waitForFunction(() => document.querySelector('grpo-train')?.shadowRoot?.querySelectorAll('.u-title').length === 10);
    await page.locator('grpo-lang-switch button[data-lang="zh-CN"]').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('lang') === 'zh-CN');
    await assertChinese(page, 'train after the switch');
  });
});

test('an unknown lang= is named in a notice and the page stays English', async () => {
  await withPage('/?lang=fr&preset=seed-000', async (page) => {
    await firstView(page);
    assert.match(
      (await page.locator('grpo-lang-switch .notice').textContent()) ?? '',
      /“lang=fr” in the link is not a language this page speaks/,
    );
    assert.equal(await page.locator('grpo-config-panel h2').textContent(), 'Configuration');
  });
});
