/**
 * A mistake in what the user asked for (a flag, a configuration, an input file), as opposed
 * to a bug. The CLI prints `message` as one line and exits with status 2; the UI shows it
 * inline with the suggestions as clickable fixes. Where the core says it as facts
 * (src/core/messages: `configError`), `clauses` holds them, so the page can say the same in its
 * own language; `message` is then their English.
 */
export class ConfigError extends Error {
  /** Alternatives that would be valid, as partial settings to apply (e.g. `{ k: 4 }`). */
  readonly suggestions: ReadonlyArray<Record<string, unknown>>;
  /** The message as facts (each a message id and its parameters; `or`: an alternative fix), or null when it is English only. */
  readonly clauses: ReadonlyArray<{ id: string; params: object; or?: true }> | null;

  constructor(
    message: string,
    suggestions: ReadonlyArray<Record<string, unknown>> = [],
    clauses: ReadonlyArray<{ id: string; params: object; or?: true }> | null = null,
  ) {
    super(message);
    this.name = 'ConfigError';
    this.suggestions = suggestions;
    this.clauses = clauses;
  }
}
