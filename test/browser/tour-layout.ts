// The tour panel never hides what its step points at (used by tours.test.ts, whose walk of every
// tour calls `checkPlacedAtSizes` at each step): the step is checked at a phone (390×844), a
// tablet (768×1024) and a laptop (1280×800) size, screenshotted as the reader sees it
// (test-results/tour-<id>-<width>-<step>.png), and fails when the panel's box intersects the box of
// the step's target (its `target` selector, found in the live view), when the target is not drawn
// (hidden by CSS, zero-sized, or outside the window), or when a part its text cites (the step's
// `cites` selectors: "rank 3 gets 14", "the key under the picture") is missing, not drawn, outside
// the window or under the panel. The step is checked first at
// the size the page has when it opens (the sizes take turns: `openingSize`), then at the other two
// after the window is resized (the panel places the step again from the start on a resize, as for
// a phone turned).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { TOURS } from '../../src/ui/tour/tours.ts';
import { screenshot } from './harness.ts';

const SIZES = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
];

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const intersects = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Waits for step `n` to be shown, its action applied and its target placed; returns both boxes. */
async function placedBoxes(page: Page, n: number): Promise<{ target: Box | null; panel: Box; placed: string }> {
  // A training run's result table appears only when the run ends: minutes on a loaded machine.
  await page
    .locator(`grpo-tour-panel section[data-step="${n}"][data-stage="done"]:not([data-placed="pending"])`)
    .waitFor({ timeout: 240_000 });
  return page.evaluate(() => {
    const panel = document.querySelector('grpo-tour-panel') as unknown as {
      boxes(): { target: DOMRect | null; panel: DOMRect };
      shadowRoot: ShadowRoot;
    };
    const { target, panel: p } = panel.boxes();
    // Plain objects (a DOMRect does not cross to Node); no helper function (tsx would name it with a helper the page lacks).
    return {
      target: target ? { top: target.top, bottom: target.bottom, left: target.left, right: target.right } : null,
      panel: { top: p.top, bottom: p.bottom, left: p.left, right: p.right },
      placed: panel.shadowRoot.querySelector('section')!.dataset.placed!,
    };
  });
}

/** Where each of step `n`'s cited parts is drawn now (null: not on the page), and whether CSS shows it. */
async function citedBoxes(page: Page, id: string, n: number): Promise<{ selector: string; box: Box | null; shown: boolean }[]> {
  const step = TOURS[id]!.steps[n - 1]!;
  return page.evaluate(
    ({ selectors }) => {
      const panel = document.querySelector('grpo-tour-panel') as unknown as { findIn(selector: string): Element | null };
      return selectors.map((selector) => {
        const el = panel.findIn(selector);
        if (!el) return { selector, box: null, shown: false };
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        // An ancestor's visibility is inherited; display none leaves an empty box; checkVisibility covers opacity 0 and content-visibility.
        const shown =
          style.visibility !== 'hidden' &&
          r.width > 0 &&
          r.height > 0 &&
          el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
        return { selector, box: { top: r.top, bottom: r.bottom, left: r.left, right: r.right }, shown };
      });
    },
    { selectors: [step.target, ...(step.cites ?? [])] },
  );
}

/** Sets the window to `size` and waits until the panel has placed the step again (the panel re-places it on the window's resize event). */
async function resizeTo(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForFunction(({ width, height }) => innerWidth === width && innerHeight === height, size);
  // The resize event is dispatched before the next frame's callbacks: after two frames the panel has marked the step pending.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The sizes step `n` (1-based) is checked at, in order: it opens at the size step n − 1 ended at (390 for step 1), so all three sizes are opening sizes. */
export function stepSizes(n: number): { width: number; height: number }[] {
  const first = (2 * (n - 1)) % SIZES.length;
  return SIZES.map((_, i) => SIZES[(first + i) % SIZES.length]!);
}

/** The size a tour's page opens at (step 1's first). */
export const openingSize = SIZES[0]!;

/** Checks tour `id`'s step `n` (shown now, at the first of `stepSizes(n)`) at the three sizes; the page ends at the last. */
export async function checkPlacedAtSizes(page: Page, id: string, n: number): Promise<void> {
  const tour = TOURS[id]!;
  for (const [i, viewport] of stepSizes(n).entries()) {
    if (i > 0) await resizeTo(page, viewport);
    const { target, panel, placed } = await placedBoxes(page, n);
    await screenshot(page, `tour-${id}-${viewport.width}-${n}`, { fullPage: false });
    const where = `${id} step ${n} at ${viewport.width}×${viewport.height}${i > 0 ? ' (after a resize)' : ''}`;
    assert.ok(target, `${where}: the target ${tour.steps[n - 1]!.target} is on the page`);
    assert.equal(
      placed,
      'yes',
      `${where}: the target is in the free area (target ${JSON.stringify(target)}, panel ${JSON.stringify(panel)})`,
    );
    assert.ok(target.bottom > 0 && target.top < viewport.height, `${where}: the target is in the window ${JSON.stringify(target)}`);
    assert.ok(!intersects(target, panel), `${where}: the panel ${JSON.stringify(panel)} covers the target ${JSON.stringify(target)}`);
    // The target and every part the step's text cites: drawn, inside the window, and clear of the panel.
    for (const { selector, box, shown } of await citedBoxes(page, id, n)) {
      assert.ok(box, `${where}: the cited part ${selector} is on the page`);
      assert.ok(shown, `${where}: the cited part ${selector} is drawn (not hidden, not empty) ${JSON.stringify(box)}`);
      const inWindow = box.top >= 0 && box.bottom <= viewport.height && box.left >= 0 && box.right <= viewport.width;
      assert.ok(
        inWindow || selector === tour.steps[n - 1]!.target,
        `${where}: the cited part ${selector} is inside the window ${JSON.stringify(box)}`,
      );
      assert.ok(
        !intersects(box, panel),
        `${where}: the panel ${JSON.stringify(panel)} covers the cited part ${selector} ${JSON.stringify(box)}`,
      );
    }
  }
}
