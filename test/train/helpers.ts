// Small training runs for the tests: the library entry (src/train/run.ts) with a few settings changed.
import { makeTask } from '../../src/core/env/task.ts';
import { DEFAULT_TRAIN, type TrainConfig } from '../../src/train/config.ts';
import { train, type StepRecord, type TrainOptions } from '../../src/train/run.ts';

/** A step's metrics without its wall time (the only field that differs between equal runs). */
export type Metrics = Omit<StepRecord, 'stepMs'>;

export function withoutTime(m: StepRecord[]): Metrics[] {
  return m.map(({ stepMs: _, ...rest }) => rest);
}

export async function runTrain(config: Partial<TrainConfig>, options: Omit<TrainOptions, 'config'> = {}) {
  const result = await train({ config: { ...DEFAULT_TRAIN, ...config }, ...options });
  return { ...result, plain: withoutTime(result.metrics) };
}

/** Mean optimumFraction of the last `n` steps. */
export function lastMean(m: Metrics[], n = 10): number {
  const tail = m.slice(-n);
  return tail.reduce((s, x) => s + x.optimumFraction, 0) / tail.length;
}

/** The uniform random policy's fraction of the optimum over the whole bank. */
export function randomFraction(seed = DEFAULT_TRAIN.seed): number {
  const task = makeTask(DEFAULT_TRAIN.dims, seed, DEFAULT_TRAIN.bankSize);
  let r = 0;
  let o = 0;
  for (let i = 0; i < task.prompts.count; i++) {
    r += task.randomReward[i]!;
    o += task.optimumReward[i]!;
  }
  return r / o;
}
