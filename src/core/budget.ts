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
  const over = overBudgetAmounts(estimate, budget);
  return over ? new ConfigError(`${what} would need ${budgetNeeds(over)}; lower ${lower}`) : null;
}

/** What an estimate over budget needs, in words ("1.20 GB", "12.3 s"), each with its budget; null within budget. */
export interface OverBudget {
  memory: { need: string; budget: string } | null;
  time: { need: string; budget: string } | null;
}

export function overBudgetAmounts(estimate: Estimate, budget: Estimate = BUDGET): OverBudget | null {
  const memory = estimate.bytes > budget.bytes;
  const time = estimate.ms > budget.ms;
  if (!memory && !time) return null;
  return {
    memory: memory ? { need: gb(estimate.bytes), budget: gb(budget.bytes) } : null,
    time: time ? { need: seconds(estimate.ms), budget: seconds(budget.ms) } : null,
  };
}

/** "about 2.11 GB of memory (budget 2.00 GB) and about 151 s (budget 30.0 s)". */
export function budgetNeeds(over: OverBudget): string {
  return [
    over.memory ? `about ${over.memory.need} of memory (budget ${over.memory.budget})` : '',
    over.time ? `about ${over.time.need} (budget ${over.time.budget})` : '',
  ]
    .filter(Boolean)
    .join(' and ');
}

// Per-command estimates. Costs measured on the 2-core x86-64 VM with Node 20 (shared, so slow),
// rounded up; each names what it was measured on.

/**
 * `schedule`: batch × k configurations on `ranks` ranks. Measured at 10^5 configurations: JSON
 * 2.5–11 s and 290–470 MB (the controller latency model is the costlier), the text charts
 * 1.5–7 s and 170 MB, --html adds ~8.5 KB per configuration (880 MB); 4096 ranks add ~4 s.
 */
export function scheduleEstimate(configurations: number, ranks: number, output: { json: boolean; html: boolean }): Estimate {
  const perConfig = output.json ? { bytes: 5_000, ms: 0.12 } : { bytes: 2_000, ms: 0.08 };
  const html = output.html ? { bytes: 9_000, ms: 0.09 } : { bytes: 0, ms: 0 };
  return {
    bytes: 80 * 1024 ** 2 + configurations * (perConfig.bytes + html.bytes),
    ms: 300 + configurations * (perConfig.ms + html.ms) + ranks,
  };
}

/**
 * `train`: one step's work, the time before the next progress line (a run of many steps reports
 * every step and stops cleanly on Ctrl-C, so only a step is budgeted). Measured on the CPU
 * backend: dModel 32 × hidden 32, 4096 samples per step: 0.37 s; dModel 2048 × hidden 256, 512
 * samples: 18.5 s and 270 MB; each worker ~30 MB. Dynamic sampling may draw the step
 * 1 + max-resample-times times.
 */
export function trainStepEstimate(c: { ranks: number; batch: number; dModel: number; hidden: number; draws: number }): Estimate {
  const samples = c.ranks * c.batch * c.draws;
  const width = c.dModel * c.hidden;
  return {
    bytes: 80 * 1024 ** 2 + c.ranks * 30 * 1024 ** 2 + samples * 160 * (c.dModel + c.hidden),
    ms: 500 + samples * (0.03 + 7e-5 * width),
  };
}

/**
 * `advantages` on `samples` gathered samples, once the input (capped at the stated input size)
 * is parsed: grouping, the scheme, the JSON output. Measured at 8·10^6 samples: 10 s and 1.3 GB.
 */
export function advantagesEstimate(samples: number): Estimate {
  return { bytes: 60 * 1024 ** 2 + samples * 170, ms: 200 + samples * 0.0013 };
}
