// The training budget (core/budget.ts trainStepEstimate) beside a measured first step (the run's slowest,
// the one the estimate is for), one rank, at two sizes, with the load: the ratio says whether a per-sample
// cost has gone stale (it once was hundreds of times too high at dModel 2048 and refused steps that take a
// second). Timings are reported here, never asserted in tests; test/cli/given-and-budgets.test.ts holds
// what the budget admits.
import os from 'node:os';
import { trainStepEstimate } from '../src/core/budget.ts';
import { DEFAULT_TRAIN } from '../src/train/config.ts';
import { train } from '../src/train/run.ts';
import { printTable } from './timing.ts';

const SIZES = [
  { dims: { dModel: 32, hidden: 32 }, batch: 4096, k: 8 },
  { dims: { dModel: 2048, hidden: 256 }, batch: 256, k: 8 },
];

export default async function bench(): Promise<void> {
  const load = () => os.loadavg()[0]!.toFixed(1);
  console.log(`load average before: ${load()}; first step of a one-step run, one rank, one thread (the lowest of 2 runs)`);
  const rows: (string | number)[][] = [];
  for (const { dims, batch, k } of SIZES) {
    const config = { ...DEFAULT_TRAIN, dims, ranks: 1, batch, k, steps: 1 };
    const runs = [];
    for (let i = 0; i < 2; i++) runs.push((await train({ config, threads: 1, helpers: 0 })).metrics[0]!.stepMs);
    const measured = Math.min(...runs);
    const estimate = trainStepEstimate({ ranks: 1, batch, dModel: dims.dModel, hidden: dims.hidden, draws: 1, k }).ms;
    rows.push([
      `dModel ${dims.dModel} × hidden ${dims.hidden}`,
      batch,
      measured.toFixed(0),
      estimate.toFixed(0),
      (estimate / measured).toFixed(2),
    ]);
  }
  printTable(['size', 'samples', 'measured ms', 'estimate ms', 'estimate / measured'], rows);
  console.log(`load average after: ${load()}`);
}
