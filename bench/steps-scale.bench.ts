// `steps` at W = 1,024 ranks and ~10^5 samples (the aim: under a second each) on the TRL, flow_grpo
// and verl schedules, JSON and text, and the 64-GPU TRL run the issue reported killed after 300 s
// (786,432 completions), run in this process through the CLI's own main, side by side with the budget's
// estimate of the same work (core/budget.ts stepsEstimate, less STARTUP) and the load.
import os from 'node:os';
import { parseFlags } from '../src/cli/flags.ts';
import { layoutConfigFromFlags, layoutFlagSpec } from '../src/cli/layout-flags.ts';
import { STARTUP, stepsEstimate } from '../src/core/budget.ts';
import { layoutSamples } from '../src/core/samplers/estimate.ts';
import { plannedWork } from '../src/core/steps/schedule.ts';
import { timeCli } from './cli-timing.ts';
import { LAYOUT_SWEEPS } from './layout-scale.bench.ts';
import { printTable } from './timing.ts';

/** The case: 64 ranks × batch 64 × GA 64 (262,144 completions a generation batch), 3 generation batches. */
const TRL_64_GPUS = [
  '--sampler',
  'trl',
  '--ranks',
  '64',
  '--batch',
  '64',
  '--k',
  '8',
  '--dataset-size',
  '100000',
  '--gradient-accumulation-steps',
  '64',
];

export default async function bench(): Promise<void> {
  const load = () => os.loadavg()[0]!.toFixed(1);
  console.log(`load average before: ${load()}; median of 3 in-process runs after a warm-up (the 64-GPU run: 1); wall / CPU ms`);
  const rows: (string | number)[][] = [];
  for (const flags of [...LAYOUT_SWEEPS, TRL_64_GPUS]) {
    const { config } = layoutConfigFromFlags(parseFlags(flags, layoutFlagSpec));
    const work = plannedWork(config, layoutSamples(config));
    const big = flags === TRL_64_GPUS;
    for (const output of ['json', 'text'] as const) {
      const t = await timeCli(['steps', ...flags, ...(output === 'json' ? ['--json'] : [])], big ? 1 : 3);
      const estimate = stepsEstimate(work, output).ms - STARTUP.ms;
      rows.push([
        `${config.sampler} W=${config.ranks}${big ? ' B=64 GA=64' : ''}`,
        work.rows,
        output,
        t.wallMs.toFixed(0),
        t.cpuMs.toFixed(0),
        estimate.toFixed(0),
        (t.cpuMs / estimate).toFixed(2),
        `${(t.chars / 1e6).toFixed(1)} M`,
        big ? '(not a goal)' : t.wallMs < 1000 ? 'yes' : 'no',
      ]);
    }
  }
  printTable(['steps', 'rows', 'output', 'wall ms', 'CPU ms', 'estimate ms', 'CPU / estimate', 'chars', '< 1 s'], rows);
  console.log(`load average after: ${load()}`);
}
