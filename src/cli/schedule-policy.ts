// Where `grpo-sandbox schedule --policy` gets its controller policy: the uniform one, or a JSON
// file of per-head probability tables (src/core/schedule/policy.ts describes the format).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ConfigError } from '../core/errors.ts';
import { parseHeadTables, uniformPolicy, type ControllerPolicy } from '../core/schedule/index.ts';

/** `uniform`, or the path of a JSON policy file. */
export function loadPolicy(spec: string): ControllerPolicy {
  if (spec === 'uniform') return uniformPolicy();
  let text: string;
  try {
    text = readFileSync(spec, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `--policy ${spec}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give 'uniform' or a JSON file`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`--policy ${spec} is not valid JSON: ${(err as Error).message}`);
  }
  return { name: basename(spec), tables: [parseHeadTables(json, `--policy ${spec}`)] };
}
