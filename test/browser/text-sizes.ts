// The rendered size of every piece of text a page shows (used by projector.test.ts): each visible
// element's own text, in the document and every shadow root below it, with its computed font
// size times what scales it on screen (the page's CSS zoom, `currentCSSZoom`; for SVG text, the
// SVG's own scale from its viewBox, read from its screen matrix, which includes the zoom). Run in
// the page as `page.evaluate(RENDERED_TEXT_SIZES)`: a script in a string, since tsx would name its
// inner functions with a helper the page lacks.

export interface TextSize {
  /** The element's tag and class, and the start of its text. */
  where: string;
  /** The text's size on screen in px of the window. */
  px: number;
}

/** An expression that evaluates in the page to every visible text's TextSize, smallest first. */
export const RENDERED_TEXT_SIZES = `(() => {
  const out = [];
  const skip = new Set(['STYLE', 'SCRIPT', 'TITLE', 'OPTION', 'TEMPLATE', 'title']);
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (skip.has(el.tagName)) continue;
      let own = '';
      for (const n of el.childNodes) if (n.nodeType === 3) own += n.textContent;
      own = own.trim();
      if (own === '') continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      let scale = el.currentCSSZoom ?? 1;
      if (el instanceof SVGElement && el.getScreenCTM) {
        const m = el.getScreenCTM();
        if (m) scale = Math.hypot(m.a, m.b);
      }
      const px = Number.parseFloat(getComputedStyle(el).fontSize) * scale;
      const cls = typeof el.className === 'string' ? el.className : (el.getAttribute('class') ?? '');
      out.push({ where: el.tagName.toLowerCase() + (cls ? '.' + cls.trim().split(/\\s+/).join('.') : '') + ' “' + own.slice(0, 40) + '”', px });
    }
  };
  visit(document);
  return out.sort((a, b) => a.px - b.px);
})()`;
