// `layout` at W = 1,024 ranks and ~10^5 samples (the aim: under a second each), JSON and text, run
// in this process through the CLI's own main (the runtime's start, ~0.2–0.5 s, is not in it), side by
// side with the budget's estimate of the same work (core/samplers/estimate.ts, less STARTUP) and the load.
import os from 'node:os';
import { parseFlags } from '../src/cli/flags.ts';
import { layoutConfigFromFlags, layoutFlagSpec } from '../src/cli/layout-flags.ts';
import { STARTUP } from '../src/core/budget.ts';
import { layoutEstimate, layoutSamples } from '../src/core/samplers/estimate.ts';
import { timeCli } from './cli-timing.ts';
import { printTable } from './timing.ts';

export const LAYOUT_SWEEPS: string[][] = [
  ['--sampler', 'flow-grpo', '--ranks', '1024', '--batch', '4', '--k', '4', '--batches-per-epoch', '25', '--dataset-size', '4096'],
  ['--sampler', 'trl', '--ranks', '1024', '--batch', '4', '--k', '8', '--dataset-size', '12800'],
  ['--sampler', 'verl', '--ranks', '1024', '--train-batch-size', '1024', '--k', '8', '--dataset-size', '12800'],
];

export default async function bench(): Promise<void> {
  const load = () => os.loadavg()[0]!.toFixed(1);
  console.log(
    `load average before: ${load()}; median of 3 in-process runs after a warm-up; wall / CPU ms; estimate = the budget's, less its start`,
  );
  const rows: (string | number)[][] = [];
  for (const flags of LAYOUT_SWEEPS) {
    const { config } = layoutConfigFromFlags(parseFlags(flags, layoutFlagSpec));
    for (const output of ['json', 'text'] as const) {
      const t = await timeCli(['layout', ...flags, ...(output === 'json' ? ['--json'] : [])]);
      const estimate = layoutEstimate(config, output).ms - STARTUP.ms;
      rows.push([
        `${config.sampler} W=${config.ranks}`,
        layoutSamples(config),
        output,
        t.wallMs.toFixed(0),
        t.cpuMs.toFixed(0),
        estimate.toFixed(0),
        (t.cpuMs / estimate).toFixed(2),
        `${(t.chars / 1e6).toFixed(1)} M`,
        t.wallMs < 1000 ? 'yes' : 'no',
      ]);
    }
  }
  printTable(['layout', 'samples', 'output', 'wall ms', 'CPU ms', 'estimate ms', 'CPU / estimate', 'chars', '< 1 s'], rows);
  console.log(`load average after: ${load()}`);
}
