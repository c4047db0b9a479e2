// The OpenRLHF commit this home models, and how its errors are quoted.
import { ConfigError } from '../../errors.ts';

export const COMMIT = '3c3be6234e0cb353e76bb8019947db9dfe99fca7';
export const VERSION = 'OpenRLHF 3c3be62';

/** One of OpenRLHF's own errors, verbatim, with where it is raised and the version. */
export function openrlhfError(kind: string, message: string, where: string): ConfigError {
  return new ConfigError(`${kind}: ${message} (${where}, ${VERSION})`);
}
