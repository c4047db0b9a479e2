// What a simulation costs, before it runs: measured on the 2-core x86-64 VM (Node 20, shared): the drop-heavy rules
// (prime-rl, TRL at their defaults with a fast generator) take up to 0.15 ms per trained completion, 110 bytes of JSON each.
import { BUDGET, type Estimate } from '../budget.ts';

/** A simulation is meant to answer in seconds: its own time budget is a third of the commands' (memory: theirs). */
export const ASYNC_BUDGET: Estimate = { bytes: BUDGET.bytes, ms: 10_000 };

/** `slots` (gen-workers × concurrency) count too: a rule without a bound fills every slot, and may fill them again. */
export function asyncEstimate(runs: number, steps: number, batch: number, k: number, slots: number): Estimate {
  const completions = runs * (steps * batch * k + 2 * slots);
  return { ms: completions * 0.15, bytes: completions * 2_000 };
}
