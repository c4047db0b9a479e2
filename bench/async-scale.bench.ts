// `async` at ~10^5 completions (the aim: under a second each), every framework's staleness rule on 1,024 generation
// workers × 8 lanes, 12 steps of 1,024 prompts × 8, and TRL async's packer over 1,024 ranks: JSON and text, run in this
// process through the CLI's own main (the runtime's start is not in it), beside the budget's estimate
// (core/async/estimate.ts) and the load.
import os from 'node:os';
import { RULES } from '../src/core/async/index.ts';
import { asyncEstimate } from '../src/core/async/estimate.ts';
import { timeCli } from './cli-timing.ts';
import { printTable } from './timing.ts';

const WORKLOAD = { workers: 1024, lanes: 8, prompts: 1024, k: 8, steps: 12 };
const workload = [
  ...['--gen-workers', WORKLOAD.workers, '--concurrency', WORKLOAD.lanes, '--train-batch-size', WORKLOAD.prompts],
  ...['--k', WORKLOAD.k, '--steps', WORKLOAD.steps],
].map(String);

/**
 * Each framework at its shipped settings, but NeMo RL's buffer (its 32 prompts in flight and 64 buffered stall a
 * 1,024-prompt step: the run would refuse); TRL async also packing each step into rows of 1,024 ranks under a 4,096-token budget.
 */
const OWN: Record<string, string[]> = { 'nemo-rl': ['--max-inflight-prompts', '1024', '--max-buffered-rollouts', '2048'] };
export const ASYNC_SWEEPS: { name: string; args: string[] }[] = [
  ...RULES.map((r) => ({ name: r.framework, args: ['--framework', r.framework, ...(OWN[r.framework] ?? [])] })),
  { name: 'trl-async packed W=1024', args: ['--framework', 'trl-async', '--token-budget', '4096', '--num-processes', '1024'] },
];

export default async function bench(): Promise<void> {
  const load = () => os.loadavg()[0]!.toFixed(1);
  const completions = WORKLOAD.prompts * WORKLOAD.k * WORKLOAD.steps;
  const estimate = asyncEstimate(1, WORKLOAD.steps, WORKLOAD.prompts, WORKLOAD.k, WORKLOAD.workers * WORKLOAD.lanes).ms;
  console.log(
    `load average before: ${load()}; ${completions} completions a run; median of 3 in-process runs after a warm-up; wall / CPU ms; ` +
      `estimate = the budget's (${estimate.toFixed(0)} ms)`,
  );
  const rows: (string | number)[][] = [];
  for (const { name, args } of ASYNC_SWEEPS) {
    for (const output of ['json', 'text'] as const) {
      let t: Awaited<ReturnType<typeof timeCli>>;
      try {
        t = await timeCli(['async', ...args, ...workload, ...(output === 'json' ? ['--json'] : [])]);
      } catch (err) {
        rows.push([name, output, '—', '—', '—', String((err as Error).message).slice(0, 60)]);
        continue;
      }
      rows.push([name, output, t.wallMs.toFixed(0), t.cpuMs.toFixed(0), `${(t.chars / 1e6).toFixed(1)} M`, t.wallMs < 1000 ? 'yes' : 'no']);
    }
  }
  printTable(['async', 'output', 'wall ms', 'CPU ms', 'chars', '< 1 s'], rows);
  console.log(`load average after: ${load()}`);
}
