// The explorer on a phone and without a mouse, in real Chromium: a 390-wide screen shows Play
// and the picture above the fold, taps pin and dismiss the tooltip, the keyboard reaches Play
// first and walks the tiles, Esc leaves a field, reduced motion is honoured, labels meet AA
// contrast, and the layout exists as a table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, withPage } from './harness.ts';
import { coreCopies, coreLayout, firstView, settled, tiles } from './explorer-page.ts';

const app = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const el = document.querySelector('grpo-explorer') as HTMLElement & { story: { frameDeltas: number[] } };
    return { phase: el.dataset.phase, stage: el.dataset.stage, frames: el.story.frameDeltas.length };
  });

test('390 × 844: Play and the picture are above the fold, nothing is clipped, a tap pins the tooltip and another dismisses it', async () => {
  await withPage(
    '/?preset=seed-000&phase=scatter',
    async (page) => {
      await firstView(page);
      const play = await page.locator('grpo-story-controls button.play').boundingBox();
      const canvas = await page.locator('grpo-layout-canvas canvas').boundingBox();
      assert.ok(play && play.y + play.height <= 844, `play at ${play?.y}`);
      assert.ok(canvas && canvas.y < 844 - 100, `picture starts at ${canvas?.y}`);
      const overflow = await page.evaluate(() => {
        const root = document.querySelector('grpo-explorer')!.shadowRoot!;
        const header = root.querySelector('header') as HTMLElement;
        return { header: header.scrollWidth - header.clientWidth, page: document.documentElement.scrollWidth - innerWidth };
      });
      assert.equal(overflow.header, 0, 'header not clipped');
      assert.equal(overflow.page, 0, 'no sideways scrolling of the page');
      await screenshot(page, 'explorer-390-scatter');

      const tile = (await tiles(page))[5]!;
      await page.touchscreen.tap(tile.x + tile.w / 2, tile.y + tile.h / 2);
      const tip = page.locator('grpo-layout-canvas .tip');
      await tip.waitFor({ state: 'visible' });
      assert.match((await tip.textContent()) ?? '', new RegExp(`prompt ${tile.promptId} · rank ${tile.rank}`));
      assert.doesNotMatch((await tip.textContent()) ?? '', /reward|advantage/, 'no reward before the story computes it');
      const box = await tip.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, 'tooltip inside the screen');
      await page.waitForFunction((p) => location.search.includes(`prompt=${p}`), tile.promptId);
      await screenshot(page, 'explorer-390-tap');
      await page.touchscreen.tap(tile.x + tile.w / 2, tile.y + tile.h / 2);
      await tip.waitFor({ state: 'hidden' });
      await page.waitForFunction(() => !location.search.includes('prompt='));
    },
    { viewport: { width: 390, height: 844 }, hasTouch: true },
  );
});

test('keyboard only: Play comes right after the header in the tab order, arrows walk the tiles, Enter pins a prompt, Esc leaves a field', async () => {
  await withPage('/?preset=seed-000&phase=scatter', async (page) => {
    await firstView(page);
    let tabs = 0;
    for (; tabs < 8; tabs++) {
      await page.keyboard.press('Tab');
      const label = await page.evaluate(() => {
        let el = document.activeElement;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        return el?.getAttribute('aria-label') ?? el?.textContent ?? '';
      });
      if (label === 'play') break;
    }
    // Before it only the header's four controls (language, tours menu, projector mode, copy link) and the step-back button.
    assert.ok(tabs < 6, `Play is reached after ${tabs + 1} tabs`);

    await page.locator('grpo-layout-canvas canvas').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    assert.equal((await app(page)).phase, 'scatter', 'arrows on the picture move the cursor, not the story');
    const said = (await page.locator('grpo-layout-canvas #cursor').textContent()) ?? '';
    const m = said.match(/^prompt (\d+) · rank (\d+) · step (\d+) · slot (\d+)/);
    assert.ok(m, said);
    // Reading order from the top-left tile: two right, one down = rank 1, step 0, slot 2 is the gap column; the cursor
    // lands on a real tile whose words are the core's.
    const core = await coreLayout(page, 'seed-000');
    assert.equal(core.steps[Number(m[3])]![Number(m[2])]![Number(m[4])], Number(m[1]));
    await page.keyboard.press('Enter');
    await page.waitForFunction((p) => location.search.includes(`prompt=${p}`), m[1]);
    const copies = await coreCopies(page, 'seed-000', Number(m[1]));
    const lit = (await tiles(page)).filter((t) => t.highlighted).map((t) => t.gatheredIndex);
    assert.deepEqual(
      lit.sort((a, b) => a - b),
      copies.map((c) => c.gatheredIndex).sort((a, b) => a - b),
    );

    const k = page.locator('grpo-config-panel input#k');
    await k.focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('3');
    await settled(page, 'accumulate');
    assert.equal(await k.inputValue(), '4', 'the digit went to the shortcut, not the field');
  });
});

test('prefers-reduced-motion: the tiles jump to their places (no frames of movement), caption first still', async () => {
  await withPage('/?preset=seed-000', async (page) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    await firstView(page);
    await page.locator('grpo-story-controls button.forward').click();
    await settled(page, 'scatter');
    await page.locator('grpo-story-controls button.forward').click();
    await settled(page, 'accumulate');
    assert.equal((await app(page)).frames, 0);
  });
  // At speed 1 the movement lasts long enough that a loaded machine still paints some of its frames (at speed 4 a busy
  // main thread could miss every frame of the short movement, and the tween lands at its end with none drawn).
  await withPage('/?preset=seed-000&speed=1', async (page) => {
    await firstView(page);
    await page.locator('grpo-story-controls button.forward').click();
    await settled(page, 'scatter');
    assert.ok((await app(page)).frames > 0, 'without the preference the tiles move');
  });
});

test('labels meet WCAG AA contrast, and the followed gather is also a table of the core layout', async () => {
  await withPage('/?preset=seed-000', async (page) => {
    await firstView(page);
    // A plain script string: tsx would wrap named inner functions in a helper the page lacks.
    const worst = (await page.evaluate(`(() => {
      const lum = (rgb) => {
        const c = (rgb.match(/\\d+(\\.\\d+)?/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
        const lin = c.map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
      };
      const out = [];
      const walk = (root) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.shadowRoot) walk(el.shadowRoot);
          const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
          if (!own || el.getClientRects().length === 0) continue;
          const fg = lum(getComputedStyle(el).color);
          let bgEl = el;
          let bg = 'rgba(0, 0, 0, 0)';
          while (bgEl && /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) {
            bg = getComputedStyle(bgEl).backgroundColor;
            bgEl = bgEl.parentElement ?? bgEl.getRootNode().host ?? null;
          }
          const b = /rgba\\(0, 0, 0, 0\\)/.test(bg) ? 1 : lum(bg);
          out.push({ text: el.textContent.trim().slice(0, 40), ratio: (Math.max(fg, b) + 0.05) / (Math.min(fg, b) + 0.05) });
        }
      };
      walk(document);
      return out.sort((a, b) => a.ratio - b.ratio).slice(0, 3);
    })()`)) as { text: string; ratio: number }[];
    console.log(`lowest contrasts: ${worst.map((w) => `${w.ratio.toFixed(2)} “${w.text}”`).join(', ')}`);
    assert.ok(worst[0]!.ratio >= 4.5, `lowest contrast ${worst[0]!.ratio.toFixed(2)} for “${worst[0]!.text}”`);

    await page.locator('details.table-view summary').click();
    await page.locator('details.table-view tbody tr').first().waitFor(); // built when opened
    const rows = await page
      .locator('details.table-view tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const core = await coreLayout(page, 'seed-000');
    assert.equal(rows.length, 8);
    rows.forEach((cells, rank) =>
      cells.forEach((cell, step) => assert.equal(cell, core.steps[step]![rank]!.map((p) => `P${p}`).join(' '))),
    );
  });
});
