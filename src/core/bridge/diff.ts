// Compares a real run's logged layout (probe-log.ts) with the sandbox's prediction for the same
// settings, built by the same samplers `grpo-sandbox layout` uses, and names the likely cause
// of a divergence from its pattern (docs/architecture.md, "bridge").
import { ConfigError } from '../errors.ts';
import type { Layout, LayoutConfig } from '../layout/types.ts';
import { buildLayout, defaultConfig, samplers, validateConfig, withSamplerDefaults } from '../samplers/index.ts';
import type { ProbeLog, ProbeRecord } from './probe-log.ts';
import { versionNote } from './versions.ts';

export interface Divergence {
  /** Global step (0-based over the run), with its epoch and step within the epoch. */
  step: number;
  epoch: number;
  stepInEpoch: number;
  rank: number;
  expected: number[];
  found: number[];
}

/** What the run is compared with: the logged settings with some replaced, or a whole configuration (a preset and flags). */
export interface Prediction {
  /** Settings that replace the logged ones (`diff --seed 42` without --preset). */
  overrides?: Partial<LayoutConfig>;
  /** The whole predicted configuration (`diff --preset NAME [flags]`); the logged settings are then only compared with it. */
  config?: LayoutConfig;
  /** The preset `config` came from, for the report. */
  preset?: string;
}

export interface DiffResult {
  identical: boolean;
  /** The preset the prediction was built from, or null when it was built from the logged settings. */
  preset: string | null;
  /** The settings the prediction was built from (the log's with any overrides, or the preset's with the flags). */
  config: LayoutConfig;
  steps: number;
  /** Ranks the run logged. */
  ranks: number;
  matchingSteps: number;
  first?: Divergence;
  /** One sentence: why the run diverged, from the pattern of the mismatches. */
  diagnosis?: string;
  /** Settings where the prediction differs from what the run's probe read, one sentence each. */
  settingsDiffer: string[];
  /** The framework and version the run logged, and the version the sandbox's sampler for it models (null: none). */
  framework: { name: string; version: string; modelled: string | null };
  /** Set when the logged version is not (or may not be) the modelled one. */
  versionNote?: string;
  /** Every note, as the text report prints them: settingsDiffer, then versionNote. */
  notes: string[];
}

/**
 * The prediction's configuration: the given one, or what the probe read over the default for fields it
 * could not read, then the overrides; in both, enough epochs to cover every logged step.
 */
export function predictedConfig(log: ProbeLog, prediction: Prediction = {}): LayoutConfig {
  const logged = log.header.settings;
  if (!logged && !prediction.config)
    throw new ConfigError(
      `the log is from ${log.header.framework}: diff it with --sampler ${log.header.home} (its home's layout), not a sandbox sampler`,
    );
  // Settings the probe did not log (flow_grpo's loader, without dataloader=) are the published script's for that sampler.
  const config = prediction.config
    ? { ...prediction.config }
    : withSamplerDefaults({ ...defaultConfig, epochs: 1, ...logged, ...prediction.overrides } as LayoutConfig, [
        ...Object.keys(logged ?? {}),
        ...Object.keys(prediction.overrides ?? {}),
      ]);
  const err = validateConfig(config);
  if (err) {
    // With flags over the logged settings the bad value may be the user's, not the run's: say both.
    const flagged = Object.keys(prediction.overrides ?? {}).length > 0 ? ' with the flags given' : '';
    const what = prediction.config ? 'the predicted settings' : `the logged settings (line ${log.header.line})${flagged}`;
    throw new ConfigError(`${what} are not a valid sandbox configuration: ${err.message}`);
  }
  // Enough epochs to cover every logged step (the probe cannot know how many the run will do).
  const perEpoch = samplers[config.sampler].effective(config).batchesPerEpoch;
  return { ...config, epochs: Math.floor(log.lastStep / perEpoch) + 1 };
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);
const sameStep = (a: number[][], b: number[][]) => a.length === b.length && a.every((r, i) => same(r, b[i]!));
const sorted = (rows: number[][]) => rows.flat().sort((x, y) => x - y);

const shape = (step: number[][]) => `${step.length} rank(s) × ${step.map((r) => r.length).join('/')} id(s)`;

/** Where a step sits in the run: its epoch and its index within the epoch (epoch 0's steps are 0, 1, … in order). */
export interface StepPlace {
  epoch: number;
  stepInEpoch: number;
}

/** The words a diagnosis uses for what the prediction models: a sandbox sampler's, or a framework home's. */
export interface DiagnosisWords {
  /** Why every later step repeats one batch. */
  repeats: string;
  /** Why every epoch repeats epoch 0. */
  epochRepeats: string;
  /** The loader settings that shift batches by a look-ahead; null where the model has no such lag (the lag is not diagnosed). */
  loader: string | null;
  /** Why the right prompts sit on other ranks or slots. */
  placement: string;
  /** Why a run that matched for a while draws other prompts. */
  drift: string;
}

/** The sandbox samplers' words (flow_grpo, TRL, verl, DanceGRPO): a seeded sampler told its epoch by set_epoch. */
export const SAMPLER_WORDS: DiagnosisWords = {
  repeats: `the sampler's seed never advances (set_epoch is not called before each batch, or always with the same value)`,
  epochRepeats: `the sampler is not told the epoch (set_epoch missing, or called with the same value each epoch)`,
  loader: '(--num-workers, --prefetch-factor, --accelerate-prepare: the probe logs them when given dataloader=)',
  placement: `a different sampler or sharding (rank order, per-rank slicing) than --sampler's`,
  drift: `the framework's loop differs from the sandbox's sampler there (a different version, or a setting the probe could not read)`,
};

/** The divergence's most likely cause, from which expected steps the found ones equal. */
function diagnose(
  expected: number[][][],
  found: number[][][],
  places: readonly StepPlace[],
  matching: number,
  words: DiagnosisWords,
): string {
  // Steps of another shape (ranks, ids per rank) cannot be compared id by id: the settings differ.
  const other = found.findIndex((f, s) => shape(f) !== shape(expected[s]!));
  if (other >= 0) {
    return (
      `the run's steps are shaped differently from the prediction's (step ${other}: ${shape(found[other]!)} found, ` +
      `${shape(expected[other]!)} expected): the run used other settings than the prediction (see the note lines)`
    );
  }
  const divergent = found.map((_, s) => s).filter((s) => !sameStep(expected[s]!, found[s]!));
  // For each divergent step, the earlier expected step it reproduces (if any).
  const earlier = divergent.map((s) => {
    for (let j = s - 1; j >= 0; j--) if (sameStep(found[s]!, expected[j]!)) return j;
    return -1;
  });
  if (earlier.every((j) => j >= 0)) {
    if (earlier.every((j) => j === earlier[0]))
      return `every step from ${divergent[0]} on repeats step ${earlier[0]}'s batch: ${words.repeats}`;
    // Epoch 0's steps are the run's first ones, so the step at the same place in epoch 0 is step stepInEpoch.
    if (divergent.every((s, i) => earlier[i]! === places[s]!.stepInEpoch && places[s]!.epoch > 0))
      return `every epoch repeats epoch 0's batches: ${words.epochRepeats}`;
  }
  // A constant lag for most steps: the run's loader drew index batches further ahead of set_epoch than the
  // prediction's (found step s holds expected step s − lag), or less far (a later expected step).
  const lagOf = divergent.map((s) => {
    for (let d = 1; d <= s || s + d < expected.length; d++) {
      if (d <= s && sameStep(found[s]!, expected[s - d]!)) return d;
      if (s + d < expected.length && sameStep(found[s]!, expected[s + d]!)) return -d;
    }
    return 0;
  });
  // A loader that draws L batches ahead repeats the first batch in steps 0…L: a lag changes how many
  // leading steps repeat (another seed shifts the passes too, since each pass is seeded seed + epoch, but
  // keeps the repeats). The last steps of a run behind the prediction hold batches the prediction places
  // past the log, so only the steps whose match was found vote.
  const lead = (steps: number[][][]) => {
    let n = 1;
    while (n < steps.length && sameStep(steps[n]!, steps[0]!)) n++;
    return n;
  };
  const leadShift = lead(found) - lead(expected);
  if (words.loader !== null && leadShift !== 0 && lagOf.some((d) => d !== 0)) {
    const lags = new Map<number, number>();
    for (const d of lagOf) if (d !== 0) lags.set(d, (lags.get(d) ?? 0) + 1);
    const [lag, count] = [...lags].sort((a, b) => b[1] - a[1])[0]!;
    if (lag === leadShift && count * 2 >= lagOf.filter((d) => d !== 0).length) {
      const loader = words.loader;
      return lag > 0
        ? `found step s holds expected step s−${lag} (shifted by ${lag} batch(es), the first steps repeated): the run's loader drew ` +
            `${lag} more index batch(es) ahead of set_epoch than the prediction's ${loader}; a DataLoader that prefetches ` +
            `(num_workers > 0) or accelerate's look-ahead draws before set_epoch takes effect`
        : `found step s holds expected step s+${-lag}: the run's loader drew ${-lag} fewer index batch(es) ahead of set_epoch than ` +
            `the prediction's ${loader}`;
    }
  }
  if (divergent.every((s) => same(sorted(expected[s]!), sorted(found[s]!))))
    return `every step has the expected prompts, placed differently across ranks or slots: ${words.placement}`;
  const sameOverall = same(sorted(expected.flat()), sorted(found.flat()));
  if (matching === 0) {
    return sameOverall
      ? `no step matches, though the run drew the same prompts overall: a different seed or shuffle order than the settings say`
      : `no step matches: a different seed (or a different dataset order or size) than the settings say`;
  }
  if (sameOverall) return `the run draws the same prompts in a different order: a different sampler over the same data`;
  return `the run matches until step ${divergent[0]}, then draws other prompts: ${words.drift}`;
}

/** Every logged step 0 … lastStep as ranks 0 … W−1's ids; throws ConfigError for a rank missing at some step. */
export function loggedSteps(log: ProbeLog, W: number): number[][][] {
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
  }
  return found;
}

/** The highest logged rank + 1. */
export function loggedRanks(log: ProbeLog): number {
  let W = 0;
  for (const byRank of log.records.values()) for (const r of byRank.keys()) W = Math.max(W, r + 1);
  return W;
}

/** How the logged steps compare with the expected ones: the steps that match, and the first divergence with its likely cause. */
export interface Comparison {
  matchingSteps: number;
  first?: Divergence;
  diagnosis?: string;
}

/** Compares found[s][r] with expected[s][r] for every logged step (expected has at least as many steps). */
export function compareSteps(expected: number[][][], found: number[][][], places: readonly StepPlace[], words: DiagnosisWords): Comparison {
  let matchingSteps = 0;
  let first: Divergence | undefined;
  for (let s = 0; s < found.length; s++) {
    if (sameStep(expected[s]!, found[s]!)) matchingSteps++;
    else if (!first) {
      // A rank one side lacks (the prediction has other ranks than the run) compares as no ids.
      const row = (step: number[][], r: number) => step[r] ?? [];
      const n = Math.max(found[s]!.length, expected[s]!.length);
      let rank = 0;
      while (rank < n - 1 && same(row(found[s]!, rank), row(expected[s]!, rank))) rank++;
      first = { step: s, ...places[s]!, rank, expected: row(expected[s]!, rank), found: row(found[s]!, rank) };
    }
  }
  return first ? { matchingSteps, first, diagnosis: diagnose(expected, found, places, matchingSteps, words) } : { matchingSteps };
}

/** Compares every logged (step, rank) with the prediction; throws ConfigError for a log with a rank missing at some step. */
export function diffLog(log: ProbeLog, prediction: Prediction = {}): DiffResult {
  if (!log.header.settings)
    throw new ConfigError(
      `the log is from ${log.header.framework}: diff it with --sampler ${log.header.home} (its home's layout), not a sandbox sampler`,
    );
  const config = predictedConfig(log, prediction);
  const layout: Layout = buildLayout(config);
  const logged = log.header.settings as Record<string, unknown>;
  const settingsDiffer = Object.entries(logged)
    .filter(([k, v]) => (config as unknown as Record<string, unknown>)[k] !== v)
    .map(([k, v]) => `${k}: the run read ${v}, the prediction uses ${(config as unknown as Record<string, unknown>)[k]}`);
  // The run's own rank count: the one its probe read, else the highest logged rank + 1.
  const W = log.header.settings.ranks ?? loggedRanks(log);
  const found = loggedSteps(log, W);
  const expected = found.map((_, s) => layout.steps[s]!.ranks);
  const perEpoch = layout.config.batchesPerEpoch;
  const places = found.map((_, s) => ({ epoch: Math.floor(s / perEpoch), stepInEpoch: s % perEpoch }));
  const compared = compareSteps(expected, found, places, SAMPLER_WORDS);
  const { name, version, modelled, note } = versionNote(log.header.framework, log.header.frameworkVersion);
  const result: DiffResult = {
    identical: !compared.first,
    preset: prediction.preset ?? null,
    config: layout.config,
    steps: found.length,
    ranks: W,
    matchingSteps: compared.matchingSteps,
    settingsDiffer,
    framework: { name, version, modelled },
    notes: [...settingsDiffer, ...(note ? [note] : [])],
  };
  if (note) result.versionNote = note;
  if (compared.first) {
    result.first = compared.first;
    result.diagnosis = compared.diagnosis;
  }
  return result;
}
