// "From the trained policy" in the page: a `grpo-sandbox train` run given as its two files
// (checkpoint.json and config.json, as the CLI reads them from the run's directory), turned into
// the schedule simulator's policy by src/train's own code (the CLI's --policy RUN uses the same).
import { ConfigError } from '../../core/errors.ts';
import type { ControllerPolicy } from '../../core/schedule/index.ts';
import { readTrainedController, trainedPolicy } from '../../train/trained-tables.ts';

export interface TrainedRun {
  /** What the page calls it: `checkpoint.json (step 200)`. */
  name: string;
  /** Its tables for `samples` prompts chosen by `seed` (a trained controller reads its input). */
  policy(samples: number, seed: number): Promise<ControllerPolicy>;
}

function parse(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${name} is not JSON (${(err as Error).message})`);
  }
}

/** Reads the run from the files a person chose; exactly one checkpoint (format grpo-sandbox-checkpoint/…) and one config. */
export function readTrainedRun(files: { name: string; text: string }[]): TrainedRun {
  const parsed = files.map((f) => ({ name: f.name, json: parse(f.text, f.name) }));
  const isCheckpoint = (j: unknown) => typeof j === 'object' && j !== null && 'format' in j && 'params' in j;
  const checkpoint = parsed.filter((f) => isCheckpoint(f.json));
  const config = parsed.filter((f) => !isCheckpoint(f.json));
  if (checkpoint.length !== 1 || config.length !== 1) {
    throw new ConfigError(
      `a trained run is two files of its --out directory, checkpoint.json and config.json; got ${files.map((f) => f.name).join(', ') || 'none'}`,
    );
  }
  const run = readTrainedController(config[0]!.json, checkpoint[0]!.json, config[0]!.name, checkpoint[0]!.name, 'trained run');
  const name = `${checkpoint[0]!.name} (step ${run.step})`;
  return {
    name,
    policy: (samples, seed) => trainedPolicy(run, samples, seed, name, `the controller trained to step ${run.step} (${name})`),
  };
}
