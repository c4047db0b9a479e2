// Which view the page shows: `?view=train|schedule|dynamic|steps|async|framework` replaces the explorer's element with
// that view's element (its attributes from the other URL keys) and loads the view's module on
// demand, so the explorer's first picture never pays for the dashboards. Imported by main.ts
// before the explorer, so the <grpo-explorer> element is gone before it would be upgraded.
import { LANG_EVENT, M, whenCatalogue } from './i18n/index.ts';
import { lang, withLang } from './i18n/lang.ts';
import { VIEWS, viewOf } from './views.ts';
import { applyProjector, projectorZoom } from './projector.ts';

/** Shows the view the address asks for in place of the explorer; true if it did. */
export function routeView(): boolean {
  const view = viewOf(location.search);
  if (view === null) return false;
  const { tag, load } = VIEWS[view]!;
  // `zoom=2`: projector mode scales this view as it does the explorer.
  applyProjector(projectorZoom(location.search));
  const el = document.createElement(tag);
  for (const [key, value] of new URLSearchParams(location.search)) {
    // Attributes are named like the URL keys; a key that is not a valid attribute name is skipped.
    if (key !== 'view' && key !== 'zoom' && /^[a-z][a-z0-9-]*$/.test(key)) el.setAttribute(key, value);
  }
  const explorer = document.querySelector('grpo-explorer');
  if (explorer) explorer.replaceWith(el);
  else document.body.prepend(el);
  // Above the view: a link back to the explorer and the page's language switch (the explorer has its own in its header).
  const nav = document.createElement('nav');
  nav.className = 'page-nav';
  const back = document.createElement('a');
  back.className = 'to-explorer';
  const backWords = () => {
    back.textContent = M().lang.toExplorer;
    back.href = withLang('', lang()) || location.pathname;
  };
  backWords();
  window.addEventListener(LANG_EVENT, backWords);
  nav.append(back, document.createElement('grpo-lang-switch'));
  el.before(nav);
  // The tab's title in the page's language, again after each switch.
  const title = () => {
    document.title = `grpo-sandbox · ${M().lang.viewTitles[view]}`;
  };
  title();
  window.addEventListener(LANG_EVENT, title);
  // The switch's element upgrades when its module comes (the explorer loads it after its picture).
  void import('./i18n/lang-switch.ts');
  void load();
  return true;
}

// The view renders words: it waits for the page's catalogue (at once in English).
whenCatalogue(routeView);
