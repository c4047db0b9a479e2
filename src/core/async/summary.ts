// A run in a few numbers: lag, drops, idle time, throughput, and the length bias (is what the trainer saw
// shorter than what was generated? Drop-and-regenerate rules favour fast completions).
import type { AsyncSummary, Dropped, Group, LengthBias, Sample, TrainedStep } from './types.ts';

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export function lengthBias(steps: readonly TrainedStep[], generated: readonly Sample[], groups: readonly Group[]): LengthBias {
  const trained = steps.flatMap((s) => s.samples);
  const trainedMean = mean(trained.map((s) => s.length));
  const generatedMean = mean(generated.map((s) => s.length));
  const byDifficulty: LengthBias['byDifficulty'] = {};
  const labels = [...new Set(groups.map((g) => g.difficulty).filter((d): d is string => d !== null))].sort();
  for (const label of labels) {
    const t = trained.filter((s) => s.difficulty === label).map((s) => s.length);
    const g = generated.filter((s) => groups[s.group]!.difficulty === label).map((s) => s.length);
    byDifficulty[label] = { trainedMean: round6(mean(t)), generatedMean: round6(mean(g)), trained: t.length, generated: g.length };
  }
  return {
    trainedMean: round6(trainedMean),
    generatedMean: round6(generatedMean),
    bias: generatedMean === 0 ? 0 : round6(trainedMean / generatedMean - 1),
    byDifficulty,
  };
}

export function summarize(
  steps: readonly TrainedStep[],
  dropped: readonly Dropped[],
  generated: readonly Sample[],
  groups: readonly Group[],
  end: number,
): AsyncSummary {
  const lags = steps.flatMap((s) => s.samples.map((x) => x.lag));
  const makespan = steps.length === 0 ? 0 : steps[steps.length - 1]!.end;
  const trainedCount = lags.length;
  return {
    steps: steps.length,
    makespan: round6(makespan || end),
    throughput: makespan > 0 ? round6(trainedCount / makespan) : 0,
    meanLag: round6(mean(lags)),
    maxLag: lags.reduce((m, x) => Math.max(m, x), 0),
    dropped: dropped.length,
    trainerIdle: round6(steps.reduce((t, s) => t + s.trainerIdle, 0)),
    generatorIdle: round6(steps.reduce((t, s) => t + s.generatorIdle, 0)),
    lengthBias: lengthBias(steps, generated, groups),
  };
}
