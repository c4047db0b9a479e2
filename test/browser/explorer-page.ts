// Helpers the explorer's browser tests share: reach into the page's <grpo-explorer> and ask the
// core (imported by the page from the test build, app-build.ts) for the expected answers.
import type { Page } from 'playwright-core';
import type { TileRect } from '../../src/ui/layout-canvas.ts';

export const phases = ['sample', 'scatter', 'accumulate', 'gather', 'regroup', 'advantages', 'slice'] as const;

/** Waits until the first picture is drawn and the rest of the page has come after it; returns the picture's time in ms after navigation start. */
export async function firstView(page: Page): Promise<number> {
  await page.waitForFunction(() => window.grpoFirstViewMs !== undefined && document.querySelector('grpo-explorer[data-complete]') !== null);
  return page.evaluate(() => window.grpoFirstViewMs!);
}

/** Waits until the story rests (no caption pause or movement) at `phase`. */
export async function settled(page: Page, phase: (typeof phases)[number]): Promise<void> {
  await page.waitForFunction((p) => {
    const app = document.querySelector('grpo-explorer') as HTMLElement | null;
    return app?.dataset.phase === p && app.dataset.stage === 'idle';
  }, phase);
}

/** Jumps to a phase with its number key (keyboard path) and waits for it. */
export async function jump(page: Page, phase: (typeof phases)[number]): Promise<void> {
  // Focus the canvas first: keys typed into a form control belong to that control.
  await page.locator('grpo-layout-canvas canvas').first().focus();
  await page.keyboard.press(String(phases.indexOf(phase) + 1));
  await settled(page, phase);
}

/** Every tile as drawn now. */
export function tiles(page: Page): Promise<TileRect[]> {
  return page.evaluate(() => {
    const app = document.querySelector('grpo-explorer')!;
    const canvas = app.shadowRoot!.querySelector('grpo-layout-canvas') as unknown as { tileRects(): TileRect[] };
    return canvas.tileRects();
  });
}

/**
 * How many tiles are drawn now, counted in the page: a test that needs only the count does not
 * bring every tile's rectangle back over the protocol (20,000 of them took about 3 s on 2 cores).
 */
export function tileCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const app = document.querySelector('grpo-explorer')!;
    const canvas = app.shadowRoot!.querySelector('grpo-layout-canvas') as unknown as { tileRects(): TileRect[] };
    return canvas.tileRects().length;
  });
}

/** Tiles in reading order (top to bottom, left to right). */
export function readingOrder(rects: TileRect[]): TileRect[] {
  return [...rects].sort((a, b) => a.y - b.y || a.x - b.x);
}

export interface CoreAnswer {
  /** Per gather: prompt id, rank, step index, slot of each sample in gathered order. */
  gathers: { promptId: number; rank: number; stepIndex: number; slot: number }[][];
  steps: number[][][];
}

/** What the core says for a configuration given as URL-style preset name or config object, computed inside the page. */
export function coreLayout(page: Page, config: Record<string, unknown> | string): Promise<CoreAnswer> {
  return page.evaluate(async (cfg) => {
    const samplers = await import('/src/core/samplers/index.ts' as string);
    const presets = await import('/src/core/presets.ts' as string);
    const gather = await import('/src/core/layout/gather.ts' as string);
    const c = typeof cfg === 'string' ? presets.presets[cfg].config : cfg;
    const layout = samplers.buildLayout(c);
    return {
      gathers: gather
        .gathers(layout)
        .map((g: { samples: { promptId: number; rank: number; stepIndex: number; slot: number }[] }) =>
          g.samples.map(({ promptId, rank, stepIndex, slot }) => ({ promptId, rank, stepIndex, slot })),
        ),
      steps: layout.steps.map((s: { ranks: number[][] }) => s.ranks),
    };
  }, config);
}

/** The core's copiesOf(layout, promptId) for a preset or config. */
export function coreCopies(
  page: Page,
  config: Record<string, unknown> | string,
  promptId: number,
): Promise<{ rank: number; stepIndex: number; slot: number; gatheredIndex: number }[]> {
  return page.evaluate(
    async ([cfg, id]) => {
      const samplers = await import('/src/core/samplers/index.ts' as string);
      const presets = await import('/src/core/presets.ts' as string);
      const copies = await import('/src/core/layout/copies.ts' as string);
      const c = typeof cfg === 'string' ? presets.presets[cfg].config : cfg;
      return copies.copiesOf(samplers.buildLayout(c), id);
    },
    [config, promptId] as const,
  );
}

/** A preset's configuration, read from the core inside the page. */
export function presetConfig(page: Page, name: string): Promise<Record<string, unknown>> {
  return page.evaluate(async (n) => {
    const presets = await import('/src/core/presets.ts' as string);
    return presets.presets[n].config;
  }, name);
}

/**
 * seed-000 read by the idealised loop (no DataLoader worker, no accelerate prepare): one draw per
 * batch, so every prompt of a gather has exactly k copies. Tests of the explorer's mechanics use it;
 * the published script's loader (repeated draws, groups of 2k) is the preset's default.
 */
export const IDEALISED_LOADER = '&workers=0&prepare=0';

/** seed-000's configuration with the idealised loop, as the core reads it. */
export async function idealisedSeed000(page: Page): Promise<Record<string, unknown>> {
  return { ...(await presetConfig(page, 'seed-000')), numWorkers: 0, acceleratePrepare: 0 };
}
