// Budgets checked before any work: every command estimates the time and memory its settings
// need, and refuses in one line (estimate, budget, which flags to lower) when over. The
// estimates are deliberately coarse upper bounds from measured per-item costs; what matters is
// that no accepted setting can run out of memory or run for minutes without a word.
import { ConfigError } from './errors.ts';

/** The stated budgets (generous: a laptop, a shared CI runner). */
export const BUDGET = {
  /** Bytes of memory a command may plan to use. */
  bytes: 2 * 1024 ** 3,
  /** Milliseconds of work a command may plan (on a slow 2-core machine). */
  ms: 30_000,
} as const;

export interface Estimate {
  bytes: number;
  ms: number;
}

function gb(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : `${Math.ceil(bytes / 1024 ** 2)} MB`;
}

function seconds(ms: number): string {
  return ms >= 100_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The ConfigError for an estimate over budget, or null. `what` names the work, `lower` the flags that shrink it. */
export function overBudget(what: string, estimate: Estimate, lower: string, budget: Estimate = BUDGET): ConfigError | null {
  const memory = estimate.bytes > budget.bytes;
  const time = estimate.ms > budget.ms;
  if (!memory && !time) return null;
  const parts = [
    memory ? `about ${gb(estimate.bytes)} of memory (budget ${gb(budget.bytes)})` : '',
    time ? `about ${seconds(estimate.ms)} (budget ${seconds(budget.ms)})` : '',
  ].filter(Boolean);
  return new ConfigError(`${what} would need ${parts.join(' and ')}; lower ${lower}`);
}
