// Where `grpo-sandbox schedule --policy` gets its controller policy: the uniform one, a JSON file
// of per-head probability tables (src/core/schedule/policy.ts describes the format), or a run of
// `grpo-sandbox train` (its checkpoint.json, with config.json beside it).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { controllerLayout, INSERTION_POSITIONS } from '../core/env/controller.ts';
import { makeTask, type Task } from '../core/env/task.ts';
import { ConfigError } from '../core/errors.ts';
import { Mt19937, randperm } from '../core/rng/index.ts';
import { parseHeadTables, uniformPolicy, type ControllerPolicy, type HeadTables } from '../core/schedule/index.ts';
import { cpuBackend } from '../ops/backend.ts';
import { decodeCheckpoint } from '../train/checkpoint.ts';
import { checkTrainConfig, DEFAULT_TRAIN, type TrainConfig } from '../train/config.ts';
import { rollout } from '../train/policy.ts';
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
  const config = { ...DEFAULT_TRAIN, ...(readJson(configPath, spec) as Partial<TrainConfig>) };
  try {
    checkTrainConfig(config);
  } catch (err) {
    throw new ConfigError(
      `--policy ${quote(spec, 200)}: ${quote(configPath, 200)} is not a training run's config (${(err as Error).message})`,
    );
  }
  const state = decodeCheckpoint(readJson(checkpoint, spec), controllerLayout(config.dims).length, checkpoint);
  const task = makeTask(config.dims, config.seed, config.bankSize);
  return {
    name: spec,
    description: `the controller trained in ${dir} (step ${state.step})`,
    tables: await trainedTables(task, state.params, promptsFor(task, samples, seed)),
  };
}

/** `samples` prompts of the bank: a seeded permutation, cycled when the batch outnumbers the bank. */
export function promptsFor(task: Task, samples: number, seed: number): number[] {
  const order = randperm(task.prompts.count, new Mt19937(seed));
  return Array.from({ length: samples }, (_, s) => order[s % order.length]!);
}

/**
 * The trained controller's action distribution on each prompt, as tables: stage 1 once per
 * prompt, stage 2 once per prompt and insertion position (forced, as the training report's
 * evaluation does; stage 2 reads the latency token of that position), knob 3 masked. The forward
 * pass is the trainer's own (src/train/policy.ts) on the CPU reference; only its probabilities
 * are used, not its samples.
 */
export async function trainedTables(task: Task, params: Float32Array, prompts: readonly number[]): Promise<HeadTables[]> {
  const P = INSERTION_POSITIONS.length;
  const rows = prompts.flatMap((id) => Array.from({ length: P }, () => id));
  const forced = Uint32Array.from(rows, (_, r) => r % P);
  const ro = await rollout(cpuBackend, task, params, rows, { seed: 0, step: 0, rowOffset: 0 }, forced);
  const row = (name: 'tier' | 'insertion' | 'topK' | 'knob3', r: number) => {
    const probs = ro.heads[name].probs;
    const width = probs.length / rows.length;
    return Array.from(probs.subarray(r * width, (r + 1) * width));
  };
  return prompts.map((_, i) => ({
    tier: row('tier', i * P),
    insertion: row('insertion', i * P),
    topK: Array.from({ length: P }, (_, p) => row('topK', i * P + p)),
    knob3: Array.from({ length: P }, (_, p) => row('knob3', i * P + p)),
  }));
}
