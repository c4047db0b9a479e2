// What the core says to a person, as facts: a message id and its parameters. `EN` holds one
// English template per id, the only English renderer (the CLI prints `say(fact)`); the page
// renders the same facts from its catalogues (src/ui/i18n: English from these templates, Chinese
// from core-zh.ts), so no page ever reads the core's English sentences back.
// To add a message: a template here (notes.ts, errors.ts, settings.ts or steps.ts), the fact where the core says it, and
// its Chinese template in src/ui/i18n/core-zh.ts (the type there refuses a missing id).
import { ConfigError } from '../errors.ts';
import { CLI_WORDS, ERRORS_EN, type Words } from './errors.ts';
import { ASYNC_EN } from './async.ts';
import { NOTES_EN } from './notes.ts';
import { SETTINGS_EN } from './settings.ts';
import { STEPS_EN } from './steps.ts';

export const EN = { ...NOTES_EN, ...ERRORS_EN, ...SETTINGS_EN, ...STEPS_EN, ...ASYNC_EN };

/** Every message the core can say. */
export type MessageId = keyof typeof EN;

/** The parameters of message `K` (plain numbers, strings, booleans and lists: facts cross worker messages and JSON). */
export type Params<K extends MessageId> = Parameters<(typeof EN)[K]> extends [infer P, ...unknown[]] ? P : Record<string, never>;

/** One message: its id and its parameters. */
export type Fact<K extends MessageId = MessageId> = K extends MessageId ? { id: K; params: Params<K> } : never;

/** A fact, typed by its id. */
export function fact<K extends MessageId>(id: K, ...params: Params<K> extends Record<string, never> ? [] : [Params<K>]): Fact<K> {
  return { id, params: (params[0] ?? {}) as Params<K> } as Fact<K>;
}

export { CLI_WORDS, type Words };
export type { FusedGap, IgnoreReason } from './settings.ts';

/** A fact in English: the text the CLI prints (the page's English passes its own words for flags and refused values). */
export function say(f: { id: string; params: object }, words: Words = CLI_WORDS): string {
  const template = (EN as Record<string, (p: object, w: Words) => string>)[f.id];
  if (!template) throw new Error(`no English template for message '${f.id}'`);
  return template(f.params, words);
}

/**
 * One clause of a ConfigError: a fact, and whether it is an alternative to the fix before it
 * ("; or …"). A message is its clauses joined by "; ".
 */
export type Clause = Fact & { or?: true };

/** Clauses in English, as the CLI prints the error. */
export function sayClauses(clauses: readonly { id: string; params: object; or?: true }[], words: Words = CLI_WORDS): string {
  return clauses.map((c) => (c.or ? `or ${say(c, words)}` : say(c, words))).join('; ');
}

/** A ConfigError said by its clauses: the English message from them, the clauses kept for the page. */
export function configError(clauses: readonly Clause[], suggestions: ReadonlyArray<Record<string, unknown>> = []): ConfigError {
  return new ConfigError(sayClauses(clauses), suggestions, clauses);
}

/**
 * The fixes that survived verification (each built from values that passed every rule) as
 * clauses: the first plain, the rest "or …"; or, when none survived, that no single setting fixes it.
 */
export function fixClauses(fixes: readonly (Fact | null)[], none: Fact = fact('fix.none-change-several')): Clause[] {
  const shown = fixes.filter((f): f is Fact => f !== null);
  return shown.length === 0 ? [none] : shown.map((f, i) => (i === 0 ? f : { ...f, or: true as const }));
}

/** An error (a RangeError for a bug-like misuse) whose message is a fact's English, the fact kept for the page. */
export function factError<E extends Error>(make: (message: string) => E, f: Fact): E & { fact: Fact } {
  return Object.assign(make(say(f)), { fact: f });
}
