// The work a layout will take, estimated from its settings before anything is built (see
// core/budget.ts). Per-sample costs measured in one process (CPU time, warm, the lowest of three) on
// the 2-core x86-64 VM with Node 20 and Deno, 10^4–10^5 samples on every sampler: the layout,
// gathers, regroupings, statistics, then the JSON (0.7–1.5 µs a sample on TRL's, 3.5 on verl's) or
// the text report (~100 bytes a sample; 2.7–6.4 µs). flow_grpo's samplers cost twice that (JSON
// 3–6 µs, text 7–12 µs): their loader facts build the layout a second time, idealised
// (frameworks/flow-grpo/loader-facts.ts). `npm run bench -- layout-scale` reports them beside real runs; test/core/budget-estimates.test.ts holds the counts.
import { STARTUP, type Estimate } from '../budget.ts';
import type { LayoutConfig } from '../layout/types.ts';
import { samplers } from './index.ts';

const PER_SAMPLE = {
  json: { bytes: 900, ms: 0.0015 },
  text: { bytes: 2400, ms: 0.004 },
} as const;

/** Samples over the whole layout of a configuration that passed validateConfig. */
export function layoutSamples(config: LayoutConfig): number {
  const spec = samplers[config.sampler];
  const eff = spec.effective(config);
  return eff.epochs * eff.batchesPerEpoch * eff.ranks * spec.perRankPerStep(eff);
}

/** Memory and time to build a valid layout and print it as JSON or as the text report. */
export function layoutEstimate(config: LayoutConfig, output: 'json' | 'text'): Estimate {
  const samples = layoutSamples(config);
  const cost = PER_SAMPLE[output];
  return { bytes: STARTUP.bytes + samples * cost.bytes, ms: STARTUP.ms + samples * cost.ms * samplers[config.sampler].buildsPerLayout };
}
