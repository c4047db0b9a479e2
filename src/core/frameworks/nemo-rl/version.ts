// The NeMo RL commit the home models, and how its errors are quoted.
import { ConfigError } from '../../errors.ts';

export const NEMO_RL_VERSION = '7ea279a';
export const NEMO_RL_COMMIT = '7ea279abfbeb698b092856d0dab61e7cf39bc909';

/** NeMo RL's own error text, tagged with the version it comes from. */
export function nemoError(kind: 'AssertionError' | 'ValueError', text: string): ConfigError {
  return new ConfigError(`${kind}: ${text} (NeMo RL ${NEMO_RL_VERSION})`);
}
