// The explorer in real headless Chromium: seed-000's story phase by phase (with a screenshot of
// each in test-results/), tiles checked against the core's layout, highlighting against
// copiesOf, settings, errors with suggestions, the URL round trip, embed/_hide and isolation.
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import assert from 'node:assert/strict';
import { screenshot, withPage } from './harness.ts';
import {
  coreCopies,
  coreLayout,
  firstView,
  IDEALISED_LOADER,
  idealisedSeed000,
  jump,
  phases,
  readingOrder,
  settled,
  tileCount,
  tiles,
} from './explorer-page.ts';

test("seed-000: every phase of the story draws the core's samples where they belong (screenshots kept)", async () => {
  // speed=8: seven jumps, each drawn and read at rest.
  await withPage(`/?preset=seed-000${IDEALISED_LOADER}&speed=8`, async (page) => {
    const ms = await firstView(page);
    console.log(`first view ${ms.toFixed(0)} ms after navigation start`);
    const core = await coreLayout(page, await idealisedSeed000(page));
    assert.equal(core.gathers.length, 1);
    const gathered = core.gathers[0]!;
    assert.equal(gathered.length, 32);

    for (const phase of phases) {
      await jump(page, phase);
      await screenshot(page, `explorer-seed-000-${phases.indexOf(phase) + 1}-${phase}`);
      const caption = await page.locator('grpo-explorer .caption').textContent();
      assert.match(caption ?? '', new RegExp(`phase ${phases.indexOf(phase) + 1} of 7`));
      const rects = await tiles(page);
      assert.equal(rects.length, 32, `${phase}: one tile per gathered sample`);
      // Every tile carries the core's prompt for its gathered index.
      for (const r of rects) assert.equal(r.promptId, gathered[r.gatheredIndex]!.promptId);
      // The colour key names every prompt drawn while colour means the prompt, and steps aside once it means the advantage.
      const key = await page.locator('grpo-layout-canvas .key:not(.advantage-key)').evaluate((el) => ({
        shown: getComputedStyle(el).visibility === 'visible',
        prompts: [...el.querySelectorAll('span')].map((s) => s.textContent?.trim()),
      }));
      assert.equal(key.shown, phases.indexOf(phase) < phases.indexOf('advantages'), `${phase}: the colour key`);
      // The advantage key takes its place from the advantages phase on (the same cell: the picture does not move).
      const advantageKey = await page.locator('grpo-layout-canvas .advantage-key').evaluate((el) => getComputedStyle(el).visibility);
      assert.equal(advantageKey === 'visible', !key.shown, `${phase}: the advantage key`);
      assert.deepEqual(
        key.prompts,
        [...new Set(gathered.map((s) => s.promptId))].sort((a, b) => a - b).map((p) => `P${p}`),
      );

      if (phase === 'scatter') {
        // Rows are ranks, step blocks left to right, slots in order: reading the grid row by row gives
        // each rank's slots of step 0 then step 1, exactly layout.steps[s].ranks[r].
        const rows = new Map<number, typeof rects>();
        for (const r of rects) rows.set(r.y, [...(rows.get(r.y) ?? []), r]);
        const ys = [...rows.keys()].sort((a, b) => a - b);
        assert.equal(ys.length, 8);
        ys.forEach((y, rank) => {
          const row = rows
            .get(y)!
            .sort((a, b) => a.x - b.x)
            .map((r) => r.promptId);
          assert.deepEqual(row, [...core.steps[0]![rank]!, ...core.steps[1]![rank]!], `rank ${rank}`);
        });
      }
      if (phase === 'gather') {
        // One rank-major line: reading order is gathered order.
        assert.deepEqual(
          readingOrder(rects).map((r) => r.gatheredIndex),
          gathered.map((_, i) => i),
        );
        // Wrapped lines start at a rank boundary (rank r's 4 samples are never split).
        const lineStarts = [...new Set(rects.map((r) => r.y))].map((y) =>
          Math.min(...rects.filter((r) => r.y === y).map((r) => r.gatheredIndex)),
        );
        for (const start of lineStarts) assert.equal(start % 4, 0);
      }
      if (phase === 'regroup') {
        // By prompt id: each line holds the 4 copies of one prompt.
        const lines = new Map<number, number[]>();
        for (const r of rects) lines.set(r.y, [...(lines.get(r.y) ?? []), r.promptId]);
        assert.equal(lines.size, 8);
        for (const ids of lines.values()) {
          assert.equal(ids.length, 4);
          assert.equal(new Set(ids).size, 1);
        }
      }
      if (phase === 'slice') {
        // Rank r's line is gathered[4r, 4r + 4): its own samples back.
        const lines = [...new Map(readingOrder(rects).map((r) => [r.y, [] as number[]])).keys()];
        for (const r of rects) assert.equal(lines.indexOf(r.y), Math.floor(r.gatheredIndex / 4));
      }
    }
  });
});

test("the first picture's time is its frame's presentation (the browser's first-contentful-paint); the rest of the page comes after that frame", async () => {
  await withPage('/?preset=seed-000', async (page) => {
    const onScreen = await firstView(page);
    // No named functions inside page.evaluate: tsx would wrap them in a helper the page lacks.
    const m = await page.evaluate(() =>
      Object.assign(
        Object.fromEntries(
          ['grpo-first-draw', 'grpo-first-frame', 'grpo-first-view', 'first-contentful-paint'].map((name) => [
            name,
            performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN,
          ]),
        ),
        {
          rest: performance
            .getEntriesByType('resource')
            .filter((e) => e.name.includes('explorer-rest'))
            .map((e) => e.startTime),
        },
      ),
    );
    const [draw, frame, mark, paint] = [
      m['grpo-first-draw'],
      m['grpo-first-frame'],
      m['grpo-first-view'],
      m['first-contentful-paint'],
    ] as number[];
    assert.equal(onScreen, paint, "grpoFirstViewMs is Paint Timing's first-contentful-paint");
    assert.equal(mark, paint, 'the grpo-first-view mark stands at the presentation');
    assert.ok(draw <= frame && frame <= paint, `canvas drawn ${draw}, frame began ${frame}, presented ${paint}`);
    assert.equal(m.rest.length, 1, 'the rest of the page is one chunk, fetched once');
    assert.ok(m.rest[0]! >= frame, `the rest fetched at ${m.rest[0]} ms, after the picture's frame began at ${frame} ms`);
  });
});

test('hovering a tile highlights exactly the copies copiesOf gives; clicking keeps them and lists them', async () => {
  await withPage(`/?preset=seed-000${IDEALISED_LOADER}&phase=scatter`, async (page) => {
    await firstView(page);
    await settled(page, 'scatter');
    const first = (await tiles(page))[5]!;
    const copies = await coreCopies(page, await idealisedSeed000(page), first.promptId);
    assert.equal(copies.length, 4);
    const key = (c: { rank: number; stepIndex: number; slot: number }) => `${c.rank}/${c.stepIndex}/${c.slot}`;

    await page.mouse.move(first.x + first.w / 2, first.y + first.h / 2);
    const lit = (await tiles(page)).filter((r) => r.highlighted);
    assert.deepEqual(lit.map(key).sort(), copies.map(key).sort());
    assert.deepEqual(
      lit.map((r) => r.gatheredIndex).sort((a, b) => a - b),
      copies.map((c) => c.gatheredIndex).sort((a, b) => a - b),
    );

    await page.mouse.click(first.x + first.w / 2, first.y + first.h / 2);
    await page.mouse.move(2, 2);
    const rows = page.locator('grpo-copies-panel tr.copy');
    assert.equal(await rows.count(), 4);
    const listed = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        rank: Number((tr as HTMLElement).dataset.rank),
        stepIndex: Number((tr as HTMLElement).dataset.step),
        slot: Number((tr as HTMLElement).dataset.slot),
        gatheredIndex: Number((tr as HTMLElement).dataset.gathered),
      })),
    );
    assert.deepEqual(listed, copies);
    assert.match(page.url(), new RegExp(`prompt=${first.promptId}`));

    // The selection stays through the gather: the highlighted gathered positions are the copies'.
    await jump(page, 'gather');
    const litGathered = readingOrder((await tiles(page)).filter((r) => r.highlighted)).map((r) => r.gatheredIndex);
    assert.deepEqual(
      litGathered,
      copies.map((c) => c.gatheredIndex).sort((a, b) => a - b),
    );
    await screenshot(page, 'explorer-seed-000-highlight-gather');
  });
});

test("changing settings redraws from the core; an invalid one shows the core's error and clickable fixes, never a blank view", async () => {
  await withPage('/?preset=seed-000&phase=scatter', async (page) => {
    await firstView(page);
    const ranks = page.locator('grpo-config-panel input#ranks');
    await ranks.fill('4');
    await ranks.press('Enter');
    await settled(page, 'scatter');
    const cfg = {
      sampler: 'flow-grpo',
      ranks: 4,
      batch: 2,
      k: 4,
      batchesPerEpoch: 2,
      epochs: 1,
      datasetSize: 32,
      seed: 42,
      stepsPerGeneration: 1,
      numIterations: 1,
      gradientAccumulationSteps: 1,
    };
    const core = await coreLayout(page, cfg);
    const rects = await tiles(page);
    assert.equal(rects.length, core.gathers[0]!.length);
    assert.equal(new Set(rects.map((r) => r.y)).size, 4, 'four rank rows');
    assert.equal(await page.locator('grpo-stats-panel dd[data-stat="samples-per-batch"]').textContent(), '8');
    assert.match(page.url(), /ranks=4/);
    assert.doesNotMatch(page.url(), /preset=/, 'a changed preset is no longer named in the link');

    const k = page.locator('grpo-config-panel input#k');
    await k.fill('3');
    await k.press('Enter');
    const alert = page.locator('grpo-config-panel [role="alert"]');
    await alert.waitFor();
    const message = await alert.locator('.message').textContent();
    const expected = await page.evaluate(
      async (c) => {
        const samplers = await import('/src/core/samplers/index.ts' as string);
        const text = await import('/src/ui/core-text.ts' as string);
        return text.clausesText(samplers.validateConfig(c)?.clauses) as string;
      },
      { ...cfg, k: 3 },
    );
    assert.equal(message, expected);
    assert.ok((await tileCount(page)) > 0, 'the last valid layout stays drawn');
    await screenshot(page, 'explorer-error-with-suggestions');

    const suggestion = alert.locator('button.suggestion').first();
    assert.ok((await suggestion.count()) > 0, 'the core offered at least one fix');
    await suggestion.click();
    await alert.waitFor({ state: 'detached' });
    const fixed = await page.evaluate(async () => {
      const samplers = await import('/src/core/samplers/index.ts' as string);
      const app = document.querySelector('grpo-explorer') as unknown as { state: { config: unknown } };
      return samplers.validateConfig(app.state.config) === null;
    });
    assert.equal(fixed, true);
  });
});

test('the URL holds the whole view: opening the link restores settings, phase, regrouping and selection', async () => {
  const link = await withPage('/?preset=seed-000', async (page) => {
    await firstView(page);
    await page.locator('grpo-config-panel select#sampler').selectOption('trl');
    await page.locator('grpo-config-panel input#seed').fill('7');
    await page.locator('grpo-config-panel input#seed').press('Enter');
    await page.locator('grpo-explorer select#regroup').selectOption('view');
    await page.locator('grpo-explorer select#rewards').selectOption('model');
    await jump(page, 'advantages');
    const some = (await tiles(page))[3]!;
    await page.locator('grpo-copies-panel input').fill(String(some.promptId));
    await page.locator('grpo-copies-panel input').press('Enter');
    await page.waitForFunction(() => location.search.includes('prompt='));
    // Tiles are read in viewport coordinates: the fields above scrolled the page, the reopened link starts at the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    return { url: page.url(), tiles: await tiles(page), caption: await page.locator('grpo-explorer .caption').textContent() };
  });
  assert.match(link.url, /sampler=trl/);
  assert.match(link.url, /seed=7/);
  assert.match(link.url, /phase=advantages/);
  assert.match(link.url, /regroup=view/);
  await withPage(link.url.replace(/^https?:\/\/[^/]+/, ''), async (page) => {
    await firstView(page);
    await settled(page, 'advantages');
    assert.equal(await page.locator('grpo-config-panel select#sampler').inputValue(), 'trl');
    assert.equal(await page.locator('grpo-config-panel input#seed').inputValue(), '7');
    assert.equal(await page.locator('grpo-explorer select#regroup').inputValue(), 'view');
    assert.equal(await page.locator('grpo-explorer .caption').textContent(), link.caption);
    const strip = (t: { x: number; y: number; promptId: number; gatheredIndex: number; highlighted: boolean }[]) =>
      t.map(({ x, y, promptId, gatheredIndex, highlighted }) => ({ x, y, promptId, gatheredIndex, highlighted }));
    assert.deepEqual(strip(await tiles(page)), strip(link.tiles));
    assert.equal(page.url(), link.url);
  });
});

test("the CLI command prints the explorer's layout: TRL's steps_per_generation from ga in a link, as on the CLI", async () => {
  await withPage('/?sampler=trl&ranks=2&batch=4&k=2&ga=2&dataset=16', async (page) => {
    await firstView(page);
    const command =
      'npx grpo-sandbox layout --sampler trl --ranks 2 --batch 4 --k 2 --dataset-size 16 --steps-per-generation 2 --gradient-accumulation-steps 2';
    // The line under the statistics shows it; its button copies it.
    assert.equal(await page.locator('grpo-explorer p.command code').textContent(), command);
    const button = page.locator('grpo-explorer button.command');
    await button.click();
    // Copied, or where the page may not write the clipboard, a word to select it by hand.
    assert.match((await button.textContent()) ?? '', /^(copied|select it to copy)$/);
    assert.equal(await page.locator('grpo-config-panel input#spg').inputValue(), '2', "the panel shows TRL's derived value");
  });
  await withPage('/?preset=seed-002', async (page) => {
    await firstView(page);
    assert.equal(await page.locator('grpo-explorer p.command code').textContent(), 'npx grpo-sandbox layout --preset seed-002');
  });
});

test("view(-1, k) on seed-000's scattered order: the rows that mix prompts are the core's and are flagged", async () => {
  await withPage('/?preset=seed-000&regroup=view&phase=regroup', async (page) => {
    await firstView(page);
    await settled(page, 'regroup');
    const mixed = await page.evaluate(async () => {
      const samplers = await import('/src/core/samplers/index.ts' as string);
      const presets = await import('/src/core/presets.ts' as string);
      const g = await import('/src/core/layout/gather.ts' as string);
      const r = await import('/src/core/layout/regroup.ts' as string);
      const layout = samplers.buildLayout(presets.presets['seed-000'].config);
      return r.regroup(g.gathers(layout)[0], 'view', 4).filter((row: { mixed: boolean }) => row.mixed).length as number;
    });
    assert.ok(mixed > 0);
    const caption = await page.locator('grpo-explorer .caption').textContent();
    assert.match(caption ?? '', new RegExp(`${mixed} mix different prompts`));
    await screenshot(page, 'explorer-seed-000-view-regroup-mixed');
  });
});

test('embed mode and _hide flags strip the page down for course material', async () => {
  await withPage('/?preset=seed-000&embed=1&speed_hide=true&phase=gather', async (page) => {
    await firstView(page);
    assert.equal(await page.locator('grpo-config-panel').count(), 0);
    assert.equal(await page.locator('grpo-explorer header').count(), 0);
    assert.equal(await page.locator('grpo-story-controls select').count(), 0, 'speed hidden');
    assert.equal(await tileCount(page), 32);
    await screenshot(page, 'explorer-embed');
  });
  await withPage('/?preset=seed-000&k_hide=true&stats_hide=true', async (page) => {
    await firstView(page);
    assert.equal(await page.locator('grpo-config-panel input#k').count(), 0);
    assert.equal(await page.locator('grpo-config-panel input#ranks').count(), 1);
    assert.equal(await page.locator('grpo-stats-panel').count(), 0);
  });
});

/**
 * Records every change of the explorer's data-phase / data-stage, in order, into window.stageLog
 * (replacing an earlier record). Polling, once per frame, missed a caption stage that lasted a
 * single frame on a loaded machine; a record's new value is the next record's oldValue for the
 * same attribute, or the attribute's current value.
 */
async function recordStages(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { stageLog: string[]; stageObserver?: MutationObserver };
    w.stageObserver?.disconnect();
    const app = document.querySelector('grpo-explorer') as HTMLElement;
    const log: string[] = [`${app.dataset.phase}:${app.dataset.stage}`];
    const current: Record<string, string | null> = { 'data-phase': app.dataset.phase!, 'data-stage': app.dataset.stage! };
    w.stageObserver = new MutationObserver((records) => {
      records.forEach((record, i) => {
        const name = record.attributeName!;
        const next = records.slice(i + 1).find((r) => r.attributeName === name);
        current[name] = next ? next.oldValue : app.getAttribute(name);
        const entry = `${current['data-phase']}:${current['data-stage']}`;
        if (log.at(-1) !== entry) log.push(entry);
      });
    });
    w.stageObserver.observe(app, { attributes: true, attributeOldValue: true, attributeFilter: ['data-phase', 'data-stage'] });
    w.stageLog = log;
  });
}

const stageLog = (page: Page) => page.evaluate(() => (window as unknown as { stageLog: string[] }).stageLog);

test('play runs the story: each phase shows its caption before the tiles move, and keys step back and forth', async () => {
  // speed=8 (the most the URL accepts): the order of caption and movement is what is checked, not their length.
  await withPage('/?preset=seed-000&speed=8', async (page) => {
    await firstView(page);
    // ← → step the story wherever the focus is, except on the picture (there they move between tiles).
    await page.locator('grpo-story-controls button.play').focus();
    await recordStages(page);
    await page.keyboard.press('ArrowRight');
    // "Text, then the action": the new phase's caption is up while the tiles still wait.
    await page.waitForFunction(() => (window as unknown as { stageLog: string[] }).stageLog.includes('scatter:caption'));
    const stepped = await stageLog(page);
    const move = stepped.indexOf('scatter:move');
    assert.ok(move === -1 || stepped.indexOf('scatter:caption') < move, `the caption before the movement: ${stepped.join(' ')}`);
    await settled(page, 'scatter');
    await page.keyboard.press('ArrowLeft');
    await settled(page, 'sample');
    await recordStages(page);
    await page.evaluate(() => {
      const app = document.querySelector('grpo-explorer') as HTMLElement;
      const button = app.shadowRoot!.querySelector('grpo-story-controls')!.shadowRoot!.querySelector('button.play') as HTMLButtonElement;
      button.click();
    });
    await page.waitForFunction(() => (window as unknown as { stageLog: string[] }).stageLog.at(-1) === 'slice:idle', undefined, {
      timeout: 60_000,
    });
    const seen = await stageLog(page);
    for (const phase of phases.slice(1)) {
      const c = seen.indexOf(`${phase}:caption`),
        m = seen.indexOf(`${phase}:move`);
      assert.ok(c >= 0 && m > c, `${phase}: caption then movement (${seen.join(' ')})`);
    }
    assert.equal(seen.at(-1), 'slice:idle');
  });
});

test('without cross-origin isolation the explorer works and shows no banner (none of its views needs SharedArrayBuffer)', async () => {
  await withPage('/?preset=seed-000', async (page) => {
    // Re-serve everything without the COOP/COEP headers, as a plain static host would.
    await page.route('**/*', async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    });
    await page.reload();
    await firstView(page);
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    assert.equal(await page.locator('grpo-explorer .isolation').count(), 0, 'no banner about a feature this page does not use');
    assert.equal(await tileCount(page), 32, 'the layout explorer works');
    // Late requests (e.g. the dev client's) must not hit the route after the page closes.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
