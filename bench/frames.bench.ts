// Speed at scale: 64 ranks × 32 slots × 4 steps (8192 tiles in one epoch gather) animated
// through the whole story in headless Chromium (test/browser/harness.ts: the dev server and
// Chromium with SwiftShader). Records requestAnimationFrame deltas while tiles move and the
// canvas's own draw times; prints median and p95 and writes them to test-results/frame-times.json.
// A benchmark, not a test: the numbers depend on the machine, so nothing here is timed against a bound.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeSession, resultsDir, screenshot, withPage } from '../test/browser/harness.ts';
import { firstView, settled, tiles } from '../test/browser/explorer-page.ts';
import { printTable } from './timing.ts';

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export default async function frames(): Promise<void> {
  const url = '/?sampler=flow-grpo&ranks=64&batch=32&k=4&batches=4&epochs=1&dataset=2048&seed=42&spg=1&iters=1&speed=2';
  try {
    await withPage(url, async (page) => {
      const first = await firstView(page);
      assert.equal((await tiles(page)).length, 64 * 32 * 4);
      await page.evaluate(() => {
        const app = document.querySelector('grpo-explorer')!;
        (app.shadowRoot!.querySelector('grpo-story-controls')!.shadowRoot!.querySelector('button.play') as HTMLButtonElement).click();
      });
      await page.waitForFunction(() => (document.querySelector('grpo-explorer') as HTMLElement).dataset.stage !== 'idle');
      await settled(page, 'slice');
      const m = await page.evaluate(() => {
        const app = document.querySelector('grpo-explorer') as unknown as { story: { frameDeltas: number[] }; shadowRoot: ShadowRoot };
        const canvas = app.shadowRoot.querySelector('grpo-layout-canvas') as unknown as { drawTimes: number[] };
        return { frames: app.story.frameDeltas, draws: canvas.drawTimes };
      });
      assert.ok(m.frames.length > 30, `frames recorded while tiles moved: ${m.frames.length}`);
      const report = {
        machine: 'see README (headless Chromium, SwiftShader, software 2D canvas)',
        tiles: 64 * 32 * 4,
        firstViewMs: Math.round(first),
        frames: m.frames.length,
        frameMedianMs: +quantile(m.frames, 0.5).toFixed(1),
        frameP95Ms: +quantile(m.frames, 0.95).toFixed(1),
        drawMedianMs: +quantile(m.draws, 0.5).toFixed(2),
        drawP95Ms: +quantile(m.draws, 0.95).toFixed(2),
      };
      printTable(
        ['64 × 32 × 4 (8192 tiles)', 'median ms', 'p95 ms'],
        [
          ['draw one frame (canvas)', report.drawMedianMs, report.drawP95Ms],
          ['requestAnimationFrame interval', report.frameMedianMs, report.frameP95Ms],
          ['first view (from navigation start)', report.firstViewMs, ''],
        ],
      );
      mkdirSync(resultsDir, { recursive: true });
      writeFileSync(join(resultsDir, 'frame-times.json'), `${JSON.stringify(report, null, 2)}\n`);
      await screenshot(page, 'explorer-64x32x4-slice');
    });
  } finally {
    await closeSession();
  }
}
