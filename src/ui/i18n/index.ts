// Catalogue look-ups. `M()` is the current language's catalogue; `section(name)` is a live view of
// one section (a Proxy that reads the current language on every access), so a view's `MSG` object
// keeps its shape and its uses (`MSG.title`, `MSG.stepOf(…)`) while the words follow the switch.
// English is part of every page; another language's catalogue (with its templates for the core's
// messages) is a chunk of its own, loaded only when the page is read in it: `catalogueReady` settles
// when the page's language is loaded (at once in English), and `setLang` loads before it switches.
import type { CORE_ZH } from './core-zh.ts';
import { type Catalogue, en } from './en.ts';
import { type Lang, lang, switchLang } from './lang.ts';

export { LANGS, type Lang, lang, langOf, withLang, LANG_EVENT, unknownLang } from './lang.ts';
export type { Catalogue } from './en.ts';

/** A language's templates for the core's messages (message id → sentence); English uses the core's own. */
export type CoreTemplates = typeof CORE_ZH;

/** What a language other than English brings when it is loaded. */
export interface LanguagePack {
  catalogue: Catalogue;
  core: CoreTemplates;
}

const LOADERS: Record<Exclude<Lang, 'en'>, () => Promise<LanguagePack>> = {
  'zh-CN': () => import('./zh-pack.ts').then((m) => m.zhPack),
};

const loaded: Partial<Record<Lang, LanguagePack>> = {};
const loading: Partial<Record<Lang, Promise<void>>> = {};

/** Loads `l`'s catalogue (once; settled at once for English and for a language already loaded). */
export function loadCatalogue(l: Lang): Promise<void> {
  if (l === 'en' || loaded[l]) return Promise.resolve();
  loading[l] ??= LOADERS[l]().then((pack) => {
    loaded[l] = pack;
  });
  return loading[l];
}

/** Whether `l`'s catalogue can be read now. */
export function catalogueLoaded(l: Lang): boolean {
  return l === 'en' || loaded[l] !== undefined;
}

/** Settles when the catalogue of the language the page opened in is loaded (at once in English). */
// Once it is, whatever rendered before (in English) renders again in it.
export const catalogueReady: Promise<void> = catalogueLoaded(lang())
  ? Promise.resolve()
  : loadCatalogue(lang()).then(() => switchLang(lang()));

/** Runs `f` now if the page's catalogue is loaded (English: always), else once it is: what renders words waits for them. */
export function whenCatalogue(f: () => void): void {
  if (catalogueLoaded(lang())) f();
  else void catalogueReady.then(f);
}

/** `l`'s catalogue; the language must be loaded (loadCatalogue). */
export function catalogue(l: Lang): Catalogue {
  if (l === 'en') return en;
  const pack = loaded[l];
  if (!pack) throw new Error(`the ${l} catalogue is not loaded yet (await loadCatalogue('${l}'))`);
  return pack.catalogue;
}

/** `l`'s templates for the core's messages, or null for English (the core's own sentences). */
export function coreTemplates(l: Lang): CoreTemplates | null {
  return l === 'en' ? null : (loaded[l]?.core ?? null);
}

/**
 * Switches the page's language (lang.ts: `<html lang>`, the URL, every element's text), after
 * loading its catalogue if need be; switches at once, before returning, when it is loaded.
 */
export function setLang(l: Lang): Promise<void> {
  if (catalogueLoaded(l)) {
    switchLang(l);
    return Promise.resolve();
  }
  return loadCatalogue(l).then(() => switchLang(l));
}

/** The catalogue of the page's language now (English until the page's language has loaded). */
export function M(): Catalogue {
  const l = lang();
  return catalogueLoaded(l) ? catalogue(l) : en;
}

/** A live view of one section: each property read comes from the current language's catalogue. */
export function section<K extends keyof Catalogue>(name: K): Catalogue[K] {
  return new Proxy({} as Catalogue[K], {
    get: (_, key) => (M()[name] as Record<string | symbol, unknown>)[key],
    has: (_, key) => key in (M()[name] as object),
    ownKeys: () => Reflect.ownKeys(M()[name] as object),
    getOwnPropertyDescriptor: (_, key) => {
      const value = (M()[name] as Record<string | symbol, unknown>)[key];
      return value === undefined ? undefined : { value, enumerable: true, configurable: true, writable: false };
    },
  });
}
