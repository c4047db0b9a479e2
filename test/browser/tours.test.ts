// The guided tours in real Chromium: each of the five runs to its end through the panel's next
// button, every step's text appearing and its action happening in the live view (seed-000's
// phases and prompt 13 in the explorer, seed-001's 20T against 5T in <grpo-schedule>, seed-002's
// shape mismatch and fixes and seed-004's device error then success on <grpo-dynamic>'s rank
// workers, seed-003 training in <grpo-train> until a reward shows). A link to step 3 opens
// there; Back steps back; ← → and Esc; the explorer's tours menu; zh-CN texts. No page errors.
// speed=8 shortens the pause between a step's text and its action (and the explorer's story).
// The same walk checks that the panel never covers a step's target, at 390, 768 and 1280 px
// (tour-layout.ts: each step at the size it opens at, then after resizes to the other two), so
// each tour is walked once (seed-003 trains once) for both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { stepState } from '../../src/ui/tour/tour-state.ts';
import { TOURS, tourNames } from '../../src/ui/tour/tours.ts';
import { en } from '../../src/ui/i18n/en.ts';
import { zhCN } from '../../src/ui/i18n/zh-CN.ts';
import { VIEWS } from '../../src/ui/views.ts';
import { withPage } from './harness.ts';
import { checkPlacedAtSizes, openingSize } from './tour-layout.ts';

const WORKERS = { timeout: 60_000 };
/** The explorer's element and every view's (src/ui/views.ts): a step shows its own alone. */
const VIEW_TAGS = ['grpo-explorer', ...Object.values(VIEWS).map((v) => v.tag)];

/** Waits until the panel shows step `n` (1-based) with its action applied. */
async function atStep(page: Page, n: number): Promise<void> {
  await page.locator(`grpo-tour-panel section[data-step="${n}"][data-stage="done"]`).waitFor({ timeout: 30_000 });
}

const panelText = async (page: Page) => (await page.locator('grpo-tour-panel p.text').textContent()) ?? '';
const stepInUrl = (page: Page) => page.evaluate(() => new URLSearchParams(location.search).get('step'));

/** Waits until the explorer rests at `phase` (its own caption pause and movement done). */
async function explorerAt(page: Page, phase: string): Promise<void> {
  await page.waitForFunction((p) => {
    const app = document.querySelector('grpo-explorer') as HTMLElement | null;
    return app?.dataset.phase === p && app.dataset.stage === 'idle';
  }, phase);
}

async function waitText(page: Page, tag: string, selector: string, re: RegExp): Promise<string> {
  await page.waitForFunction(
    ([t, s, src]) => {
      const nodes = document.querySelector(t!)?.shadowRoot?.querySelectorAll(s!) ?? [];
      return [...nodes].some((n) => new RegExp(src!).test(n.textContent ?? ''));
    },
    [tag, selector, re.source] as const,
    WORKERS,
  );
  return (await page.locator(`${tag} ${selector}`).allTextContents()).find((x) => re.test(x))!;
}

const pool = (page: Page) => page.locator('grpo-dynamic .pool-label').getAttribute('data-pool');
const sliceSizes = (page: Page) => page.locator('grpo-dynamic g.slice').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-size')));
const makespan = (page: Page, scheme: string) => page.locator(`grpo-schedule tr[data-scheme="${scheme}"] td.makespan`).textContent();

/** What each tour's steps must have done to the page (beyond the explorer's preset and phase, checked for every explorer step). */
/** Prompt ids of <grpo-framework>'s packing strips, by rank and micro-batch ('0/1' → '82 82 735'). */
const frameworkStrips = (page: Page) =>
  page
    .locator('grpo-framework .figure.packing g.mb')
    .evaluateAll((gs) =>
      Object.fromEntries(
        gs.map((g) => [
          `${g.getAttribute('data-rank')}/${g.getAttribute('data-micro')}`,
          [...g.querySelectorAll('[data-prompt]')].map((b) => b.getAttribute('data-prompt')).join(' '),
        ]),
      ),
    );
const frameworkTiles = (page: Page, rank: number) =>
  page
    .locator(`grpo-framework .figure.layout g.tile[data-step="0"][data-rank="${rank}"]`)
    .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-prompt')));

/** The advantage written in <grpo-advantages>' cell of `scheme` and completion `i`, once drawn ('−1.15'). */
async function advantageCell(page: Page, scheme: string, i: number): Promise<string> {
  const cell = page.locator(`grpo-advantages .figure g.cell[data-scheme="${scheme}"][data-i="${i}"] text.value`);
  await cell.waitFor(WORKERS);
  return (await cell.textContent()) ?? '';
}

/** The cells of completion `i` under each scheme, as the figure writes them. */
const cellsOf = (page: Page, schemes: string[], i: number) => Promise.all(schemes.map((s) => advantageCell(page, s, i)));

const CHECKS: Record<string, Record<number, (page: Page) => Promise<void>>> = {
  // The values each caption states, as the figure writes them (the core's schemes are checked against the frameworks' own code in test/core/grpo/).
  advantages: {
    1: async (page) => assert.deepEqual(await cellsOf(page, ['verl'], 9), ['−1.15']),
    2: async (page) => {
      assert.deepEqual(await cellsOf(page, ['verl', 'trl-group', 'flow-grpo'], 9), ['−1.15', '−0.87', '−1.35']);
      assert.deepEqual(await cellsOf(page, ['verl', 'trl-group'], 11), ['0', '−0.87']);
      assert.match((await page.locator('grpo-advantages ul.flagged li[data-scheme="trl-group"]').textContent()) ?? '', /8–11|8-11|2,2,2,3/);
    },
    3: async (page) => {
      assert.deepEqual(await cellsOf(page, ['verl', 'verl-no-std', 'trl-async'], 9), ['−1.15', '−0.67', '−1.41']);
      assert.deepEqual(await cellsOf(page, ['verl', 'verl-no-std', 'trl-async'], 0), ['0', '0', '0']);
    },
    4: async (page) => assert.deepEqual(await cellsOf(page, ['trl-async', 'flow-grpo-prompt-std'], 9), ['−1.41', '−1.17']),
    5: async (page) => {
      assert.deepEqual(await cellsOf(page, ['nemo-rl-no-loo', 'nemo-rl', 'skyrl-rloo'], 9), ['−1.15', '−1.00', '−1.00']);
      assert.deepEqual(await cellsOf(page, ['nemo-rl-no-loo', 'nemo-rl'], 4), ['1.50', '1.00']);
    },
    6: async (page) => {
      assert.deepEqual(await cellsOf(page, ['verl', 'slime'], 9), ['−1.15', '−1.13']);
      assert.deepEqual(await cellsOf(page, ['verl', 'slime'], 0), ['0', '0.81']);
      assert.match((await page.locator('grpo-advantages ul.flagged li[data-scheme="slime"]').textContent()) ?? '', /one group/);
    },
  },
  packing: {
    1: async (page) => {
      await page.locator('grpo-framework .figure.packing svg').waitFor();
      assert.deepEqual([...new Set(await frameworkTiles(page, 0))], ['82', '1019']);
      assert.deepEqual([...new Set(await frameworkTiles(page, 1))], ['522', '735']);
    },
    2: async (page) => {
      await waitText(page, 'grpo-framework', 'p.copies', /P82's 4 copies in step 0 sit on rank 0\./);
      assert.equal((await frameworkStrips(page))['0/0'], '82 82 82 82');
      assert.match((await page.locator('grpo-framework .switches').textContent()) ?? '', /policy\.sequence_packing\.enabled off/);
    },
    3: async (page) => {
      await waitText(page, 'grpo-framework', '.budget-text', /Budget: 2048 tokens per micro-batch/);
      const strips = await frameworkStrips(page);
      const holding = Object.entries(strips).filter(([at, ids]) => at.startsWith('0/') && ids.split(' ').includes('82'));
      assert.equal(holding.length, 3, JSON.stringify(strips));
      assert.equal(
        holding.map(([, ids]) => ids.split(' ').filter((id) => id === '82').length).reduce((a, b) => a + b),
        4,
      );
      assert.equal((await frameworkTiles(page, 0)).length, 9);
      assert.equal((await frameworkTiles(page, 1)).length, 7);
    },
    4: async (page) => {
      await waitText(page, 'grpo-framework', '.synced', /^Every rank runs 3 micro-batches/);
      assert.equal((await frameworkStrips(page))['1/2']!.split(' ').length, 1);
    },
    5: async (page) => {
      await waitText(page, 'grpo-steps', '.synced', /^Every rank runs 3 micro-batches/);
      assert.match((await page.locator('grpo-steps .own-counts').textContent()) ?? '', /rank 0 3, rank 1 3;/);
      const strips = await page.locator('grpo-steps .figure.packing g.mb').evaluateAll((gs) =>
        gs.map((g) => ({
          at: `${g.getAttribute('data-rank')}/${g.getAttribute('data-micro')}`,
          tokens: Number(g.getAttribute('data-tokens')),
          prompts: [...g.querySelectorAll('[data-prompt]')].map((b) => b.getAttribute('data-prompt')),
        })),
      );
      const rankTokens = (r: number) => strips.filter((s) => s.at.startsWith(`${r}/`)).reduce((t, s) => t + s.tokens, 0);
      assert.deepEqual([rankTokens(0), rankTokens(1)], [4561, 4562]);
      assert.deepEqual(strips.find((s) => s.at === '1/1')!.prompts.filter((p) => p === '15').length, 2);
      assert.match((await page.locator('grpo-steps p.copies').textContent()) ?? '', /P15’s 4 copies .*rank 1 in micro-batch 1\./);
    },
  },
  'seed-000': {
    3: async (page) => {
      assert.equal(
        await page.evaluate(() => (document.querySelector('grpo-explorer') as unknown as { state: { prompt: number } }).state.prompt),
        13,
      );
      assert.match((await page.locator('grpo-copies-panel p').first().textContent()) ?? '', /prompt 13: 8 copies in the layout/);
      // Two of prompt 13's copies on rank 3 in each of the two (identical) batches, as the step says.
      assert.equal(await page.locator('grpo-copies-panel tr.copy[data-rank="3"]').count(), 4);
    },
  },
  'seed-001': {
    3: async (page) => {
      await page.locator('grpo-schedule table').waitFor();
      assert.equal(await makespan(page, 'serial-dp'), '20T');
      assert.equal(await makespan(page, 'per-rank-serial'), '5T');
      assert.equal(await page.locator('grpo-schedule tr[data-scheme]').count(), 5);
    },
    4: async (page) => {
      await page.waitForFunction(
        () => document.querySelector('grpo-schedule')!.shadowRoot!.querySelectorAll('tr[data-scheme]').length === 2,
      );
      assert.equal(await makespan(page, 'serial-dp'), '20T');
      assert.equal(await makespan(page, 'per-rank-serial'), '5T');
      assert.equal(await page.locator('grpo-schedule tr[data-scheme="per-rank-serial"] td.speedup').textContent(), '4.00×');
    },
    5: async (page) => {
      await page.waitForFunction(
        () => document.querySelector('grpo-schedule')!.shadowRoot!.querySelectorAll('tr[data-scheme]').length === 5,
      );
      assert.equal(await makespan(page, 'per-rank-batched'), '3T');
    },
    6: async (page) => {
      await waitText(page, 'grpo-schedule', 'tr[data-scheme="serial-dp"] td.makespan', /ms$/);
      assert.equal(await page.locator('grpo-schedule').getAttribute('alpha'), null, 'alpha is back to the preset’s');
    },
  },
  'seed-002': {
    2: async (page) => {
      await page.locator('grpo-dynamic svg.dynamic-figure').waitFor();
      assert.equal(await pool(page), '48');
    },
    3: async (page) => assert.equal(await pool(page), '62'),
    4: async (page) => assert.deepEqual(await sliceSizes(page), ['16', '16', '16', '14']),
    5: async (page) => {
      await waitText(page, 'grpo-dynamic', 'pre.run', /ranks 0–2 sent \[16, 1\]; rank 3 sent \[14, 1\]/);
    },
    6: async (page) => {
      assert.equal(await page.locator('grpo-dynamic button[data-policy="fallback"]').getAttribute('aria-pressed'), 'true');
      await waitText(page, 'grpo-dynamic', 'pre.run.success', /ok: the step trained on all 4 ranks/);
    },
    7: async (page) => {
      await waitText(page, 'grpo-dynamic', 'pre.run.success', /allGatherVariable[\s\S]*ok: the step trained/);
      assert.deepEqual(await sliceSizes(page), ['16', '16', '15', '15']);
    },
  },
  'seed-003': {
    3: async (page) => {
      await page.locator('grpo-train #start').waitFor();
      assert.equal(await page.locator('grpo-train').getAttribute('preset'), 'seed-003');
      assert.equal(await page.locator('grpo-train').getAttribute('steps'), '30');
    },
    4: async (page) => {
      // The run trains on its rank worker: a step's reward is shown.
      await waitText(page, 'grpo-train', '#last', /^step \d+: reward -?\d+\.\d{4}, \d+\.\d% of optimum$/);
    },
  },
  'trl-5619': {
    1: async (page) => assert.deepEqual(await updates(page), ['step 0 ×0.53', 'step 1 ×0.47', 'step 2 ×0.49', 'step 3 ×0.51']),
    2: async (page) => assert.deepEqual(await updates(page), ['step 0 ×1.00', 'step 1 ×1.00', 'step 2 ×1.00', 'step 3 ×1.00']),
    3: async (page) => assert.deepEqual(await updates(page), ['step 0 ×1.06', 'step 1 ×0.94', 'step 2 ×0.98', 'step 3 ×1.02']),
    4: async (page) => assert.deepEqual(await updates(page), ['step 0 ×1.00', 'step 1 ×1.00', 'step 2 ×1.00', 'step 3 ×1.00']),
  },
  // The numbers each caption states, as the view shows them (test/ui/async-trace.test.ts checks them against the core).
  'async-grpo': {
    1: async (page) =>
      assert.match(await waitText(page, 'grpo-async', '.run', /in 349\.0 s/), /mean lag of 0\.00 \(max 0\); the trainer waited 269\.0 s/),
    2: async (page) => assert.match(await waitText(page, 'grpo-async', '.run', /in 117\.1 s/), /\(max 4\); the trainer waited 37\.1 s/),
    3: async (page) => {
      assert.match(await waitText(page, 'grpo-async', '.drops-total', /18 groups/), /^Dropped: 18 groups/);
      assert.match(await waitText(page, 'grpo-async', 'p.bias', /291 tokens/), /against 874 .*\(−66\.7%\)\. Hard prompts: 0 of 57/);
    },
    4: async (page) => {
      assert.match(
        await waitText(page, 'grpo-async', 'ul.drops', /17 aborted/),
        /17 aborted while still generating.*9 evicted from the buffer/s,
      );
      assert.match((await page.locator('grpo-async p.bias').textContent()) ?? '', /Hard prompts: 0 of 15/);
    },
    5: async (page) => {
      const idle = await page.locator('grpo-async table.compare tr[data-framework="areal"] td.idle').allTextContents();
      assert.equal(idle.at(-1), '269.0');
    },
  },
  'seed-004': {
    2: async (page) => {
      await page.locator('grpo-dynamic svg.dynamic-figure').waitFor();
      assert.equal(await pool(page), '56');
    },
    3: async (page) => assert.equal(await pool(page), '64'),
    4: async (page) => assert.match((await page.locator('grpo-dynamic g.slice[data-rank="2"]').textContent()) ?? '', /\[32:48\]/),
    5: async (page) => {
      await waitText(page, 'grpo-dynamic', 'pre.run.failure', /DeviceMismatchError: Expected all tensors to be on the same device/);
      assert.equal(await page.locator('grpo-dynamic pre.run').count(), 1, 'one run, with the device fix off');
    },
    6: async (page) => {
      await waitText(
        page,
        'grpo-dynamic',
        'pre.run.success',
        /rank 3: stacked \[16, 1\] on sim:3[\s\S]*ok: the step trained on all 4 ranks/,
      );
      assert.equal(await page.locator('grpo-dynamic pre.run').count(), 1);
    },
  },
};

/** The update size over the token mean's that <grpo-steps> labels each optimizer step with. */
async function updates(page: Page): Promise<string[]> {
  await page.locator('grpo-steps svg.steps-figure').waitFor();
  return page.locator('grpo-steps svg.steps-figure text.update').allTextContents();
}

/** Runs tour `id` from its first step to its last with the next button, checking each step. */
async function runTour(page: Page, id: string): Promise<void> {
  const tour = TOURS[id]!;
  for (let n = 1; n <= tour.steps.length; n++) {
    await atStep(page, n);
    assert.equal(await stepInUrl(page), String(n));
    const step = tour.steps[n - 1]!;
    const text = en.tours.steps[id]![n - 1]!;
    assert.equal(await panelText(page), n === tour.steps.length ? `${text} ${en.tours.ui.end}` : text);
    const tags = await page.evaluate((all) => all.filter((t) => document.querySelector(t)), VIEW_TAGS);
    const tag = step.view === 'explorer' ? 'grpo-explorer' : `grpo-${step.view}`;
    assert.deepEqual(tags, [tag], `step ${n} shows ${tag} alone`);
    if (step.view === 'explorer') {
      const s = stepState(tour, n - 1).set;
      await explorerAt(page, s.phase!);
      // A step that changes a layout setting (seed-000's loader step) leaves the preset: the explorer then shows custom settings.
      const custom = Object.keys(s).some((key) => !['preset', 'phase', 'prompt'].includes(key));
      assert.equal(
        await page.evaluate(() => (document.querySelector('grpo-explorer') as unknown as { state: { preset: string } }).state.preset),
        custom ? null : s.preset,
      );
    }
    await CHECKS[id]?.[n]?.(page);
    await checkPlacedAtSizes(page, id, n);
    const next = page.locator('grpo-tour-panel button.next');
    if (n < tour.steps.length) await next.click();
    else assert.equal(await next.isDisabled(), true, 'the last step has no next');
  }
}

for (const id of tourNames) {
  const title =
    `tour ${id} runs to its end: each step's text, then its action in the live view; ` +
    "at 390, 768 and 1280 px the panel never covers the step's target";
  test(title, async () => {
    const t0 = performance.now();
    await withPage(`/?tour=${id}&speed=8`, (page) => runTour(page, id), { viewport: openingSize });
    console.log(`# tour ${id}: ${TOURS[id]!.steps.length} steps in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  });
}

test('a link opens a tour at step 3 as if steps 1–3 had run; Back steps back; ← → and Esc', async () => {
  await withPage('/?tour=seed-002&step=3&speed=8', async (page) => {
    await atStep(page, 3);
    assert.equal(await panelText(page), en.tours.steps['seed-002']![2]);
    await page.locator('grpo-dynamic svg.dynamic-figure').waitFor();
    assert.equal(await pool(page), '62');
    assert.equal(await page.locator('grpo-explorer').count(), 0);
    await page.locator('grpo-tour-panel button.next').click();
    await atStep(page, 4);
    assert.deepEqual(await sliceSizes(page), ['16', '16', '16', '14']);
    await page.goBack();
    await atStep(page, 3);
    assert.equal(await stepInUrl(page), '3');
    await page.waitForFunction(
      () => document.querySelector('grpo-dynamic')?.shadowRoot?.querySelector('.pool-label')?.getAttribute('data-pool') === '62',
    );
    // The panel's back button, then the keys.
    await page.locator('grpo-tour-panel button.back').click();
    await atStep(page, 2);
    assert.equal(await pool(page), '48');
    await page.keyboard.press('ArrowRight');
    await atStep(page, 3);
    await page.keyboard.press('ArrowLeft');
    await atStep(page, 2);
    await page.keyboard.press('ArrowLeft');
    await atStep(page, 1);
    await explorerAt(page, 'gather');
    await page.keyboard.press('Escape');
    await page.locator('grpo-tour-panel').waitFor({ state: 'detached' });
    // Closed: the explorer writes its own state into the address again.
    await page.waitForFunction(() => new URLSearchParams(location.search).get('preset') === 'seed-002');
    assert.equal(await page.evaluate(() => new URLSearchParams(location.search).has('tour')), false);
  });
});

test("the explorer's tours menu lists the five; a link opens its tour; lang=zh-CN shows the Chinese text", async () => {
  await withPage('/?preset=seed-000', async (page) => {
    await page.locator('grpo-tour-menu summary').click();
    const links = await page.locator('grpo-tour-menu a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(
      links,
      tourNames.map((id) => `?tour=${id}`),
    );
    await page.locator('grpo-tour-menu a[data-tour="seed-001"]').click();
    await atStep(page, 1);
    assert.equal(await panelText(page), en.tours.steps['seed-001']![0]);
  });
  await withPage('/?tour=seed-004&step=5&lang=zh-CN&speed=8', async (page) => {
    await atStep(page, 5);
    assert.equal(await panelText(page), zhCN.tours.steps['seed-004']![4]);
    assert.match((await page.locator('grpo-tour-panel .count').textContent()) ?? '', /第 5 步，共 6 步/);
    await waitText(page, 'grpo-dynamic', 'pre.run.failure', /DeviceMismatchError/);
  });
  await withPage('/?tour=seed-009', async (page) => {
    assert.match(
      (await page.locator('grpo-tour-panel p.unknown').textContent()) ?? '',
      /There is no tour “seed-009”; the tours are seed-000/,
    );
  });
});
