// The picture stays put and is as tall as its phase: while the story steps through its phases the
// canvas's top never moves (what changes height is below the picture: the caption sits under it,
// as tall as its own words), and in each phase the picture shows its own rows only, so there are
// fewer than 24 px of blank under the lowest tile (a canvas as tall as the tallest phase left 128–550
// px of blank under a short phase's picture, which pushed the caption off a phone's screen).
// Between phases the shown height follows the moving tiles frame by frame (layout-canvas.ts), so
// what is under the picture glides with them instead of jumping (the last test samples it frame by frame).
// (English and Chinese captions, a phone and a desktop width.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withPage } from './harness.ts';

// speed=8: each step's caption pause and movement take 0.3 s instead of 2.4 (the boxes are read once
// a step has come to rest, so the speed changes nothing that is checked).
const CASES = [
  { url: '/?preset=seed-000&phase=sample&speed=8', width: 390, height: 844 },
  { url: '/?preset=seed-000&phase=sample&speed=8', width: 1280, height: 800 },
  { url: '/?preset=seed-004&phase=sample&lang=zh-CN&speed=8', width: 390, height: 844 },
  { url: '/?preset=seed-004&phase=sample&speed=8', width: 860, height: 900 },
];

/** Blank under the picture that is allowed: the air under the last row (0.4 tile + 4 px, 22 px at the largest tiles). */
const BLANK_MAX = 24;

for (const { url, width, height } of CASES) {
  test(`${url} at ${width} × ${height}: the picture never moves and has under ${BLANK_MAX} px of blank under its lowest tile in every phase`, async () => {
    const seen = await withPage(
      url,
      async (page) => {
        await page.waitForFunction(() => window.grpoFirstViewMs !== undefined, undefined, { timeout: 120_000 });
        const out: { phase: string; top: number; blank: number }[] = [];
        for (let i = 0; i < 7; i++) {
          if (i > 0) {
            await page.locator('grpo-story-controls button.forward').click();
            await page.waitForFunction(() => (document.querySelector('grpo-explorer') as HTMLElement).dataset.stage === 'idle');
          }
          out.push(
            await page.evaluate(() => {
              const app = document.querySelector('grpo-explorer') as HTMLElement;
              const el = app.shadowRoot!.querySelector('grpo-layout-canvas')! as unknown as HTMLElement & {
                tileRects(): { y: number; h: number }[];
              };
              const lowest = Math.max(...el.tileRects().map((t) => t.y + t.h));
              // The first thing under the picture: the colour keys' cell (empty or not), then the caption.
              const under = el.shadowRoot!.querySelector('.keys')!.getBoundingClientRect().top;
              return {
                phase: app.dataset.phase ?? '?',
                top: Math.round(el.getBoundingClientRect().top + scrollY),
                blank: Math.round(under - lowest),
              };
            }),
          );
        }
        return out;
      },
      { viewport: { width, height } },
    );
    const said = seen.map((s) => `${s.phase}: top ${s.top}, blank ${s.blank}`).join(' | ');
    assert.deepEqual(
      seen.map((s) => s.top),
      Array(7).fill(seen[0]!.top),
      `the canvas's place per phase: ${said}`,
    );
    for (const s of seen)
      assert.ok(s.blank >= 0 && s.blank < BLANK_MAX, `${s.phase}: ${s.blank} px of blank under the lowest tile (${said})`);
  });
}

test('between phases the picture’s height glides with the tiles: no jump under the reader’s finger (seed-000, 390 × 844, speed 1)', async () => {
  const heights = await withPage(
    '/?preset=seed-000&phase=accumulate',
    async (page) => {
      await page.waitForFunction(() => (document.querySelector('grpo-explorer') as HTMLElement).dataset.stage === 'idle', undefined, {
        timeout: 120_000,
      });
      // Every frame's shown height of the picture, from before the step until it rests in the all-gather.
      // (A string: tsx would name the frame callback with a helper the page does not have.)
      await page.evaluate(`(() => {
        const el = document.querySelector('grpo-explorer').shadowRoot.querySelector('grpo-layout-canvas');
        window.shownHeights = [];
        const tick = () => {
          window.shownHeights.push(Math.round(el.shadowRoot.querySelector('.scroll').getBoundingClientRect().height));
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      })()`);
      await page.locator('grpo-story-controls button.forward').click();
      await page.waitForFunction(() => {
        const app = document.querySelector('grpo-explorer') as HTMLElement;
        return app.dataset.phase === 'gather' && app.dataset.stage === 'idle';
      });
      return page.evaluate(() => (window as unknown as { shownHeights: number[] }).shownHeights);
    },
    { viewport: { width: 390, height: 844 } },
  );
  const from = heights[0]!;
  const to = heights.at(-1)!;
  assert.ok(from - to > 50, `the all-gather's picture is shorter than the accumulation's: ${from} → ${to}`);
  const between = heights.filter((h) => h < from && h > to);
  assert.ok(new Set(between).size >= 3, `heights on the way: ${[...new Set(heights)].join(', ')}`);
  const steps = heights.slice(1).map((h, i) => Math.abs(h - heights[i]!));
  assert.ok(Math.max(...steps) <= (from - to) / 2, `largest change in one frame ${Math.max(...steps)} of ${from - to} px`);
});
