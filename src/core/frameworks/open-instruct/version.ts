// The open-instruct commit this home models, and how its errors are quoted.
import { ConfigError } from '../../errors.ts';

export const COMMIT = 'e6c3044aa6201c8bfa4573c1b03142af599e730d';
export const VERSION = 'open-instruct e6c3044';

/** One of open-instruct's own errors, verbatim, with where it is raised and the version. */
export function openInstructError(kind: string, message: string, where: string): ConfigError {
  return new ConfigError(`${kind}: ${message} (${where}, ${VERSION})`);
}
