// Where `grpo-sandbox schedule --policy` gets its controller policy: the uniform one, a JSON file
// of per-head probability tables (src/core/schedule/policy.ts describes the format), or a run of
// `grpo-sandbox train` (its checkpoint.json, with config.json beside it).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../core/errors.ts';
import { parseHeadTables, uniformPolicy, type ControllerPolicy } from '../core/schedule/index.ts';
import { promptsFor, readTrainedController, trainedPolicy, trainedTables } from '../train/trained-tables.ts';
import { quote } from './flags.ts';
import { parseJsonText } from './json-input.ts';

/** Reads a JSON file for `--policy spec`; a missing file or a syntax error is one ConfigError line. */
function readJson(path: string, spec: string): unknown {
  const which = path === spec ? 'it' : quote(path, 200);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `--policy ${quote(spec, 200)}: cannot read ${which} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); ` +
        "give 'uniform', a JSON file of tables or a training run's directory",
    );
  }
  return parseJsonText(text, path === spec ? `--policy ${quote(spec, 200)}` : `--policy ${quote(spec, 200)}: ${quote(path, 200)}`);
}

/** The checkpoint a --policy path names: DIR/checkpoint.json, or the file itself; null for anything else. */
function checkpointPath(spec: string): string | null {
  if (existsSync(spec) && statSync(spec).isDirectory()) return join(spec, 'checkpoint.json');
  return basename(spec) === 'checkpoint.json' ? spec : null;
}

/**
 * `uniform`; a training run (its directory or its checkpoint.json); or a JSON file of tables.
 * A trained controller reads its input, so it gets `samples` prompts of its task's bank (chosen
 * by `seed`) and one table per prompt.
 */
export async function loadPolicy(spec: string, samples: number, seed: number): Promise<ControllerPolicy> {
  if (spec === 'uniform') return uniformPolicy();
  const checkpoint = checkpointPath(spec);
  if (checkpoint === null) {
    const tables = parseHeadTables(readJson(spec, spec), `--policy ${quote(spec, 200)}`);
    return { name: basename(spec), description: `the policy tables in ${basename(spec)}`, tables: [tables] };
  }
  const dir = dirname(checkpoint);
  const configPath = join(dir, 'config.json');
  const run = readTrainedController(
    readJson(configPath, spec),
    readJson(checkpoint, spec),
    quote(configPath, 200),
    checkpoint,
    `--policy ${quote(spec, 200)}`,
  );
  return trainedPolicy(run, samples, seed, spec, `the controller trained in ${dir} (step ${run.step})`);
}

// The pure part lives in src/train (the browser's <grpo-schedule> uses it too).
export { promptsFor, trainedTables };
