// <grpo-advantages> (?view=advantages) in real Chromium: every framework's default scheme as a row
// of the figure, each cell's written value the core's advantage for that completion (compare.ts),
// at 390 px and 1280 px wide without sideways scrolling, in English and in Chinese (no untranslated
// word), and an edited batch redrawn; below, the weights and totals figures write each framework's weights
// (compare-weights.ts, seeded lengths or the `lengths` given) at 390 px without sideways scrolling, the diffusion
// trainers' rows labelled per sample.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { compareAdvantages, defaultSchemes } from '../../src/core/grpo/compare.ts';
import { compareWeights, weightSchemes } from '../../src/core/grpo/compare-weights.ts';
import { cellText } from '../../src/ui/compare/advantages-figure.ts';
import { weightCell } from '../../src/ui/compare/weights-figure.ts';
import { DEFAULT_BATCH, parseList } from '../../src/ui/compare/advantages-request.ts';
import { untranslatedWords } from '../helpers/untranslated.ts';
import { screenshot, withPage } from './harness.ts';

const list = (text: string) => {
  const parsed = parseList(text);
  assert.ok('values' in parsed);
  return parsed.values;
};
const input = { rewards: list(DEFAULT_BATCH.rewards), promptIds: list(DEFAULT_BATCH.prompts), k: Number(DEFAULT_BATCH.k) };

/** What the figure draws: each row's scheme label and its cells' written values, in order; and the page's widths. */
async function drawn(page: Page) {
  await page.locator('grpo-advantages .figure svg').waitFor({ timeout: 60_000 });
  // tsx keeps function names with a __name helper, which the page does not have.
  await page.evaluate('window.__name ??= (f) => f');
  return page.evaluate(() => {
    const root = document.querySelector('grpo-advantages')!.shadowRoot!;
    const svg = root.querySelector('.figure svg')!;
    const texts = (sel: string) => [...svg.querySelectorAll(sel)].map((t) => t.textContent ?? '');
    return {
      schemes: texts('text.scheme'),
      values: texts('text.value'),
      refused: texts('text.refused').length,
      rewards: texts('text.reward'),
      perBand: Number(svg.getAttribute('data-per-band')),
      svgWidth: svg.getBoundingClientRect().width,
      hostWidth: document.querySelector('grpo-advantages')!.getBoundingClientRect().width,
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    };
  });
}

/** The values the figure must write, band by band (`perBand` completions per band), each band row by row. */
function expectedValues(perBand: number): { schemes: string[]; values: string[] } {
  const r = compareAdvantages(input, defaultSchemes());
  const n = input.rewards.length;
  const schemes: string[] = [];
  const values: string[] = [];
  for (let first = 0; first < n; first += perBand) {
    for (const col of r.columns) {
      schemes.push(col.warnings.length ? `${col.scheme} !` : col.scheme);
      if (col.advantages) for (let i = first; i < Math.min(n, first + perBand); i++) values.push(cellText(col.advantages[i]!));
    }
  }
  return { schemes, values };
}

for (const width of [390, 1280]) {
  test(`?view=advantages at ${width} px: a row per framework's default scheme, the core's advantages written in the cells, no sideways scroll`, async () => {
    await withPage(
      '/?view=advantages',
      async (page) => {
        const d = await drawn(page);
        assert.ok(d.scrollWidth <= d.innerWidth, `the page scrolls sideways: ${d.scrollWidth} > ${d.innerWidth}`);
        assert.ok(d.svgWidth <= d.hostWidth + 0.5, `the figure (${d.svgWidth}px) is wider than its element (${d.hostWidth}px)`);
        assert.equal(d.rewards.length, input.rewards.length, 'each completion’s reward is drawn once');
        if (width === 1280) assert.equal(d.schemes.length, defaultSchemes().length, 'one band at 1280 px');
        else assert.ok(d.schemes.length > defaultSchemes().length, 'the completions wrap into bands at 390 px');
        await screenshot(page, `advantages-view-${width}`);
        const want = expectedValues(d.perBand);
        assert.deepEqual(d.schemes, want.schemes);
        assert.deepEqual(d.values, want.values);
      },
      { viewport: { width, height: 900 } },
    );
  });
}

test('?view=advantages&lang=zh-CN at 390 px: Chinese words, no untranslated English, the same values', async () => {
  await withPage(
    '/?view=advantages&lang=zh-CN',
    async (page) => {
      const d = await drawn(page);
      assert.ok(d.scrollWidth <= d.innerWidth, `the page scrolls sideways: ${d.scrollWidth} > ${d.innerWidth}`);
      assert.equal(d.values.length, expectedValues(d.perBand).values.length);
      const texts = await page.evaluate(() => {
        const out: string[] = [];
        const walk = (node: Node) => {
          for (const child of node.childNodes) {
            if (child.nodeType === Node.TEXT_NODE) {
              const t = child.textContent?.trim();
              if (t) out.push(t);
              continue;
            }
            if (!(child instanceof Element) || ['STYLE', 'CODE'].includes(child.tagName)) continue;
            if (/^en\b/i.test(child.getAttribute('lang') ?? '') || child.getAttribute('translate') === 'no') continue;
            walk(child);
          }
        };
        walk(document.querySelector('grpo-advantages')!.shadowRoot!);
        return out;
      });
      await screenshot(page, 'advantages-view-390-zh');
      const bad = texts.filter((t) => untranslatedWords(t).length > 0);
      assert.deepEqual(bad, [], 'untranslated strings');
      assert.ok(texts.filter((t) => /[\u4e00-\u9fff]/.test(t)).length > 8, `too little Chinese: ${texts.join(' | ')}`);
    },
    { viewport: { width: 390, height: 900 } },
  );
});

test('an edited batch is drawn again: the rewards field writes the attribute and the cells follow', async () => {
  await withPage('/?view=advantages&schemes=verl,trl-group&rewards=1,0,1,0&prompts=0,0,1,1&k=2', async (page) => {
    let d = await drawn(page);
    const verl = compareAdvantages({ rewards: [1, 0, 1, 0], promptIds: [0, 0, 1, 1], k: 2 }, ['verl', 'trl-group']).columns;
    assert.deepEqual(d.values, [...verl[0]!.advantages!, ...verl[1]!.advantages!].map(cellText));
    const field = page.locator('grpo-advantages input[name="rewards"]');
    await field.fill('0, 1, 2, 2');
    await field.dispatchEvent('change');
    await page.waitForFunction(() => document.querySelector('grpo-advantages')!.getAttribute('rewards') === '0, 1, 2, 2');
    d = await drawn(page);
    const after = compareAdvantages({ rewards: [0, 1, 2, 2], promptIds: [0, 0, 1, 1], k: 2 }, ['verl', 'trl-group']).columns;
    assert.deepEqual(d.values, [...after[0]!.advantages!, ...after[1]!.advantages!].map(cellText));
  });
});

/** What the two weights figures draw: per mode, the framework labels and the cells' written values, and their widths. */
async function weightsDrawn(page: Page) {
  await page.locator('grpo-advantages .weights[data-mode="total"] svg').waitFor({ timeout: 60_000 });
  await page.evaluate('window.__name ??= (f) => f');
  return page.evaluate(() => {
    const host = document.querySelector('grpo-advantages')!;
    const root = host.shadowRoot!;
    const of = (mode: string) => {
      const svg = root.querySelector(`.weights[data-mode="${mode}"] svg`)!;
      return {
        frameworks: [...svg.querySelectorAll('text.framework')].map((t) => t.textContent ?? ''),
        values: [...svg.querySelectorAll('g.wcell text.value')].map((t) => t.textContent ?? ''),
        tokens: [...svg.querySelectorAll('text.tokens')].map((t) => Number(t.textContent)),
        perBand: Number(svg.getAttribute('data-per-band')),
        width: svg.getBoundingClientRect().width,
      };
    };
    return {
      weight: of('weight'),
      total: of('total'),
      hostWidth: host.getBoundingClientRect().width,
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    };
  });
}

test('?view=advantages&lengths=… at 390 px: each framework’s weights and totals written in their cells, no sideways scroll', async () => {
  const lengths = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120];
  await withPage(
    `/?view=advantages&lengths=${lengths.join(',')}`,
    async (page) => {
      const d = await weightsDrawn(page);
      assert.ok(d.scrollWidth <= d.innerWidth, `the page scrolls sideways: ${d.scrollWidth} > ${d.innerWidth}`);
      for (const f of [d.weight, d.total])
        assert.ok(f.width <= d.hostWidth + 0.5, `a weights figure (${f.width}px) is wider than its element`);
      assert.deepEqual(d.weight.tokens, lengths);
      const w = compareWeights({ ...input, lengths }, compareAdvantages(input, weightSchemes()));
      for (const mode of ['weight', 'total'] as const) {
        const drawnMode = d[mode];
        const frameworks: string[] = [];
        const values: string[] = [];
        for (let first = 0; first < lengths.length; first += drawnMode.perBand)
          w.columns.forEach((c, s) => {
            frameworks.push(c.unit === 'sample' ? `${c.name} · per sample` : c.name);
            for (let i = first; i < Math.min(lengths.length, first + drawnMode.perBand); i++) {
              const v = weightCell(w, s, i, mode);
              if (v !== null) values.push(v);
            }
          });
        assert.deepEqual(drawnMode.frameworks, frameworks, mode);
        assert.deepEqual(drawnMode.values, values, mode);
      }
      // dapo (TRL's default): every token 1 × the token mean; grpo's per-sequence mean: 360/12/10 = 6.5 on the shortest.
      assert.equal(weightCell(w, 0, 0, 'weight'), '1.00');
      assert.equal(weightCell(w, 1, 0, 'weight'), '6.50');
      // flow_grpo and DanceGRPO weigh each sample alike (1 × the per-sample mean), whatever its tokens; their rows say so.
      for (const name of ['flow_grpo', 'dance-grpo']) {
        assert.ok(d.weight.frameworks.includes(`${name} · per sample`), name);
        const s = w.columns.findIndex((c) => c.name === name);
        for (let i = 0; i < lengths.length; i++) assert.equal(weightCell(w, s, i, 'weight'), '1.00', `${name} #${i}`);
      }
      await screenshot(page, 'advantages-weights-390');
    },
    { viewport: { width: 390, height: 900 } },
  );
});
