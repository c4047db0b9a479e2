// What a simulation costs, before it runs: measured on the 2-core Intel Xeon VM (Node 20, quiet): ~0.003–0.006 ms per
// completion at 10^5 completions on 8,192 generation slots (every rule, simulation and JSON or text, 0.22–0.55 s a run;
// `npm run bench -- async-scale`), and a drop-heavy rule (prime-rl or TRL async at bound 0 with a fast generator) stops at
// MAX_GENERATED in ~0.25–0.4 s; 110 bytes of JSON a completion. 0.03 ms leaves room for a loaded machine.
import { BUDGET, type Estimate } from '../budget.ts';

/** A simulation is meant to answer in seconds: its own time budget is a third of the commands' (memory: theirs). */
export const ASYNC_BUDGET: Estimate = { bytes: BUDGET.bytes, ms: 10_000 };

/** `slots` (gen-workers × concurrency) count too: a rule without a bound fills every slot, and may fill them again. */
export function asyncEstimate(runs: number, steps: number, batch: number, k: number, slots: number): Estimate {
  const completions = runs * (steps * batch * k + 2 * slots);
  return { ms: completions * 0.03, bytes: completions * 2_000 };
}
