// Rank program of bench/train-step.bench.ts: data-parallel training of the seed-003 controller.
// Each of W ranks holds a replica (same initial parameters), trains on its 1/W of the global
// batch's prompts (all k configurations of each), all-reduces the gradients (mean, through the
// SharedArrayBuffer arena) and takes the same clipped Adam step: one global step per iteration.
import { makePrompts, type ControllerPrompts } from '../src/core/env/controller.ts';
import { CPU_OPS, type CpuOpsName } from '../src/ops/backend.ts';
import type { Rank } from '../src/ranks/rank.ts';
import { CpuControllerTrainer, type ControllerTrainConfig } from '../src/train/controllerStep.ts';

/** Prompts start … start + count − 1 of a bank. */
function promptRange(p: ControllerPrompts, start: number, count: number): ControllerPrompts {
  const s1 = p.stage1Input.length / p.count,
    s2 = p.stage2Input.length / p.count;
  return {
    count,
    difficulty: p.difficulty.slice(start, start + count),
    budgetMs: p.budgetMs.slice(start, start + count),
    stage1Input: p.stage1Input.slice(start * s1, (start + count) * s1),
    stage2Input: p.stage2Input.slice(start * s2, (start + count) * s2),
  };
}

export interface ShardArgs {
  /** The global configuration: `prompts` is the global batch's prompt count. */
  config: ControllerTrainConfig;
  ops: CpuOpsName;
  warmup: number;
  steps: number;
}

/** Trains warmup + steps global steps; returns ms per timed step (the same on every rank: barriers bracket the timing). */
export async function trainShard(rank: Rank, args: ShardArgs): Promise<{ msPerStep: number; meanReward: number }> {
  const { config, ops } = args;
  if (config.prompts % rank.size !== 0) throw new Error(`${config.prompts} prompts do not split over ${rank.size} ranks`);
  const share = config.prompts / rank.size;
  const bank = makePrompts(config.dims, config.prompts, config.seed);
  const trainer = new CpuControllerTrainer(
    { ...config, prompts: share, rank: rank.rank },
    promptRange(bank, rank.rank * share, share),
    CPU_OPS[ops],
  );
  let meanReward = 0;
  const step = async () => {
    const g = trainer.gradients();
    trainer.apply(await rank.allReduce(g.grads, { op: 'mean' }));
    meanReward = g.meanReward;
  };
  for (let i = 0; i < args.warmup; i++) await step();
  await rank.barrier();
  const t0 = performance.now();
  for (let i = 0; i < args.steps; i++) await step();
  await rank.barrier();
  return { msPerStep: (performance.now() - t0) / args.steps, meanReward };
}
