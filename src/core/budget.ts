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
 * What a command costs before its work: the runtime and its modules (~60 MB, ~0.2 s). The
 * per-item costs of `layout` and `steps` come on top; bench/layout-scale.bench.ts and steps-scale.bench.ts
 * report those beside runs in one process, where this start is already paid, against the estimate less this.
 */
export const STARTUP: Estimate = { bytes: 60 * 1024 ** 2, ms: 200 };

/** What `steps` builds: one row per completion per pass over it, in micro-batches of one rank each. */
export interface StepsWork {
  /** Completion-micro-steps: every completion once per pass (num_iterations, inner epochs, ppo_epochs). */
  rows: number;
  /** Micro-batches, one per rank per micro-step (each has its normaliser and its own line in the text). */
  microBatches: number;
}

const STEPS_COST = {
  // Measured in one process (CPU time, warm), 5·10^4–2·10^5 rows on the TRL, flow_grpo and verl schedules:
  // JSON 4.6–8 µs a row with micro-batches of 8, 10–15 µs with micro-batches of 1; the text report
  // (the table prints --show steps, the findings read every row) 1.5–4 µs a row, 4–8 µs with
  // micro-batches of 1. Memory, peak RSS at 786,432 rows in micro-batches of 64: 0.95 GB with JSON (written
  // a step at a time), 0.41 GB with the text report.
  json: { row: { bytes: 1200, ms: 0.006 }, microBatch: { bytes: 400, ms: 0.006 } },
  text: { row: { bytes: 450, ms: 0.0025 }, microBatch: { bytes: 400, ms: 0.0035 } },
} as const;

/** `steps`: building every optimizer step's rows and printing them as JSON or as the text report. */
export function stepsEstimate(work: StepsWork, output: 'json' | 'text'): Estimate {
  const cost = STEPS_COST[output];
  return {
    bytes: STARTUP.bytes + work.rows * cost.row.bytes + work.microBatches * cost.microBatch.bytes,
    ms: STARTUP.ms + work.rows * cost.row.ms + work.microBatches * cost.microBatch.ms,
  };
}

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
 * every step and stops cleanly on Ctrl-C, so only a step is budgeted): the run's first step, its
 * slowest, with every row distinct (later steps share more rows as the policy concentrates) and
 * every prompt new, whose latency tokens (5 × dModel² multiply-adds each, kept for the run) it
 * computes. Measured on the CPU backend, one rank, first step, on the shared 2-core VM (load 10–12;
 * wall ≈ CPU time): dModel 32 × hidden 32, 4096 samples: 213 ms; dModel 256 × hidden 64, 2048
 * samples: 247 ms; dModel 2048 × hidden 256, 256 samples: 386 ms, 2048 samples: 1.56–1.77 s (~5 ms
 * a prompt of it latency tokens; steady steps of the same run 0.2–0.9 s, 78 ms on a quiet machine).
 * The ranks cost about what one rank costs for the same samples (their replicas are updated once a
 * thread, src/train/replicas.ts). `npm run bench -- train-budget` reports it beside a measured first
 * step at two sizes. Memory: dModel 2048 × hidden 256, 512 samples: 270 MB; each worker ~30 MB.
 * Dynamic sampling may draw the step 1 + max-resample-times times. `k`: samples per prompt (default 1,
 * every sample its own prompt: the most latency tokens).
 */
export function trainStepEstimate(c: {
  ranks: number;
  batch: number;
  dModel: number;
  hidden: number;
  draws: number;
  k?: number;
}): Estimate {
  const samples = c.ranks * c.batch * c.draws;
  const width = c.dModel * c.hidden;
  const prompts = Math.ceil(samples / (c.k ?? 1));
  return {
    bytes: 80 * 1024 ** 2 + c.ranks * 30 * 1024 ** 2 + samples * 160 * (c.dModel + c.hidden),
    // Code not yet optimised and the step's fixed work (clip, Adam: ~3 parameters per dModel × hidden),
    // the products per sample, the latency tokens per new prompt.
    ms: 100 + 3e-4 * width + samples * (0.02 + 2.5e-7 * width) + prompts * 1.2e-6 * c.dModel ** 2,
  };
}

/**
 * `advantages` on `samples` gathered samples, once the input (capped at the stated input size)
 * is parsed: grouping, the scheme, the JSON output. Measured at 8·10^6 samples: 10 s and 1.3 GB.
 */
export function advantagesEstimate(samples: number): Estimate {
  return { bytes: 60 * 1024 ** 2 + samples * 170, ms: 200 + samples * 0.0013 };
}
