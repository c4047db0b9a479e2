// No label is cut off: every view (the explorer, its compare pair, the schedule, dynamic and
// training views) at 390, 860 and 1280 px wide is searched, through every shadow root, for text
// clipped by its box (an element that hides overflow and whose content is wider or taller than
// it, outside scrollable areas) and for a select narrower than its chosen option's text. The
// pictures' own labels are drawn into a canvas; the painter fits each one into the picture's
// width (layout-painter.ts). Screenshots: test-results/overflow-<view>-<width>.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withPage } from './harness.ts';

const WIDTHS = [390, 860, 1280];
const VIEWS: Record<string, { url: string; ready: string }> = {
  explorer: { url: '/?preset=seed-000&phase=gather', ready: 'grpo-explorer grpo-layout-canvas' },
  compare: { url: '/?preset=seed-000&phase=regroup&compare=view', ready: 'grpo-explorer figure.compared grpo-layout-canvas' },
  schedule: { url: '/?view=schedule&latency=controller', ready: 'grpo-schedule svg.gantt' },
  dynamic: { url: '/?view=dynamic&preset=seed-002&step=4', ready: 'grpo-dynamic svg.dynamic-figure' },
  train: { url: '/?view=train', ready: 'grpo-train #start' },
};

/**
 * Every clipped text on the page, described (tag, class, text, sizes). Plain JavaScript run in the
 * page (a string: tsx would wrap named functions in a helper the page does not have).
 */
const CLIPPED = `(() => {
  const out = [];
  const measure = document.createElement('canvas').getContext('2d');
  const hides = (o) => o === 'hidden' || o === 'clip';
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      const cls = typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '';
      const what = el.localName + cls + ' “' + (el.textContent || '').trim().slice(0, 40) + '”';
      if (el.localName === 'select') {
        const option = el.selectedOptions[0] ? el.selectedOptions[0].textContent : '';
        measure.font = style.font;
        // The arrow and the padding take about 20 px (an auto-sized select leaves exactly that).
        const need = measure.measureText(option).width + 20;
        if (need > el.clientWidth + 1) out.push('select “' + option + '”: needs ' + Math.ceil(need) + ' px, has ' + el.clientWidth);
        continue;
      }
      const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent || '').trim() !== '');
      if (!hasText) continue;
      if (hides(style.overflowX) && el.scrollWidth > el.clientWidth + 1) out.push(what + ': ' + el.scrollWidth + ' px wide in ' + el.clientWidth);
      else if (hides(style.overflowY) && el.scrollHeight > el.clientHeight + 1) out.push(what + ': ' + el.scrollHeight + ' px tall in ' + el.clientHeight);
    }
  };
  visit(document);
  return out;
})()`;

const clipped = (page: Page): Promise<string[]> => page.evaluate(CLIPPED);

for (const [name, view] of Object.entries(VIEWS)) {
  test(`${name}: no text cut off at 390, 860 and 1280 px`, async () => {
    for (const width of WIDTHS) {
      await withPage(
        view.url,
        async (page) => {
          await page.locator(view.ready).first().waitFor({ timeout: 120_000 });
          await screenshot(page, `overflow-${name}-${width}`);
          assert.deepEqual(await clipped(page), [], `${name} at ${width} px`);
        },
        { viewport: { width, height: 900 } },
      );
    }
  });
}
