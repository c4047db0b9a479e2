// Compares a real run's logged layout (probe-log.ts) with the sandbox's prediction for the same
// settings, built by the same samplers `grpo-sandbox layout` uses, and names the likely cause
// of a divergence from its pattern (docs/architecture.md, "bridge").
import { ConfigError } from '../errors.ts';
import type { Layout, LayoutConfig } from '../layout/types.ts';
import { buildLayout, defaultConfig, samplers, validateConfig } from '../samplers/index.ts';
import type { ProbeLog, ProbeRecord } from './probe-log.ts';

export interface Divergence {
  /** Global step (0-based over the run), with its epoch and step within the epoch. */
  step: number;
  epoch: number;
  stepInEpoch: number;
  rank: number;
  expected: number[];
  found: number[];
}

export interface DiffResult {
  identical: boolean;
  /** The settings the prediction was built from (the log's, with any overrides). */
  config: LayoutConfig;
  steps: number;
  ranks: number;
  matchingSteps: number;
  first?: Divergence;
  /** One sentence: why the run diverged, from the pattern of the mismatches. */
  diagnosis?: string;
  /** Settings where the overrides differ from what the run's probe read. */
  settingsDiffer: string[];
}

/** The prediction's configuration: what the probe read, over the default for fields it could not read, then the overrides. */
export function predictedConfig(log: ProbeLog, overrides: Partial<LayoutConfig> = {}): LayoutConfig {
  const config = { ...defaultConfig, epochs: 1, ...log.header.settings, ...overrides } as LayoutConfig;
  const err = validateConfig(config);
  if (err) throw new ConfigError(`the logged settings (line ${log.header.line}) are not a valid sandbox configuration: ${err.message}`);
  // Enough epochs to cover every logged step (the probe cannot know how many the run will do).
  const perEpoch = samplers[config.sampler].effective(config).batchesPerEpoch;
  return { ...config, epochs: Math.floor(log.lastStep / perEpoch) + 1 };
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);
const sameStep = (a: number[][], b: number[][]) => a.length === b.length && a.every((r, i) => same(r, b[i]!));
const sorted = (rows: number[][]) => rows.flat().sort((x, y) => x - y);

/** The divergence's most likely cause, from which expected steps the found ones equal. */
function diagnose(expected: number[][][], found: number[][][], perEpoch: number, matching: number): string {
  const divergent = found.map((_, s) => s).filter((s) => !sameStep(expected[s]!, found[s]!));
  // For each divergent step, the earlier expected step it reproduces (if any).
  const earlier = divergent.map((s) => {
    for (let j = s - 1; j >= 0; j--) if (sameStep(found[s]!, expected[j]!)) return j;
    return -1;
  });
  if (earlier.every((j) => j >= 0)) {
    if (earlier.every((j) => j === earlier[0])) {
      return (
        `every step from ${divergent[0]} on repeats step ${earlier[0]}'s batch: the sampler's seed never advances ` +
        `(set_epoch is not called before each batch, or always with the same value)`
      );
    }
    if (divergent.every((s, i) => earlier[i]! === s % perEpoch && s >= perEpoch)) {
      return (
        `every epoch repeats epoch 0's batches: the sampler is not told the epoch ` +
        `(set_epoch missing, or called with the same value each epoch)`
      );
    }
    // A constant lag for most steps: the loader drew those index batches ahead of set_epoch.
    const lags = new Map<number, number>();
    divergent.forEach((s, i) => lags.set(s - earlier[i]!, (lags.get(s - earlier[i]!) ?? 0) + 1));
    const [lag, count] = [...lags].sort((a, b) => b[1] - a[1])[0]!;
    if (count * 2 >= divergent.length) {
      return (
        `found step s holds expected step s−${lag} (shifted by ${lag} batch(es), the first steps repeated): a DataLoader that prefetches ` +
        `(num_workers > 0) drew index batches before set_epoch took effect; use num_workers=0 for the sampler, or set the epoch ` +
        `before the loader's iterator draws`
      );
    }
  }
  if (divergent.every((s) => same(sorted(expected[s]!), sorted(found[s]!)))) {
    return (
      `every step has the expected prompts, placed differently across ranks or slots: a different sampler or sharding ` +
      `(rank order, per-rank slicing) than --sampler's`
    );
  }
  const sameOverall = same(sorted(expected.flat()), sorted(found.flat()));
  if (matching === 0) {
    return sameOverall
      ? `no step matches, though the run drew the same prompts overall: a different seed or shuffle order than the settings say`
      : `no step matches: a different seed (or a different dataset order or size) than the settings say`;
  }
  if (sameOverall) return `the run draws the same prompts in a different order: a different sampler over the same data`;
  return (
    `the run matches until step ${divergent[0]}, then draws other prompts: the framework's loop differs from the sandbox's ` +
    `sampler there (a different version, or a setting the probe could not read)`
  );
}

/** Compares every logged (step, rank) with the prediction; throws ConfigError for a log with a rank missing at some step. */
export function diffLog(log: ProbeLog, overrides: Partial<LayoutConfig> = {}): DiffResult {
  const config = predictedConfig(log, overrides);
  const layout: Layout = buildLayout(config);
  const W = config.ranks;
  const settingsDiffer = Object.entries(overrides)
    .filter(([k, v]) => k in log.header.settings && (log.header.settings as Record<string, unknown>)[k] !== v)
    .map(([k, v]) => `${k}: the run read ${(log.header.settings as Record<string, unknown>)[k]}, the prediction uses ${v}`);
  const expected: number[][][] = [];
  const found: number[][][] = [];
  for (let s = 0; s <= log.lastStep; s++) {
    const byRank = log.records.get(s);
    const rows: number[][] = [];
    for (let r = 0; r < W; r++) {
      const rec: ProbeRecord | undefined = byRank?.get(r);
      if (!rec)
        throw new ConfigError(`the log has no record for step ${s}, rank ${r} (it logs up to step ${log.lastStep}): a rank stopped early?`);
      rows.push(rec.ids);
    }
    found.push(rows);
    expected.push(layout.steps[s]!.ranks);
  }
  const perEpoch = layout.config.batchesPerEpoch;
  let matchingSteps = 0;
  let first: Divergence | undefined;
  for (let s = 0; s < found.length; s++) {
    if (sameStep(expected[s]!, found[s]!)) matchingSteps++;
    else if (!first) {
      const rank = found[s]!.findIndex((row, r) => !same(row, expected[s]![r]!));
      first = {
        step: s,
        epoch: Math.floor(s / perEpoch),
        stepInEpoch: s % perEpoch,
        rank,
        expected: expected[s]![rank]!,
        found: found[s]![rank]!,
      };
    }
  }
  const result: DiffResult = { identical: !first, config: layout.config, steps: found.length, ranks: W, matchingSteps, settingsDiffer };
  if (first) {
    result.first = first;
    result.diagnosis = diagnose(expected, found, perEpoch, matchingSteps);
  }
  return result;
}
