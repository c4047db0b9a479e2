// A trained controller as the schedule simulator's policy (seed-001 "from the trained policy"):
// its action distribution per prompt as per-head tables. Pure (no files): `grpo-sandbox
// schedule --policy RUN` reads the run's files and calls this, and so does the browser's
// <grpo-schedule> with the files a person gives it.
import { controllerLayout, INSERTION_POSITIONS } from '../core/env/controller.ts';
import { makeTask, type Task } from '../core/env/task.ts';
import { ConfigError } from '../core/errors.ts';
import { Mt19937, randperm } from '../core/rng/index.ts';
import type { ControllerPolicy, HeadTables } from '../core/schedule/index.ts';
import { cpuBackend } from '../ops/backend.ts';
import { decodeCheckpoint } from './checkpoint.ts';
import { checkTrainConfig, type TrainConfig, trainConfigFromJson } from './config.ts';
import { rollout } from './policy.ts';

/** A training run, read: its task and the parameters at its checkpoint's step. */
export interface TrainedController {
  task: Task;
  params: Float32Array;
  step: number;
}

/**
 * Reads a run from its config.json and checkpoint.json (parsed JSON); `configWhere` and
 * `checkpointWhere` name the files in errors, `what` names the run (the flag or the input).
 */
export function readTrainedController(
  configJson: unknown,
  checkpointJson: unknown,
  configWhere: string,
  checkpointWhere: string,
  what: string,
): TrainedController {
  let config: TrainConfig;
  try {
    config = trainConfigFromJson(configJson);
    checkTrainConfig(config);
  } catch (err) {
    throw new ConfigError(`${what}: ${configWhere} is not a training run's config (${(err as Error).message})`);
  }
  const state = decodeCheckpoint(checkpointJson, controllerLayout(config.dims).length, checkpointWhere);
  return { task: makeTask(config.dims, config.seed, config.bankSize), params: state.params, step: state.step };
}

/** The trained controller as a policy for `samples` prompts chosen by `seed`. */
export async function trainedPolicy(
  run: TrainedController,
  samples: number,
  seed: number,
  name: string,
  description: string,
): Promise<ControllerPolicy> {
  return { name, description, tables: await trainedTables(run.task, run.params, promptsFor(run.task, samples, seed)) };
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
