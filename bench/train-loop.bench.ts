// `npm run bench -- train` (beside train-step.bench.ts): the real training loop, train() of
// src/train/run.ts, the function `grpo-sandbox train` calls. Per step: the sampler's prompt ids
// for each rank, each rank's rollout and scoring, the all-gather of rewards and prompt ids, the
// scheme's advantages, the loss, the all-reduce of the gradients, Adam, and every checksumEvery
// steps the replica check. train-step.bench.ts times a fixed-bank step with none of the sampler
// or gathers; this times what a user runs. The demo's settings (flow_grpo's sampler and
// advantages, DAPO, dModel 32), on the CPU (fast ops), in worker threads as the CLI runs them, at
// two global batches: the demo's 256 configurations (32 prompts × k=8) and train-step's default
// 2048 (256 prompts × 8), each as 1 rank and as 8 ranks. ms/step is the mean wall time of the
// timed steps as the main thread sees it (one world.run per step). BENCH_QUICK=1: fewer steps.
import os from 'node:os';
import process from 'node:process';
import { DEFAULT_TRAIN, type TrainConfig } from '../src/train/config.ts';
import { train } from '../src/train/run.ts';
import { printTable } from './timing.ts';

const RANK_COUNTS = [1, 8];

interface Size {
  /** Prompts per step (× k configurations each). */
  prompts: number;
  warmup: number;
  timed: number;
}

interface Row {
  label: string;
  ranks: number;
  global: number;
  startMs: number;
  msPerStep: number;
  finalFraction: number;
}

/** One train() run of warmup + timed steps; the warmup steps (V8 optimising every worker) are not timed. */
async function loopRow(size: Size, ranks: number): Promise<Omit<Row, 'label'>> {
  const global = size.prompts * DEFAULT_TRAIN.k;
  const steps = size.warmup + size.timed;
  const config: TrainConfig = { ...DEFAULT_TRAIN, backend: 'cpu', ranks, batch: global / ranks, steps };
  const t0 = performance.now();
  let startMs = 0;
  const result = await train({
    config,
    onStart: () => {
      startMs = performance.now() - t0;
    },
  });
  const times = result.metrics.slice(size.warmup).map((m) => m.stepMs);
  return {
    ranks,
    global,
    startMs,
    msPerStep: times.reduce((sum, t) => sum + t, 0) / times.length,
    finalFraction: result.metrics.at(-1)!.optimumFraction,
  };
}

export default async function trainLoopBench(): Promise<void> {
  const quick = Boolean(process.env.BENCH_QUICK);
  const sizes: Size[] = [
    { prompts: (DEFAULT_TRAIN.ranks * DEFAULT_TRAIN.batch) / DEFAULT_TRAIN.k, warmup: 5, timed: quick ? 10 : 40 },
    { prompts: 256, warmup: 3, timed: quick ? 4 : 10 },
  ];
  const rows: Row[] = [];
  for (const size of sizes) {
    const label = `${size.prompts}×${DEFAULT_TRAIN.k} dModel ${DEFAULT_TRAIN.dims.dModel}`;
    // Other jobs on the machine skew every row: say how busy it was (1-minute load average).
    console.log(`  train() loop ${label}: load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    for (const ranks of RANK_COUNTS) {
      const row = { label, ...(await loopRow(size, ranks)) };
      rows.push(row);
      console.log(`  train() loop ${label}: ${ranks} rank(s) ${row.msPerStep.toFixed(1)} ms/step`);
    }
  }
  console.log(`  load average after: ${os.loadavg()[0]!.toFixed(1)}`);
  console.log('');
  printTable(
    ['batch', 'loop (src/train/run.ts, CPU fast ops)', 'ms/step', 'steps/s', 'vs 1 rank', 'world start ms', 'optimumFraction at the end'],
    rows.map((r) => {
      const one = rows.find((o) => o.label === r.label && o.ranks === 1)!.msPerStep;
      return [
        r.label,
        `train(), ${r.ranks} rank${r.ranks > 1 ? 's' : ''} × ${r.global / r.ranks}`,
        r.msPerStep.toFixed(1),
        (1000 / r.msPerStep).toFixed(1),
        `${(one / r.msPerStep).toFixed(2)}×`,
        r.startMs.toFixed(0),
        r.finalFraction.toFixed(3),
      ];
    }),
  );
}
