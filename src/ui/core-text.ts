// What the core says, as a page shows it in the page's language. The core says its notes and
// ConfigErrors as facts (src/core/messages: a message id and its parameters): English renders them
// with the core's own templates, in the page's words for a flag (the setting's label) and for an
// empty number box; Chinese with src/ui/i18n/core-zh.ts (loaded with the Chinese catalogue). Messages of the page
// itself (the view
// budget) are facts of the catalogues' `pageFacts`. A message the core says only in English (a
// framework's log line, a CLI-only flag error) is shown as is in English and, in Chinese, as the
// marked English original (lang="en", which the untranslated-strings test treats as deliberate).
import { html, type TemplateResult } from 'lit';
import type { RowsMaker } from '../core/messages/errors.ts';
import { type Words, say } from '../core/messages/index.ts';
import { LAYOUT_SETTINGS, type LayoutSetting } from '../core/settings.ts';
import { coreTemplates, lang, M } from './i18n/index.ts';

/** A fact as the core or the page says it: a message id and its parameters (`or`: an alternative fix). */
export interface SaidFact {
  id: string;
  params: object;
  or?: true;
}

/**
 * An error as a view keeps it: its English message, and its facts when the core said it as facts.
 * `keys`: the view's form names its settings by their keys (the train, schedule and dynamic forms),
 * so its English names a setting by its key where the explorer names it by its label.
 */
export interface Said {
  message: string;
  clauses?: readonly SaidFact[] | null;
  keys?: boolean;
}

/** An error as a view keeps it (`keys`: the view's form is labelled by the settings' keys). */
export function saidOf(err: unknown, keys = false): Said {
  const e = err as { message?: string; clauses?: readonly SaidFact[] | null };
  return { message: String(e?.message ?? err), clauses: e?.clauses ?? null, keys };
}

const got = (value: number | string) => (typeof value === 'number' && Number.isNaN(value) ? M().model.gotNaN : `got ${value}`);

/** The explorer's English words for the flags and refused values the core's English names: a layout setting's label. */
const PAGE_WORDS: Words = {
  flag: (name) => {
    const s = LAYOUT_SETTINGS.find((x) => x.flag === name);
    return s ? settingLabel(s) : `--${name}`;
  },
  got,
};

/** A form's English words: the form labels each setting by its key (what the CLI calls --key). */
const FORM_WORDS: Words = { flag: (name) => name, got };

/** One fact in the page's language (`keys`: in the words of a form labelled by the settings' keys). */
export function factText(f: SaidFact, keys = false): string {
  const own = (M().pageFacts as Record<string, ((p: never) => string) | undefined>)[f.id];
  if (own) return own(f.params as never);
  const templates = coreTemplates(lang());
  if (templates === null) return say(f, keys ? FORM_WORDS : PAGE_WORDS);
  return (templates as Record<string, (p: object) => string>)[f.id]!(f.params);
}

/** A message's clauses in the page's language: "a; or b" in English, "a；或b。" in Chinese. */
export function clausesText(clauses: readonly SaidFact[], keys = false): string {
  if (lang() === 'en') return clauses.map((c) => (c.or ? `or ${factText(c, keys)}` : factText(c, keys))).join('; ');
  return `${clauses.map((c) => (c.or ? `或${factText(c, keys)}` : factText(c, keys))).join('；')}。`;
}

/** Text with `code` spans rendered as <code> (no raw backticks on the page). */
export function withCode(text: string): (string | TemplateResult)[] {
  return text.split(/`([^`]*)`/).map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));
}

/** Core text said only in English: itself in English, the marked original in another language. */
export function coreOriginal(text: string, words: (s: string) => (string | TemplateResult)[] = (s) => [s]): (string | TemplateResult)[] {
  return lang() === 'en'
    ? words(text)
    : [html` <span class="i18n-original">${M().lang.original}<span lang="en">${words(text)}</span></span>`];
}

/** An error for the page, in the page's language, code as <code>. */
export function errorText(error: Said | string): (string | TemplateResult)[] {
  const said = typeof error === 'string' ? { message: error } : error;
  return said.clauses ? withCode(clausesText(said.clauses, said.keys)) : coreOriginal(said.message, withCode);
}

/** `lead(error)` in the page's language: the error said from its facts, or its English behind the lead in another language. */
export function withCoreMessage(lead: (m: string) => string, error: Said | string): (string | TemplateResult)[] {
  const said = typeof error === 'string' ? { message: error } : error;
  if (said.clauses) return [lead(''), ...errorText(said)];
  return lang() === 'en' ? [lead(said.message)] : [lead(''), ...coreOriginal(said.message)];
}

/** A layout note in the page's language. */
export function noteText(note: SaidFact): (string | TemplateResult)[] {
  return withCode(factText(note));
}

/** A setting's label in the page's language (the core's table is the English one). */
export function settingLabel(s: LayoutSetting): string {
  return M().core.settings[s.param].label;
}

/** A setting's hint in the page's language. */
export function settingHint(s: LayoutSetting): string {
  return M().core.settings[s.param].hint;
}

/** A suggested fix ("k = 2, batch = 4") in the page's language: English keeps the core's flag names, Chinese says the labels. */
export function suggestionWords(suggestion: Record<string, unknown>, english: (s: Record<string, unknown>) => string): string {
  if (lang() === 'en') return english(suggestion);
  return Object.entries(suggestion)
    .map(([key, v]) => {
      const s = LAYOUT_SETTINGS.find((x) => x.field === key);
      return `${s ? settingLabel(s) : key} = ${String(v)}`;
    })
    .join('，');
}

/**
 * Why the advantages cannot be computed, in the page's words: the core's failure names which
 * rows it could not form (facts 'advantages.rows' and 'advantages.slice-back'); anything else is
 * prefixed as it was said.
 */
export function advantageErrorWords(err: unknown): string {
  const f = (err as { fact?: SaidFact }).fact;
  const p = (f?.params ?? {}) as Record<string, string | number>;
  if (f?.id === 'advantages.rows') {
    // The core names the row maker by a key, which the catalogue has words for (a new one without them does not compile).
    const maker = M().model.rowMakers[(f.params as { rows: RowsMaker }).rows];
    return M().model.noAdvantagesRows(maker.who, String(p.size), maker.where, String(p.count));
  }
  if (f?.id === 'advantages.slice-back') return M().model.noSliceBack(String(p.count), String(p.ranks));
  return M().model.noAdvantages(f ? factText(f) : String((err as Error)?.message ?? err));
}
