// The work a layout will take, estimated from its settings before anything is built (see
// core/budget.ts). Per-sample costs measured on the 2-core x86-64 VM with Node 20 (layout,
// gathers, regroupings, statistics, then the JSON or text report; the text report holds ~100
// bytes per sample and is the costlier one), rounded up.
import type { Estimate } from '../budget.ts';
import type { LayoutConfig } from '../layout/types.ts';
import { samplers } from './index.ts';

const PER_SAMPLE = {
  json: { bytes: 900, ms: 0.012 },
  text: { bytes: 2400, ms: 0.04 },
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
  // A fixed ~60 MB for the runtime itself.
  return { bytes: 60 * 1024 ** 2 + samples * cost.bytes, ms: 200 + samples * cost.ms };
}
