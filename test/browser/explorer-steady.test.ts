// The picture stays put while the story steps through its phases: the canvas is as tall as the
// tallest phase's picture from the start, and the caption sits under it (as tall as its own
// words: what changes height is below the picture), so neither the canvas's place on the page nor
// its height changes from phase 1 to 7
// (English and Chinese captions, a phone and a desktop width).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withPage } from './harness.ts';

// speed=8: each step's caption pause and movement take 0.3 s instead of 2.4 (the boxes are read once
// a step has come to rest, so the speed changes nothing that is checked).
const CASES = [
  { url: '/?preset=seed-000&phase=sample&speed=8', width: 390 },
  { url: '/?preset=seed-000&phase=sample&speed=8', width: 1280 },
  { url: '/?preset=seed-004&phase=sample&lang=zh-CN&speed=8', width: 390 },
  { url: '/?preset=seed-004&phase=sample&speed=8', width: 860 },
];

for (const { url, width } of CASES) {
  test(`${url} at ${width} px: the picture neither moves nor resizes between phases`, async () => {
    const boxes = await withPage(
      url,
      async (page) => {
        await page.waitForFunction(() => window.grpoFirstViewMs !== undefined, undefined, { timeout: 120_000 });
        const seen: string[] = [];
        for (let i = 0; i < 7; i++) {
          if (i > 0) {
            await page.locator('grpo-story-controls button.forward').click();
            await page.waitForFunction(() => (document.querySelector('grpo-explorer') as HTMLElement).dataset.stage === 'idle');
          }
          seen.push(
            await page.evaluate(() => {
              const canvas = document.querySelector('grpo-explorer')!.shadowRoot!.querySelector('grpo-layout-canvas')!;
              const box = canvas.getBoundingClientRect();
              return `top ${Math.round(box.top + scrollY)}, height ${Math.round(box.height)}`;
            }),
          );
        }
        return seen;
      },
      { viewport: { width, height: 900 } },
    );
    assert.deepEqual(boxes, Array(7).fill(boxes[0]), `canvas per phase: ${boxes.join(' | ')}`);
  });
}
