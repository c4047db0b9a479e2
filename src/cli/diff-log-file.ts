// The probe's log file for `grpo-sandbox diff`, read under the input limit with one-line errors.
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../core/errors.ts';
import { quote } from './flags.ts';
import { bytesText, MAX_INPUT_BYTES } from './io.ts';

export function readLog(path: string): string {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new ConfigError(`--log ${quote(path)} is not a regular file`);
    size = st.size;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`--log ${quote(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (size > MAX_INPUT_BYTES)
    throw new ConfigError(`--log ${quote(path)} is ${bytesText(size)}, above the input limit of ${bytesText(MAX_INPUT_BYTES)}`);
  return readFileSync(path, 'utf8');
}
