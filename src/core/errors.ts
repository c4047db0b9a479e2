/**
 * A mistake in what the user asked for (a flag, a configuration, an input file), as opposed
 * to a bug. The CLI prints `message` as one line and exits with status 2; the UI shows it
 * inline with the suggestions as clickable fixes.
 */
export class ConfigError extends Error {
  /** Alternatives that would be valid, as partial settings to apply (e.g. `{ k: 4 }`). */
  readonly suggestions: ReadonlyArray<Record<string, unknown>>;

  constructor(message: string, suggestions: ReadonlyArray<Record<string, unknown>> = []) {
    super(message);
    this.name = 'ConfigError';
    this.suggestions = suggestions;
  }
}
