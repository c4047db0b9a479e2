// Catalogue look-ups. `M()` is the current language's catalogue; `section(name)` is a live view of
// one section (a Proxy that reads the current language on every access), so a view's `MSG` object
// keeps its shape and its uses (`MSG.title`, `MSG.stepOf(…)`) while the words follow the switch.
import { type Catalogue, en } from './en.ts';
import { lang, type Lang } from './lang.ts';
import { zhCN } from './zh-CN.ts';

export { LANGS, type Lang, lang, setLang, langOf, withLang, LANG_EVENT, unknownLang } from './lang.ts';
export type { Catalogue } from './en.ts';

export const CATALOGUES: Record<Lang, Catalogue> = { en, 'zh-CN': zhCN };

/** The catalogue of the page's language now. */
export function M(): Catalogue {
  return CATALOGUES[lang()];
}

/** A live view of one section: each property read comes from the current language's catalogue. */
export function section<K extends keyof Catalogue>(name: K): Catalogue[K] {
  return new Proxy({} as Catalogue[K], {
    get: (_, key) => (CATALOGUES[lang()][name] as Record<string | symbol, unknown>)[key],
    has: (_, key) => key in (CATALOGUES[lang()][name] as object),
    ownKeys: () => Reflect.ownKeys(CATALOGUES[lang()][name] as object),
    getOwnPropertyDescriptor: (_, key) => {
      const value = (CATALOGUES[lang()][name] as Record<string | symbol, unknown>)[key];
      return value === undefined ? undefined : { value, enumerable: true, configurable: true, writable: false };
    },
  });
}
