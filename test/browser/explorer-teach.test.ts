// The explorer as a teacher's instrument, in real Chromium: each sampler starts from its
// framework's regrouping, any other choice is marked as a "what if", and an embed in a
// course page (a cross-origin iframe) draws without a false banner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath, screenshot, session, withPage } from './harness.ts';
import {
  coreCopies,
  coreLayout,
  firstView,
  IDEALISED_LOADER,
  idealisedSeed000,
  jump,
  presetConfig,
  settled,
  tiles,
} from './explorer-page.ts';

const regroupValue = (page: import('playwright-core').Page) => page.locator('grpo-explorer select#regroup').inputValue();

test("each sampler starts from its framework's regrouping; another is marked as a what-if with the real framework's", async () => {
  const expected: [string, string][] = [
    ['/?preset=seed-000', 'prompt-id'],
    ['/?preset=seed-002', 'view'],
    ['/?sampler=dance-grpo&ranks=4&batch=4&k=2&dataset=32', 'local'],
    ['/?sampler=contiguous&ranks=4&batch=4&k=4&batches=1&dataset=16', 'local'],
  ];
  for (const [link, regroup] of expected) {
    // speed=8: the jump's caption pause and movement in 0.3 s; what is read is the phase at rest.
    await withPage(`${link}&speed=8`, async (page) => {
      await firstView(page);
      assert.equal(await regroupValue(page), regroup, link);
      assert.equal(await page.locator('grpo-explorer .whatif').count(), 0, `${link}: the framework's own choice is no what-if`);
      await jump(page, 'regroup');
      assert.doesNotMatch((await page.locator('grpo-explorer .caption').textContent()) ?? '', /What if/);
    });
  }
  await withPage('/?preset=seed-000', async (page) => {
    await firstView(page);
    // Switching the sampler brings TRL's view(-1, k).
    await page.locator('grpo-config-panel select#sampler').selectOption('trl');
    await page.waitForFunction(() => location.search.includes('regroup=view'));
    assert.equal(await regroupValue(page), 'view');
    // flow_grpo's regrouping on TRL's layout is a what-if, in the panel and in the caption.
    await page.locator('grpo-explorer select#regroup').selectOption('prompt-id');
    const note = page.locator('grpo-explorer .whatif');
    await note.waitFor();
    assert.match(
      (await note.textContent()) ?? '',
      /not what TRL does: it gathers each generation batch and groups with rewards.view\(-1, k\)/,
    );
    await jump(page, 'advantages');
    assert.match((await page.locator('grpo-explorer .caption').textContent()) ?? '', /What if: .* on a TRL layout; TRL itself gathers/);
    await screenshot(page, 'explorer-whatif-trl-by-prompt');
    await note.locator('button.use-default').click();
    await note.waitFor({ state: 'detached' });
    assert.equal(await regroupValue(page), 'view');
  });
});

test('an embed in a cross-origin iframe draws the layout and shows no isolation banner', async () => {
  // A course page on another origin (127.0.0.1 vs localhost) served like an ordinary site, without
  // COOP/COEP. Chromium's local-network checks would block a loopback page framing another loopback
  // origin; a real course page and explorer are both public, so this browser turns that check off.
  const { server } = await session();
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs, '--disable-features=LocalNetworkAccessChecks'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const explorer = server.url;
    const port = new URL(explorer).port;
    await page.route(`http://127.0.0.1:${port}/**`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    });
    const src = encodeURIComponent(`${explorer}/?preset=seed-000&embed=1&phase=scatter`);
    await page.goto(`http://127.0.0.1:${port}/test/browser/pages/course.html?src=${src}`);
    const frame = page.frameLocator('#x');
    await frame.locator('grpo-layout-canvas canvas').waitFor();
    const inner = page.frames().find((f) => f.url().startsWith(explorer))!;
    await inner.waitForFunction(() => window.grpoFirstViewMs !== undefined);
    assert.equal(await inner.evaluate(() => window.top !== window && !crossOriginIsolated), true, 'framed, not isolated');
    assert.equal(await frame.locator('grpo-explorer .isolation').count(), 0);
    const count = await inner.evaluate(() => {
      const app = document.querySelector('grpo-explorer')!;
      return (app.shadowRoot!.querySelector('grpo-layout-canvas') as unknown as { tileRects(): unknown[] }).tileRects().length;
    });
    assert.equal(count, 32);
    await screenshot(page, 'explorer-embed-cross-origin');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  } finally {
    await browser.close();
  }
});

test("compare side by side: TRL's view(-1, k) beside flow_grpo's grouping on the same draws, the difference named from the core", async () => {
  await withPage('/?preset=seed-000&phase=scatter', async (page) => {
    await firstView(page);
    await page.locator('grpo-explorer select#compare').selectOption('view');
    await page.waitForFunction(() => location.search.includes('compare=view'));
    await jump(page, 'advantages');
    assert.equal(await page.locator('grpo-explorer grpo-layout-canvas').count(), 2, 'two pictures');
    const expected = await page.evaluate(async () => {
      const samplers = await import('/src/core/samplers/index.ts' as string);
      const presets = await import('/src/core/presets.ts' as string);
      const g = await import('/src/core/layout/gather.ts' as string);
      const r = await import('/src/core/layout/regroup.ts' as string);
      const adv = await import('/src/core/grpo/advantages.ts' as string);
      const toy = await import('/src/core/grpo/toy-rewards.ts' as string);
      const layout = samplers.buildLayout(presets.presets['seed-000'].config);
      const gather = g.gathers(layout)[0];
      const rows = r.regroup(gather, 'view', 4);
      const rewards = toy.toyRewards(
        'random',
        42,
        0,
        gather.samples.map((s: { promptId: number }) => s.promptId),
      );
      const a = adv.advantagesOfRegroup('prompt-id', gather, rewards, 4);
      const b = adv.advantagesOfRegroup('view', gather, rewards, 4, 'group');
      return {
        mixed: rows.filter((x: { mixed: boolean }) => x.mixed).length as number,
        rows: rows.length as number,
        differ: a.filter((v: number, i: number) => Math.abs(v - b[i]) > 1e-9).length as number,
      };
    });
    const text = (await page.locator('grpo-explorer .compare-text').textContent()) ?? '';
    assert.match(
      text,
      new RegExp(
        `TRL's view\\(-1, k\\) on flow_grpo's gather mixes prompts in ${expected.mixed} of ${expected.rows} rows; ${expected.differ} of 32 advantages differ`,
      ),
    );
    assert.ok(expected.mixed > 0 && expected.differ > 0);
    await screenshot(page, 'explorer-compare-view');
    // The second picture carries the compared advantages: its tiles sit in view(-1, k) rows.
    const rowsOfSecond = await page.evaluate(() => {
      const canvases = document.querySelector('grpo-explorer')!.shadowRoot!.querySelectorAll('grpo-layout-canvas');
      return (canvases[1] as unknown as { rows: { key: string }[] }).rows.map((x) => x.key);
    });
    assert.deepEqual(rowsOfSecond, ['0', '1', '2', '3', '4', '5', '6', '7']);
  });
});

test('predict, then reveal (quiz=1): the scatter waits for the answer, which is the core’s', async () => {
  await withPage('/?preset=seed-000&quiz=1&speed=4', async (page) => {
    await firstView(page);
    await page.locator('grpo-story-controls button.forward').click();
    const quiz = page.locator('grpo-quiz');
    await quiz.waitFor();
    // Held in the caption: the tiles do not move before the reveal.
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => (document.querySelector('grpo-explorer') as HTMLElement).dataset.stage), 'caption');
    const question = (await quiz.locator('p').first().textContent()) ?? '';
    const prompt = Number(question.match(/copies of P(\d+)/)![1]);
    const copies = await coreCopies(page, 'seed-000', prompt);
    const ranks = [...new Set(copies.map((c) => c.rank))].sort((a, b) => a - b);
    await quiz
      .locator('button', { hasText: `rank ${ranks[0]}` })
      .first()
      .click();
    await quiz.locator('button.reveal').click();
    await settled(page, 'scatter');
    const result = (await quiz.locator('.result').textContent()) ?? '';
    for (const r of ranks) assert.match(result, new RegExp(`rank ${r}\\b`));
    assert.match(result, new RegExp(`You picked 1 of those ${ranks.length} ranks`));
    assert.match(page.url(), /quiz=1/);
    await screenshot(page, 'explorer-quiz-revealed');
  });
});

/** The explorer's story stage and phase (data attributes on <grpo-explorer>). */
const storyAt = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const app = document.querySelector('grpo-explorer') as HTMLElement;
    return { phase: app.dataset.phase, stage: app.dataset.stage };
  });

test('predict, then reveal on jumps: a link, a number key and a phase button each ask before the tiles move; three phases, answers from the core', async () => {
  // Arriving by a link straight to the scatter: the question waits, the tiles are still in the sample's places.
  await withPage(`/?preset=seed-000${IDEALISED_LOADER}&quiz=1&phase=scatter&speed=4`, async (page) => {
    await firstView(page);
    const quiz = page.locator('grpo-quiz');
    await quiz.waitFor();
    await page.waitForTimeout(1200);
    assert.deepEqual(await storyAt(page), { phase: 'scatter', stage: 'caption' }, 'held before the movement');
    const answer = await coreLayout(page, await idealisedSeed000(page));
    const gathered = answer.gathers[0]!;
    const prompt = Math.min(...gathered.map((s) => s.promptId));
    assert.match((await quiz.locator('p.question').textContent()) ?? '', new RegExp(`copies of P${prompt} after the scatter`));
    // Before the reveal the tiles have not moved: they sit where the scatter will take them only after it.
    const before = (await tiles(page)).map((t) => `${t.x},${t.y}`);
    await quiz.locator('button.reveal').click();
    await settled(page, 'scatter');
    const after = (await tiles(page)).map((t) => `${t.x},${t.y}`);
    assert.notDeepEqual(before, after, 'the scatter moved the tiles after the reveal');

    // A number key to the accumulation: "can rank r compute P's group mean alone?", answered from the core's gather.
    await page.locator('grpo-layout-canvas canvas').first().focus();
    await page.keyboard.press('3');
    await page.waitForFunction(() =>
      document.querySelector('grpo-explorer')?.shadowRoot?.querySelector('grpo-quiz[data-phase="accumulate"]'),
    );
    await page.waitForTimeout(800);
    assert.deepEqual(await storyAt(page), { phase: 'accumulate', stage: 'caption' });
    const first = gathered.find((s) => s.promptId === prompt)!;
    const firstIndex = gathered.indexOf(first);
    const copies = await coreCopies(page, await idealisedSeed000(page), prompt);
    const inGather = copies.filter((c) => answer.gathers[0]!.some((s) => s.stepIndex === c.stepIndex));
    // seed-000 is flow_grpo with k = 4 over 8 ranks: P's draw is spread, so the right answer is "no".
    const onFirstRank = inGather.filter((c) => c.rank === first.rank).length;
    assert.ok(onFirstRank < inGather.length);
    const question = (await quiz.locator('p.question').textContent()) ?? '';
    assert.match(question, new RegExp(`can rank ${first.rank} compute the mean of P${prompt}'s group \\(the 4 copies of one draw\\)`));
    await quiz.locator('button', { hasText: /^no$/ }).click();
    await quiz.locator('button.reveal').click();
    await settled(page, 'accumulate');
    assert.match(
      (await quiz.locator('.result').textContent()) ?? '',
      new RegExp(`^Right: no, rank ${first.rank} holds ${onFirstRank} of the 4 copies`),
    );
    assert.equal(firstIndex, inGather[0]!.gatheredIndex, "the rank asked about holds the prompt's first gathered copy");

    // A phase button to the all-gather: "at which gathered positions?" — typed, checked against copiesOf.
    await page.locator('grpo-story-controls button[data-phase="gather"]').click();
    const positions = page.locator('grpo-quiz[data-phase="gather"]');
    await positions.waitFor();
    assert.deepEqual(await storyAt(page), { phase: 'gather', stage: 'caption' });
    const indices = inGather.map((c) => c.gatheredIndex);
    const wrong = [...Array(32).keys()].find((i) => !indices.includes(i))!;
    await positions.locator('input').fill(`${indices.slice(0, 3).join(', ')}, ${wrong}`);
    await positions.locator('button.reveal').click();
    await settled(page, 'gather');
    const result = (await positions.locator('.result').textContent()) ?? '';
    assert.match(result, new RegExp(`positions ${indices.join(', ')} \\(rank × 4 \\+ position on the rank\\)`));
    assert.match(result, new RegExp(`You named 3 of those ${indices.length} and 1 that holds other samples\\.`));
    await screenshot(page, 'explorer-quiz-gather-positions');
    // No question where the phase has none: the regroup moves at once.
    await page.keyboard.press('5');
    await settled(page, 'regroup');
    assert.equal(await page.locator('grpo-quiz').count(), 0);
  });
});

test('a new gather asks its questions afresh (the answer of the last gather does not stay)', async () => {
  const link = '/?sampler=flow-grpo&ranks=8&batch=2&k=4&batches=2&dataset=32&epochs=2&quiz=1&phase=scatter&speed=4';
  await withPage(link, async (page) => {
    await firstView(page);
    const quiz = page.locator('grpo-quiz');
    await quiz.locator('button.reveal').click();
    await settled(page, 'scatter');
    await quiz.locator('.result').waitFor();
    await page.locator('grpo-explorer select#gather').selectOption('1');
    await page.waitForFunction(() => location.search.includes('gather=1'));
    // Asked again, held before the movement, with no answer shown.
    await quiz.locator('button.reveal').waitFor();
    assert.equal(await quiz.locator('.result').count(), 0);
    assert.deepEqual(await storyAt(page), { phase: 'scatter', stage: 'caption' });
    const answer = await coreLayout(page, { ...(await presetConfig(page, 'seed-000')), epochs: 2 });
    const prompt = Math.min(...answer.gathers[1]!.map((s) => s.promptId));
    assert.match((await quiz.locator('p.question').textContent()) ?? '', new RegExp(`copies of P${prompt} `));
  });
});

test('rewards and advantages appear from the advantages phase on: copies table and comparison sentence; "1 copy"; advantage errors in words', async () => {
  // speed=8: six jumps, each read at rest.
  await withPage('/?preset=seed-000&phase=scatter&compare=view&speed=8', async (page) => {
    await firstView(page);
    const prompt = (await tiles(page))[0]!.promptId;
    await page.locator('grpo-copies-panel input').fill(String(prompt));
    await page.locator('grpo-copies-panel input').press('Enter');
    await page.waitForFunction(() => location.search.includes('prompt='));
    const headers = () => page.locator('grpo-copies-panel th').allTextContents();
    const compare = () => page.locator('grpo-explorer .compare-text').textContent();
    for (const phase of ['scatter', 'accumulate', 'gather', 'regroup'] as const) {
      await jump(page, phase);
      assert.deepEqual(await headers(), ['step', 'rank', 'slot', 'gather', 'gathered #'], phase);
      assert.doesNotMatch((await compare()) ?? '', /differ|equal/, phase);
      assert.match(
        (await compare()) ?? '',
        /mixes prompts in \d+ of 8 rows; the two pictures' advantages are compared in the advantages phase/,
      );
    }
    for (const phase of ['advantages', 'slice'] as const) {
      await jump(page, phase);
      assert.deepEqual(await headers(), ['step', 'rank', 'slot', 'gather', 'gathered #', 'reward', 'advantage'], phase);
      assert.match((await compare()) ?? '', /advantages differ from/, phase);
    }
  });
  // k = 1: each prompt has one copy ("1 copy", not "1 copies").
  await withPage('/?sampler=dance-grpo&ranks=2&batch=2&k=1&dataset=64', async (page) => {
    await firstView(page);
    const prompt = (await tiles(page))[0]!.promptId;
    await page.locator('grpo-copies-panel input').fill(String(prompt));
    await page.locator('grpo-copies-panel input').press('Enter');
    const text = page.locator('grpo-copies-panel p');
    await text.first().waitFor();
    assert.match((await text.first().textContent()) ?? '', new RegExp(`prompt ${prompt}: 1 copy in the layout`));
  });
  // DanceGRPO's local groups on 3 ranks × 1 slot with k = 3: a rank holds 2 samples. The page says so, not the core's CLI message.
  await withPage('/?sampler=flow-grpo&ranks=3&batch=1&k=3&dataset=16&regroup=local&phase=advantages', async (page) => {
    await firstView(page);
    await settled(page, 'advantages');
    const warn = (await page.locator('grpo-explorer .caption .warn').textContent()) ?? '';
    assert.equal(
      warn.replace(/\s+/g, ' ').trim(),
      "No advantages for this regrouping: DanceGRPO's local groups needs rows of k = 3 samples, but a rank holds 2, which is not a multiple of 3.",
    );
    await jump(page, 'regroup');
    assert.equal(await page.locator('grpo-explorer .caption .warn').count(), 0, 'no advantage error before the advantages phase');
  });
});
