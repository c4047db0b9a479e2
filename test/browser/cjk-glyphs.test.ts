// Chinese as a reader sees it: every character a zh-CN page puts on screen is drawn by a real font,
// not as the empty box (.notdef, "tofu") a browser draws when no installed font has the glyph.
// Without a CJK font (.ci/run installs fonts-wqy-microhei) every Chinese character is such a box,
// and no other test notices: the words are right, only their pictures are empty.
// How a character is judged: drawn in a canvas in its element's own font (family, weight, style),
// it must differ pixel for pixel from U+10FFFD, a private-use code point no font has, drawn in the
// same font, which is exactly that font's .notdef box. (Chromium's CSS.getPlatformFontsForNode does
// not tell: it names the primary font for a box too.) Each check first proves it can fail: U+0378,
// an unassigned code point, must come out as a box and "A" must not.
// Pages: the English explorer (its "中文" switch), the explorer in Chinese at every phase, every
// `?view=` of src/ui/views.ts, a tour's panel and the sample article in Chinese; then every character
// of the Chinese catalogues and templates (src/ui/i18n/) in the explorer's caption font, so a
// message no page walk reaches (an error, a notice) is covered too.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { VIEWS } from '../../src/ui/views.ts';
import { firstView, jump, phases } from './explorer-page.ts';
import { root, withPage } from './harness.ts';

/** A character drawn as a box, and where (the element's path and its font). */
interface Box {
  char: string;
  code: string;
  font: string;
  where: string;
}

interface GlyphReport {
  /** Characters drawn as the .notdef box. */
  boxes: Box[];
  /** Distinct characters checked, and how many of them are Han (CJK ideographs). */
  checked: number;
  han: number;
  /** The check's own control: the unassigned U+0378 came out as a box and "A" as a glyph, in every font. */
  controlOk: boolean;
}

const HAN = /\p{Script=Han}/u;

/**
 * Every character of the page's text (text nodes through shadow roots, SVG text, inputs' values and
 * placeholders; hidden ones too, since a font's coverage does not depend on visibility), plus
 * `extra` in the font of the element `extraFontOf` selects, checked against each font's .notdef.
 */
async function glyphsWithoutFont(page: Page, extra = '', extraFontOf = ''): Promise<GlyphReport> {
  // tsx keeps function names with a __name helper, which the page does not have.
  await page.evaluate('window.__name ??= (f) => f');
  // The page's fonts are local; wait for any it is still loading.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return page.evaluate(
    ({ extra, extraFontOf }) => {
      const SIZE = 32;
      const byFont = new Map<string, Map<string, string>>();
      const fontOf = (el: Element) => {
        const s = getComputedStyle(el);
        return `${s.fontStyle} ${s.fontWeight} ${SIZE}px ${s.fontFamily}`;
      };
      const path = (el: Element) => {
        const parts: string[] = [];
        for (
          let e: Element | null = el;
          e && parts.length < 4;
          e = e.parentElement ?? ((e.getRootNode() as ShadowRoot).host as Element | null)
        ) {
          parts.unshift(e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') + (e.classList.length ? `.${[...e.classList].join('.')}` : ''));
        }
        return parts.join(' > ');
      };
      const add = (text: string, el: Element) => {
        const font = fontOf(el);
        let chars = byFont.get(font);
        if (!chars) byFont.set(font, (chars = new Map()));
        for (const ch of text) if (!/\s/.test(ch) && !chars.has(ch)) chars.set(ch, path(el));
      };
      const skip = new Set(['STYLE', 'SCRIPT', 'TEMPLATE', 'NOSCRIPT']);
      const walk = (node: Node) => {
        for (const child of node.childNodes) {
          if (child.nodeType === Node.TEXT_NODE) {
            if (child.parentElement && child.textContent) add(child.textContent, child.parentElement);
          } else if (child instanceof Element && !skip.has(child.tagName)) {
            if (child instanceof HTMLInputElement || child instanceof HTMLTextAreaElement) add(child.value + child.placeholder, child);
            if (child.shadowRoot) walk(child.shadowRoot);
            walk(child);
          }
        }
      };
      walk(document.body);
      if (extra) {
        // The first element matching `extraFontOf` in the document or any shadow root.
        const find = (scope: Document | ShadowRoot): Element | null => {
          const hit = scope.querySelector(extraFontOf);
          if (hit) return hit;
          for (const el of scope.querySelectorAll('*')) {
            const inner = el.shadowRoot && find(el.shadowRoot);
            if (inner) return inner;
          }
          return null;
        };
        const el = find(document);
        if (!el) throw new Error(`no element ${extraFontOf} for the extra characters`);
        add(extra, el);
      }

      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = SIZE * 2;
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
      const draw = (ch: string) => {
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        ctx.fillText(ch, SIZE / 2, SIZE * 1.4);
        return new Uint32Array(ctx.getImageData(0, 0, canvas.width, canvas.height).data.buffer);
      };
      const same = (a: Uint32Array, b: Uint32Array) => a.every((v, i) => v === b[i]);
      const boxes: { char: string; code: string; font: string; where: string }[] = [];
      const checked = new Set<string>();
      let controlOk = true;
      for (const [font, chars] of byFont) {
        ctx.font = font;
        const notdef = draw('\u{10FFFD}');
        controlOk &&= same(draw('\u0378'), notdef) && !same(draw('A'), notdef);
        for (const [ch, where] of chars) {
          checked.add(ch);
          if (same(draw(ch), notdef)) {
            boxes.push({ char: ch, code: `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`, font, where });
          }
        }
      }
      return { boxes, checked: checked.size, han: [...checked].filter((c) => /\p{Script=Han}/u.test(c)).length, controlOk };
    },
    { extra, extraFontOf },
  );
}

/** Fails with every character drawn as a box; checks that the page had Chinese to check (at least `minHan` distinct ideographs). */
async function assertGlyphs(page: Page, label: string, minHan: number, extra = '', extraFontOf = ''): Promise<GlyphReport> {
  const report = await glyphsWithoutFont(page, extra, extraFontOf);
  assert.ok(report.controlOk, `${label}: the check's control failed (an unassigned code point did not draw as the font's box, or "A" did)`);
  const lines = report.boxes.map((b) => `${b.char} ${b.code} in ${b.font} at ${b.where}`);
  assert.equal(
    lines.length,
    0,
    `${label}: ${lines.length} characters drawn as an empty box (no installed font has them; .ci/run installs fonts-wqy-microhei):\n` +
      `${lines.slice(0, 20).join('\n')}${lines.length > 20 ? `\n… and ${lines.length - 20} more` : ''}`,
  );
  assert.ok(report.han >= minHan, `${label}: only ${report.han} distinct Chinese characters checked (expected ${minHan} or more)`);
  return report;
}

/** Waits until `tag`'s shadow root holds Chinese and its text has not changed for half a second. */
async function viewSettled(page: Page, tag: string): Promise<void> {
  await page.evaluate('window.__name ??= (f) => f');
  const text = () =>
    page.evaluate((t) => {
      const el = document.querySelector(t);
      const deep = (n: Node): string => {
        let s = n.nodeType === Node.TEXT_NODE ? (n.textContent ?? '') : '';
        if (n instanceof Element && n.shadowRoot) s += deep(n.shadowRoot);
        for (const c of n.childNodes) s += deep(c);
        return s;
      };
      return el ? deep(el) : '';
    }, tag);
  await page.waitForFunction(
    (t) => {
      const el = document.querySelector(t);
      return !!el?.shadowRoot && /\p{Script=Han}/u.test(el.shadowRoot.textContent ?? '');
    },
    tag,
    { timeout: 60_000 },
  );
  let last = await text();
  for (let same = 0; same < 2; ) {
    await page.waitForTimeout(250);
    const now = await text();
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

test('the English explorer: the language switch "中文" is drawn by a font', async () => {
  await withPage('/?preset=seed-000', async (page) => {
    await firstView(page);
    const report = await assertGlyphs(page, 'explorer (en)', 2);
    assert.ok(report.checked > 40, `only ${report.checked} distinct characters checked`);
  });
});

test('the explorer in Chinese: every phase, the table of the gather', async () => {
  await withPage('/?lang=zh-CN&preset=seed-000&speed=9', async (page) => {
    await firstView(page);
    await assertGlyphs(page, 'explorer, sample', 100);
    for (const phase of phases.slice(1)) {
      await jump(page, phase);
      await assertGlyphs(page, `explorer, ${phase}`, 100);
    }
    await page.locator('details.table-view summary').click();
    await page.locator('details.table-view table').waitFor();
    await assertGlyphs(page, 'explorer, table', 100);
  });
});

test('every ?view= in Chinese', async () => {
  const views = Object.entries(VIEWS);
  assert.ok(views.length >= 4, 'the views list (src/ui/views.ts) is read');
  for (const [name, { tag }] of views) {
    await withPage(`/?view=${name}&lang=zh-CN`, async (page) => {
      await viewSettled(page, tag);
      await assertGlyphs(page, `?view=${name}`, 20);
    });
  }
});

test('a tour in Chinese and the sample article in Chinese', async () => {
  await withPage('/?tour=seed-000&step=2&lang=zh-CN&speed=8', async (page) => {
    await page.locator('grpo-tour-panel section[data-step="2"][data-stage="done"]').waitFor({ timeout: 30_000 });
    await assertGlyphs(page, 'tour seed-000, step 2', 100);
  });
  await withPage('/embed.html?lang=zh-CN', async (page) => {
    // The article sets its language before its figures load; wait for the library to define them.
    await page.waitForFunction(
      () => document.documentElement.lang === 'zh-CN' && customElements.get('grpo-layout') !== undefined,
      undefined,
      {
        timeout: 60_000,
      },
    );
    await assertGlyphs(page, 'article (embed.html)', 100);
  });
});

test('every character of the Chinese catalogues and templates is drawn by a font in the explorer', async () => {
  const dir = join(root, 'src/ui/i18n');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('');
  // Han and the full-width punctuation around it (、。，：；（）《》「」 …).
  const chinese = [...new Set(sources.match(/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/gu) ?? [])].join('');
  assert.ok([...chinese].filter((c) => HAN.test(c)).length > 300, 'the catalogues are read');
  await withPage('/?lang=zh-CN&preset=seed-000', async (page) => {
    await firstView(page);
    await assertGlyphs(page, 'the catalogues in the caption font', 300, chinese, 'p.caption');
  });
});
