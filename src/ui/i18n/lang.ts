// The page's language: English by default, Simplified Chinese with `lang=zh-CN` in the URL.
// One module-level choice for the whole page (explorer, views, embeds): every element reads its
// words through the catalogues at render time, so switching re-renders every Lit element instead
// of reloading the page (a training run or a dynamic-sampling run keeps going).

export const LANGS = ['en', 'zh-CN'] as const;
export type Lang = (typeof LANGS)[number];

/** The language a query string asks for, and the notice when it asks for one this page does not speak. */
export function langOf(search: string): { lang: Lang; unknown: string | null } {
  const raw = new URLSearchParams(search).get('lang');
  if (raw === null || raw === '') return { lang: 'en', unknown: null };
  if ((LANGS as readonly string[]).includes(raw)) return { lang: raw as Lang, unknown: null };
  // Case and the bare "zh" are forgiven: a hand-typed link should still land in Chinese.
  const lower = raw.toLowerCase();
  if (lower === 'zh' || lower === 'zh-cn' || lower === 'zh-hans') return { lang: 'zh-CN', unknown: null };
  if (lower === 'en' || lower.startsWith('en-')) return { lang: 'en', unknown: null };
  return { lang: 'en', unknown: raw };
}

const initial = langOf(globalThis.location?.search ?? '');
let current: Lang = initial.lang;

/** The `lang=` value of the page's link that was not a language, or null (the switch shows a notice). */
export const unknownLang: string | null = initial.unknown;

/** The language every catalogue look-up uses now. */
export function lang(): Lang {
  return current;
}

/** The event on window after the language changed (detail: the new language). */
export const LANG_EVENT = 'grpo-lang-change';

/** `search` with `lang` set to `l` (removed for English, so default links stay as they were). */
export function withLang(search: string, l: Lang): string {
  const p = new URLSearchParams(search);
  if (l === 'en') p.delete('lang');
  else p.set('lang', l);
  const s = p.toString();
  return s === '' ? '' : `?${s}`;
}

/** Asks every Lit element of `root` (through shadow roots) to render again. */
function rerender(root: Document | ShadowRoot): void {
  for (const el of root.querySelectorAll('*')) {
    const lit = el as Element & { requestUpdate?: () => void };
    if (typeof lit.requestUpdate === 'function') lit.requestUpdate();
    if (el.shadowRoot) rerender(el.shadowRoot);
  }
}

/**
 * Switches the page's language: the catalogues, `<html lang>`, the URL (replaceState: a language is
 * a way of reading the same view, not a step Back should undo) and every element's text. The
 * language's catalogue must be loaded: callers use index.ts's `setLang`, which loads it first.
 */
export function switchLang(l: Lang): void {
  current = l;
  if (typeof document === 'undefined') return;
  document.documentElement.lang = l;
  const search = withLang(location.search, l);
  if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  rerender(document);
  window.dispatchEvent(new CustomEvent(LANG_EVENT, { detail: l }));
}

if (typeof document !== 'undefined') document.documentElement.lang = current;
