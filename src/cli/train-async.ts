// What `grpo-sandbox train --async` adds to train's output: each progress line's lag, and at the end the run beside the
// same run at zero staleness (the synchronous loop): what staleness cost in reward.
import type { AsyncWorkload } from '../core/async/types.ts';
import { asyncCommandOf } from '../train/async-settings.ts';
import type { TrainConfig } from '../train/config.ts';
import type { AsyncSummary, StepRecord } from '../train/run.ts';

/** Steps the "reward at step N" comparison averages (the progress lines' reward is one step's, noisy). */
export const COMPARE_WINDOW = 10;

const mean = (xs: readonly number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const at = (step: number | null) => (step === null ? 'not' : `at step ${step}`);
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** The progress line's part: the step's mean and largest lag (step − the version that generated each row). */
export function lagPart(m: StepRecord): string {
  return m.async ? `lag ${m.async.meanLag.toFixed(2)} (max ${m.async.maxLag})` : '';
}

/** The lines that open an async run: the rule and its workload, what a row's lag is here, and the async command of the same simulation. */
export function asyncIntro(
  c: TrainConfig,
  a: { settings: Record<string, number | boolean | string>; lagDefinition: string; workload: AsyncWorkload },
): string {
  const settings = Object.entries(a.settings)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const w = a.workload;
  const workload =
    `${w.genWorkers} worker${w.genWorkers === 1 ? '' : 's'} × ${w.concurrency} slots at ${w.tokensPerSecond} tokens/s, ` +
    `${w.stepTime !== null ? `${w.stepTime} s steps` : `steps of their tokens ÷ ${w.trainTokensPerSecond} tokens/s`}, ` +
    `${w.lengths.kind === 'distribution' ? w.lengths.name : 'given'} lengths`;
  return (
    `async: ${c.async}'s staleness rule (${settings || 'no staleness setting'}) on a simulated workload (${workload}) decides ` +
    "which policy version generated each row; a row is sampled with that version's parameters and trained under the current " +
    `ones (${c.loss === 'pairwise' ? 'the pairwise loss has no importance ratio: stale rows count as on-policy' : `the ${c.loss} loss's ratio and clip`}); ` +
    `lag = step − that version\nthe same simulation, step by step: grpo-sandbox async ${asyncCommandOf(c).join(' ')}`
  );
}

export interface Comparison {
  step: number;
  window: number;
  /** The first step where the 10-step mean of the optimum fraction reaches 95% (train's summary), each run; null: not reached. */
  reached95: { async: number | null; synchronous: number | null };
  async: { rewardMean: number; optimumFraction: number; rewardOverRun: number };
  synchronous: { rewardMean: number; optimumFraction: number; rewardOverRun: number };
}

/** The async run and the synchronous one at their last common step: the last `window` steps' means, and the run's. */
export function compareRuns(
  asyncRun: readonly StepRecord[],
  syncRun: readonly StepRecord[],
  reached: (run: StepRecord[]) => { step: number } | null,
  window = COMPARE_WINDOW,
): Comparison {
  const n = Math.min(asyncRun.length, syncRun.length);
  const side = (run: readonly StepRecord[]) => {
    const last = run.slice(Math.max(0, n - window), n);
    return {
      rewardMean: mean(last.map((m) => m.rewardMean)),
      optimumFraction: mean(last.map((m) => m.optimumFraction)),
      rewardOverRun: mean(run.slice(0, n).map((m) => m.rewardMean)),
    };
  };
  return {
    step: asyncRun[n - 1]?.step ?? 0,
    window: Math.min(window, n),
    reached95: { async: reached(asyncRun.slice(0, n))?.step ?? null, synchronous: reached(syncRun.slice(0, n))?.step ?? null },
    async: side(asyncRun),
    synchronous: side(syncRun),
  };
}

/** The closing lines: the lag over the run, then reward and optimum fraction async vs synchronous. */
export function comparisonLines(a: AsyncSummary, cmp: Comparison): string[] {
  const { async: x, synchronous: y } = cmp;
  const first = cmp.step - cmp.window + 1;
  return [
    `async ${a.framework}: mean lag ${a.meanLag.toFixed(2)} versions, max ${a.maxLag}; the rule dropped ${a.dropped} group${a.dropped === 1 ? '' : 's'}`,
    `reward at step ${cmp.step} (mean of steps ${first}–${cmp.step}): async ${x.rewardMean.toFixed(3)} vs synchronous ${y.rewardMean.toFixed(3)} ` +
      `(${signed(x.rewardMean - y.rewardMean)}); of the optimum ${(100 * x.optimumFraction).toFixed(1)}% vs ${(100 * y.optimumFraction).toFixed(1)}%; ` +
      `mean reward over steps 1–${cmp.step}: ${x.rewardOverRun.toFixed(3)} vs ${y.rewardOverRun.toFixed(3)} (${signed(x.rewardOverRun - y.rewardOverRun)})`,
    `95% of the optimum (10-step mean) reached ${at(cmp.reached95.async)} async, ${at(cmp.reached95.synchronous)} synchronous`,
  ];
}
