// The embeddable library as a teacher uses it: `npm run build`'s dist/grpo-sandbox.js and
// public/embed.html, served by a plain static file server — once without cross-origin
// isolation (any web page), once with COOP/COEP, once framed by another page. Every component
// in the build loads; the article's figures draw with no page error, each with at most one
// control, start only when scrolled near and pause off screen; ?lang=zh-CN shows the article and
// its figures in Chinese; the figure export's PNG and SVG are valid files of the chosen size; the steps view
// (?view=steps) shows the values its report uses in its number fields.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { builtSite, downloaded, launchBrowser, root } from './harness.ts';
import { serveDir, type StaticServer } from './static-server.ts';
import { FRAMEWORKS } from '../../src/core/steps/index.ts';

/** The components the library can hold, and the file each comes from (present or not in this checkout). */
const optional: Record<string, string> = {
  'grpo-train': 'src/ui/train/train-dashboard.ts',
  'grpo-schedule': 'src/ui/schedule/schedule-view.ts',
  'grpo-dynamic': 'src/ui/dynamic/dynamic-view.ts',
  'grpo-steps': 'src/ui/steps/steps-view.ts',
  'grpo-async': 'src/ui/async/async-view.ts',
};
const present = ['grpo-layout', 'grpo-compare', ...Object.keys(optional).filter((tag) => existsSync(join(root, optional[tag]!)))];

let outDir = '';
let browser: Browser;
const servers: StaticServer[] = [];

/** A static server over the build; `isolated` sends COOP/COEP. `/frame.html` frames embed.html. */
async function serve(isolated: boolean): Promise<string> {
  const frame =
    '<!doctype html><title>course</title><link rel="icon" href="data:,"><iframe id="f" src="/embed.html" width="1000" height="800"></iframe>';
  const server = await serveDir(outDir, { isolated, pages: { '/frame.html': frame } });
  servers.push(server);
  return server.url;
}

before(async () => {
  // `npm run build`'s output, built once per run by the test runner (or now, when this file runs alone).
  outDir = await builtSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
});

async function open(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  // A loaded 2-core machine can take more than the default 30 s to load a page (as the harness notes).
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  return { page, errors };
}

/** The lazy state of every grpo element on the page, by tag (and id). */
const lazyStates = (page: Page) =>
  page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        'grpo-layout, grpo-compare, grpo-train, grpo-schedule, grpo-dynamic, grpo-steps, grpo-async',
      ),
    ].map((e) => `${e.localName}${e.id ? `#${e.id}` : ''}:${e.dataset.grpoLazy ?? 'unwatched'}`),
  );

/**
 * Waits until `fn(arg)` holds in the page: polled every 100 ms, not on animation frames (a browser
 * shared with other test files can hold a page's frames back), for up to 90 s (a loaded 2-core
 * machine). A timeout says what it waited for and every figure's lazy state.
 */
async function until(page: Page, what: string, fn: (arg: string) => unknown, arg = ''): Promise<void> {
  try {
    await page.waitForFunction(fn, arg, { polling: 100, timeout: 90_000 });
  } catch (err) {
    const states = await lazyStates(page).catch(() => ['(the page did not answer)']);
    throw new Error(`waiting for ${what}: ${(err as Error).message.split('\n')[0]}; lazy states: ${states.join(' ')}`);
  }
}

/** Whether the element matched by `sel` has a built picture (a scene in its first canvas). */
const built = (sel: string) =>
  ((document.querySelector(sel)?.shadowRoot?.querySelector('grpo-layout-canvas') as unknown as { scene: unknown } | null)?.scene ??
    null) !== null;

/** Samples drawn by a layout element's pictures (0 while nothing is built). */
const drawn = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel)!;
    return [...(el.shadowRoot?.querySelectorAll('grpo-layout-canvas') ?? [])].map(
      (c) => (c as unknown as { scene: { samples: unknown[] } | null }).scene?.samples.length ?? 0,
    );
  }, selector);

test('the build emits the library next to the site, and its size', () => {
  assert.ok(existsSync(join(outDir, 'index.html')), 'the site is still built');
  assert.ok(existsSync(join(outDir, 'embed.html')));
  // The entry and every chunk it imports (statically, transitively): what one <script> tag loads.
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(outDir, file), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) visit(normalize(join(dirname(file), m[1]!)));
  };
  visit('grpo-sandbox.js');
  const bytes = [...seen].reduce((sum, f) => sum + statSync(join(outDir, f)).size, 0);
  console.log(`library: grpo-sandbox.js + ${seen.size - 1} chunk(s) = ${(bytes / 1000).toFixed(1)} kB; components: ${present.join(', ')}`);
  assert.ok(bytes > 0);
});

/**
 * Elements of the article still waiting for the lazy loader, and whether a layout figure among them
 * has built its picture (the schedule and dynamic figures compute from their attributes, cheaply and
 * without workers, so only the layout pictures wait to be built).
 */
const waitingBuilt = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('grpo-layout, grpo-compare, grpo-schedule, grpo-dynamic')]
      .filter((e) => e.dataset.grpoLazy === 'waiting')
      .map((e) =>
        e.localName === 'grpo-layout' || e.localName === 'grpo-compare'
          ? `${e.localName}:${e.shadowRoot?.querySelector('grpo-layout-canvas') ? 'built' : 'empty'}`
          : `${e.localName}:empty`,
      ),
  );

test('embed.html without isolation: every component loads, each figure lazily, with at most one control', async () => {
  const { page, errors } = await open(`${await serve(false)}/embed.html`);
  // The library defines the views after its top-level await of their chunks, which the load event does not wait for.
  for (const tag of present) await until(page, `${tag} to be defined`, (t) => customElements.get(t) !== undefined, tag);
  // The first figure is on screen; the later ones wait, with nothing built, until they come near.
  await until(page, 'the first figure to start', () => document.querySelector<HTMLElement>('grpo-layout')?.dataset.grpoLazy === 'started');
  await until(page, "the first figure's picture", built, 'grpo-layout');
  assert.ok((await drawn(page, 'grpo-layout'))[0]! > 0);
  const waiting = await waitingBuilt(page);
  assert.ok(waiting.length > 0, 'a figure further down waits');
  assert.ok(
    waiting.every((w) => w.endsWith(':empty')),
    `nothing built before it is near: ${waiting.join(' ')}`,
  );

  // Scrolling through the article starts each figure as it comes near; each shows at most one control.
  const figures = [
    'grpo-layout',
    'grpo-compare',
    ...['grpo-dynamic', 'grpo-schedule', 'grpo-steps', 'grpo-async'].filter((t) => present.includes(t)),
  ];
  for (const tag of figures) {
    await page.locator(tag).first().scrollIntoViewIfNeeded();
    await until(page, `${tag} to start`, (t) => document.querySelector<HTMLElement>(t)!.dataset.grpoLazy === 'started', tag);
    await until(
      page,
      `${tag}'s picture`,
      (t) => document.querySelector(t)!.shadowRoot!.querySelector('grpo-layout-canvas, svg') !== null,
      tag,
    );
    const controls = await page
      .locator(tag)
      .first()
      .evaluate((e) => e.shadowRoot!.querySelectorAll('button, input, select, textarea').length);
    assert.ok(controls <= 1, `${tag}: ${controls} controls`);
    if (tag === 'grpo-steps') {
      // A figure says which framework version it draws, not the pinned files and commits the view lists.
      const text = await page
        .locator(tag)
        .first()
        .evaluate((e) => e.shadowRoot!.textContent ?? '');
      const { pinnedTo } = FRAMEWORKS[(await page.locator(tag).first().getAttribute('framework'))!]!;
      assert.ok(!text.includes(pinnedTo), `the steps figure lists its pin: ${pinnedTo}`);
      assert.match(text, /trl-1\.9\.0/);
    }
    if (tag === 'grpo-dynamic') {
      // On screen, a figure stays on the step its page chose (its later stages draw the train step, which a figure does not run).
      await page.waitForTimeout(1600);
      assert.equal(await page.locator(tag).first().getAttribute('step'), '4', 'the dynamic figure stays on step 4');
    }
  }
  const compared = await drawn(page, 'grpo-compare');
  assert.equal(compared.length, 2, 'two pictures side by side');
  assert.ok(compared.every((n) => n > 0));
  // The one control of a layout figure steps its story on.
  await page.locator('grpo-layout').first().scrollIntoViewIfNeeded();
  await page.locator('grpo-layout').first().locator('button.next').click();
  await until(
    page,
    'the next phase after the click',
    () => document.querySelector<HTMLElement>('grpo-layout')!.dataset.phase === 'accumulate',
  );
  await page.locator('grpo-schedule, grpo-dynamic, grpo-compare').last().scrollIntoViewIfNeeded();
  await until(
    page,
    'the first figure to pause off screen',
    () => document.querySelector<HTMLElement>('grpo-layout')!.dataset.grpoLazy === 'paused',
  );
  console.log(`lazy states at the bottom: ${(await lazyStates(page)).join(' ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a playing story pauses off screen and plays on when back', async () => {
  const { page, errors } = await open(`${await serve(false)}/embed.html`);
  await until(page, 'the first figure to start', () => document.querySelector<HTMLElement>('grpo-layout')?.dataset.grpoLazy === 'started');
  const playing = () =>
    page.evaluate(() => (document.querySelector('grpo-layout') as unknown as { story: { playing: boolean } }).story.playing);
  await page.evaluate(() => (document.querySelector('grpo-layout') as unknown as { story: { play(): void } }).story.play());
  assert.equal(await playing(), true);
  await page.locator('grpo-schedule, grpo-dynamic, grpo-compare').last().scrollIntoViewIfNeeded();
  await until(
    page,
    'the first figure to pause off screen',
    () => document.querySelector<HTMLElement>('grpo-layout')!.dataset.grpoLazy === 'paused',
  );
  assert.equal(await playing(), false);
  await page.locator('grpo-layout').first().scrollIntoViewIfNeeded();
  await until(
    page,
    'the first figure to start again',
    () => document.querySelector<HTMLElement>('grpo-layout')!.dataset.grpoLazy === 'started',
  );
  assert.equal(await playing(), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('isolated, framed, and in Chinese: the article draws with no page error', async () => {
  const isolated = await open(`${await serve(true)}/embed.html`);
  assert.equal(await isolated.page.evaluate(() => crossOriginIsolated), true);
  await until(isolated.page, "the first figure's picture (isolated)", built, 'grpo-layout');
  assert.deepEqual(isolated.errors, []);
  await isolated.page.close();

  const framed = await open(`${await serve(false)}/frame.html`);
  await framed.page.frameLocator('#f').locator('grpo-layout').first().waitFor();
  assert.deepEqual(framed.errors, []);
  await framed.page.close();

  const zh = await open(`${await serve(false)}/embed.html?lang=zh-CN`);
  assert.equal(await zh.page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await zh.page.title(), '一个 prompt 的 k 个副本去了哪里', 'the tab says the title in Chinese too');
  // biome-ignore lint/performance/useDomNodeTextContent: the heading as shown (its English half is hidden), which textContent is not.
  assert.equal(await zh.page.locator('h1').innerText(), '一个 prompt 的 k 个副本去了哪里');
  assert.equal(await zh.page.locator('article p[lang="en"]').first().isVisible(), false);
  await until(zh.page, "the first figure's picture (zh-CN)", built, 'grpo-layout');
  assert.match((await zh.page.locator('grpo-layout p.caption').textContent()) ?? '', /[\u4e00-\u9fff]/, 'the figure speaks Chinese too');
  assert.deepEqual(zh.errors, []);
  await zh.page.close();
});

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Parses SVG text in the page: its root's width/height and how many rects, or the parser's error. */
const parseSvg = (page: Page, text: string) =>
  page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const error = doc.querySelector('parsererror')?.textContent ?? null;
    const svg = doc.documentElement;
    return {
      error,
      root: svg.localName,
      width: svg.getAttribute('width'),
      height: svg.getAttribute('height'),
      rects: doc.querySelectorAll('rect').length,
    };
  }, text);

test('figure export: the buttons save a PNG and an SVG of the chosen size', async () => {
  const { page, errors } = await open(`${await serve(false)}/embed.html`);
  // The article embeds figures without the export control: a course page's full elements have it.
  await page.evaluate(() => {
    for (const tag of ['grpo-compare', 'grpo-layout']) {
      const el = document.createElement(tag);
      el.setAttribute('preset', 'seed-000');
      el.setAttribute('phase', 'regroup');
      el.className = 'tool';
      document.querySelector('article')!.prepend(el);
    }
  });
  for (const tag of ['grpo-layout', 'grpo-compare']) {
    const view = page.locator(`${tag}.tool`);
    await view.scrollIntoViewIfNeeded();
    await until(page, `${tag} to start`, (t) => document.querySelector<HTMLElement>(t)!.dataset.grpoLazy === 'started', tag);
    const control = view.locator('grpo-figure-export');
    await control.locator('input.width').fill('640');
    await control.locator('input.width').dispatchEvent('change');
    await control.locator('input.height').fill('360');
    await control.locator('input.height').dispatchEvent('change');
    const [png] = await Promise.all([page.waitForEvent('download'), control.locator('button.png').click()]);
    assert.match(png.suggestedFilename(), /-640x360\.png$/);
    assert.deepEqual(pngSize(await downloaded(png)), { width: 640, height: 360 });
    const [svg] = await Promise.all([page.waitForEvent('download'), control.locator('button.svg').click()]);
    const parsed = await parseSvg(page, (await downloaded(svg)).toString('utf8'));
    assert.equal(parsed.error, null);
    assert.deepEqual([parsed.root, parsed.width, parsed.height], ['svg', '640', '360']);
    // Native vectors, one rect per tile (and per picture), not a bitmap wrapped in SVG.
    const samples = (await drawn(page, tag)).reduce((a, b) => a + b, 0);
    assert.ok(parsed.rects >= samples, `${parsed.rects} rects for ${samples} tiles`);
  }
  // Every other view the article embeds (the schedule and dynamic figures), through the library's export, at another size.
  for (const tag of ['grpo-schedule', 'grpo-dynamic', 'grpo-async'].filter((t) => present.includes(t))) {
    await page.locator(tag).first().scrollIntoViewIfNeeded();
    const result = await page.evaluate(async (t) => {
      const lib = await import('./grpo-sandbox.js' as string);
      const el = document.querySelector(t) as unknown as { figure(): Element | null };
      if (!el.figure()) return null;
      const png = new Uint8Array(await (await lib.exportFigure(el, 'png', 800, 450)).arrayBuffer());
      return { png: [...png.subarray(0, 24)], svg: lib.svgText(el, 800, 450) as string };
    }, tag);
    if (result === null) {
      console.log(`${tag}: figure() is null here (nothing drawn yet), no export checked`);
      continue;
    }
    assert.deepEqual(pngSize(Buffer.from(result.png)), { width: 800, height: 450 }, tag);
    const parsed = await parseSvg(page, result.svg);
    assert.equal(parsed.error, null, tag);
    assert.deepEqual([parsed.width, parsed.height], ['800', '450'], tag);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the steps view shows in its number fields the values its report uses, given or not', async () => {
  // TRL with gradient_accumulation_steps 4 given: steps_per_generation is derived from it, the rest are the defaults.
  const { page, errors } = await open(`${await serve(false)}/?view=steps&sampler=trl&ga=4`);
  await page.locator('grpo-steps .figure svg').waitFor({ timeout: 120_000 });
  const fields = await page.evaluate(() =>
    [...document.querySelector('grpo-steps')!.shadowRoot!.querySelectorAll('input[type=number]')].map((i) => [
      (i as HTMLInputElement).name,
      (i as HTMLInputElement).value,
    ]),
  );
  // Every setting the timeline depends on (sampler, k, dataset, seed and epochs were missing).
  assert.deepEqual(
    fields.map(([name]) => name),
    ['ranks', 'batch', 'k', 'dataset', 'seed', 'epochs', 'ga', 'spg', 'iters'],
  );
  for (const [name, value] of fields) assert.match(value!, name === 'seed' ? /^\d+$/ : /^[1-9]\d*$/, `${name} is empty`);
  assert.deepEqual(
    [fields.find(([n]) => n === 'ga')![1], fields.find(([n]) => n === 'spg')![1]],
    ['4', '4'],
    'gradient accumulation as given, steps per generation derived from it',
  );
  // The derived value is said to be derived, and the sampler is a choice of the form.
  assert.match(
    (await page.locator('grpo-steps label:has(input[name="spg"]) small.derived').textContent()) ?? '',
    /gradient accumulation, as TRL does/,
  );
  assert.equal(await page.locator('grpo-steps select[name="sampler"]').inputValue(), 'trl');
  assert.deepEqual(errors, []);
  await page.close();
});
