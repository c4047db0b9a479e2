// No label is cut off: every view (the explorer, its compare pair, the schedule, dynamic, steps and
// training views, the latter after a short run so its result table is there) at 390, 860 and
// 1280 px wide is searched, through every shadow root, for text clipped by its box (an element
// that hides overflow and whose content is wider or taller than it, outside scrollable areas),
// for a select narrower than its chosen option's text, and for a page wider than the window
// (text past its right edge, outside a scrollable area). The
// pictures' own labels are drawn into a canvas; the painter fits each one into the picture's
// width (layout-painter.ts), and no group of a picture's regroup phase ends past its edge. A box that
// scrolls sideways says so (a line above it and a shadow on the side that holds more), and no figure's
// SVG text is drawn under 9 px, and no button's label breaks over lines. Screenshots:
// test-results/overflow-<view>-<width>.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, withPage } from './harness.ts';

const WIDTHS = [390, 860, 1280];
const VIEWS: Record<string, { url: string; ready: string; act?: (page: Page) => Promise<void> }> = {
  explorer: { url: '/?preset=seed-000&phase=gather', ready: 'grpo-explorer grpo-layout-canvas' },
  compare: { url: '/?preset=seed-000&phase=regroup&compare=view', ready: 'grpo-explorer figure.compared grpo-layout-canvas' },
  schedule: { url: '/?view=schedule&latency=controller', ready: 'grpo-schedule svg.gantt' },
  dynamic: { url: '/?view=dynamic&preset=seed-002&step=4', ready: 'grpo-dynamic svg.dynamic-figure' },
  steps: { url: '/?view=steps', ready: 'grpo-steps .figure svg' },
  async: { url: '/?view=async&framework=nemo-rl', ready: 'grpo-async .figure svg' },
  'async zh-CN': { url: '/?view=async&lang=zh-CN', ready: 'grpo-async .figure svg' },
  train: { url: '/?view=train', ready: 'grpo-train #start' },
  framework: { url: '/?view=framework&framework=nemo-rl&ranks=2&train-batch-size=4&k=4', ready: 'grpo-framework .figure.packing svg' },
  'train result': {
    url: '/?view=train&ranks=2&batch=8&k=4&sampler=trl&steps=6&seed=0&backend=cpu',
    ready: 'grpo-train #start',
    act: async (page) => {
      await page.locator('grpo-train #start').click();
      await page.locator('grpo-train table.policy tr').nth(2).waitFor({ timeout: 240_000 });
    },
  },
  'explorer zh-CN': { url: '/?preset=seed-000&phase=slice&lang=zh-CN', ready: 'grpo-explorer grpo-layout-canvas' },
};

/**
 * Every clipped text on the page, described (tag, class, text, sizes). Plain JavaScript run in the
 * page (a string: tsx would wrap named functions in a helper the page does not have).
 */
const CLIPPED = `(() => {
  const out = [];
  const measure = document.createElement('canvas').getContext('2d');
  const hides = (o) => o === 'hidden' || o === 'clip';
  // Inside an area that scrolls sideways (a wide picture's own scroller), through shadow roots.
  const scrolled = (el) => {
    for (let p = el.parentElement || el.getRootNode().host; p; p = p.parentElement || (p.getRootNode().host ?? null)) {
      const x = getComputedStyle(p).overflowX;
      if ((x === 'auto' || x === 'scroll') && p.scrollWidth > p.clientWidth) return true;
    }
    return false;
  };
  if (document.documentElement.scrollWidth > innerWidth + 1)
    out.push('the page is ' + document.documentElement.scrollWidth + ' px wide in a ' + innerWidth + ' px window');
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
      if (el.getBoundingClientRect().right > innerWidth + 1 && style.position !== 'fixed' && !scrolled(el))
        out.push(what + ': past the right edge of the window (' + Math.round(el.getBoundingClientRect().right) + ' px of ' + innerWidth + ')');
      if (hides(style.overflowX) && el.scrollWidth > el.clientWidth + 1) out.push(what + ': ' + el.scrollWidth + ' px wide in ' + el.clientWidth);
      else if (hides(style.overflowY) && el.scrollHeight > el.clientHeight + 1) out.push(what + ': ' + el.scrollHeight + ' px tall in ' + el.clientHeight);
    }
  };
  visit(document);
  return out;
})()`;

const clipped = (page: Page): Promise<string[]> => page.evaluate(CLIPPED);

/**
 * A check run in the page (a string: tsx's helpers do not exist there): `body` runs for every element
 * `el`, through every shadow root, and pushes what it finds to `out`, which the check returns.
 */
const everyElement = (body: string) => `(() => {
  const out = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      ${body}
    }
  };
  visit(document);
  return out;
})()`;

/**
 * Every group of a layout picture's regroup phase that ends past the picture's edge (a group is one
 * line of tiles, never wrapped: seed-000's groups of 2k showed 6 of 8 tiles on a phone).
 */
const GROUPS_CUT = everyElement(`
  if (el.localName !== 'grpo-layout-canvas' || !el.scene) continue;
  const width = el.getBoundingClientRect().width;
  for (const b of el.scene.phases.regroup.boxes) {
    const right = el.grid.px(b.x + b.w);
    if (right > width + 1) out.push('a group of ' + b.w + ' ends at ' + Math.round(right) + ' px in a ' + Math.round(width) + ' px picture');
  }`);

/**
 * Boxes that scroll sideways without saying so: every element that scrolls horizontally (overflow-x
 * auto or scroll, content wider than the box) must carry the hint (src/ui/scroll-hint.ts:
 * data-scrolls and its line). Preformatted text (a log that wraps) is left out.
 */
const SCROLLS_UNSAID = everyElement(`
  if (el.localName === 'pre' || el.scrollWidth <= el.clientWidth + 1) continue;
  const x = getComputedStyle(el).overflowX;
  if (x !== 'auto' && x !== 'scroll') continue;
  if (!el.hasAttribute('data-scrolls') || !el.getAttribute('data-hint')) {
    out.push(el.localName + '.' + [...el.classList].join('.') + ' scrolls ' + (el.scrollWidth - el.clientWidth) + ' px sideways with no hint');
  }`);

/** SVG text drawn under 9 px on screen (its font size times the figure's scale): too small to read on a phone or a projector. */
const TEXT_TOO_SMALL = everyElement(`
  if (el.localName !== 'svg' || !el.getScreenCTM() || el.getBoundingClientRect().width === 0) continue;
  const scale = el.getScreenCTM().a;
  for (const t of el.querySelectorAll('text')) {
    const px = scale * parseFloat(getComputedStyle(t).fontSize);
    const what = (el.getAttribute('class') || 'svg') + ': "' + t.textContent.trim().slice(0, 30) + '"';
    if (t.textContent.trim() && px < 9) out.push(what + ' at ' + px.toFixed(1) + ' px');
  }`);

/** Buttons whose label breaks over lines (on a phone the dynamic view's were one character a line). */
const BUTTONS_WRAPPED = everyElement(`
  if (el.localName !== 'button' || !el.textContent.trim() || el.getBoundingClientRect().width === 0) continue;
  const range = document.createRange();
  range.selectNodeContents(el);
  // A new line starts below the one before it (an icon's glyph on the same line has its own box, overlapping it).
  let lines = 0;
  let bottom = -Infinity;
  for (const r of [...range.getClientRects()].filter((r) => r.width > 0).sort((a, b) => a.top - b.top)) {
    if (r.top >= bottom - 2) lines++;
    bottom = Math.max(bottom, r.bottom);
  }
  if (lines > 1) out.push('button "' + el.textContent.trim().slice(0, 30) + '" on ' + lines + ' lines');`);

for (const [name, view] of Object.entries(VIEWS)) {
  test(`${name}: no text cut off at 390, 860 and 1280 px`, { timeout: 900_000 }, async () => {
    for (const width of WIDTHS) {
      await withPage(
        view.url,
        async (page) => {
          await page.locator(view.ready).first().waitFor({ timeout: 120_000 });
          await view.act?.(page);
          await screenshot(page, `overflow-${name.replace(' ', '-')}-${width}`);
          assert.deepEqual(await clipped(page), [], `${name} at ${width} px`);
          assert.deepEqual(await page.evaluate(GROUPS_CUT), [], `${name} at ${width} px: groups of the regroup phase`);
          assert.deepEqual(await page.evaluate(SCROLLS_UNSAID), [], `${name} at ${width} px: a box that scrolls sideways says so`);
          assert.deepEqual(await page.evaluate(TEXT_TOO_SMALL), [], `${name} at ${width} px: a figure's text drawn under 9 px`);
          assert.deepEqual(await page.evaluate(BUTTONS_WRAPPED), [], `${name} at ${width} px: a button's label breaks over lines`);
          if (name === 'schedule' && width === 390) {
            // Not vacuous: on a phone the schedule's table scrolls, says so, and says which side holds more once scrolled.
            const table = page.locator('grpo-schedule .table-scroll');
            assert.equal(await table.getAttribute('data-scrolls'), 'right');
            await table.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
            await page.waitForFunction(
              () =>
                document.querySelector('grpo-schedule')?.shadowRoot?.querySelector('.table-scroll')?.getAttribute('data-scrolls') ===
                'left',
            );
          }
        },
        { viewport: { width, height: 900 } },
      );
    }
  });
}
